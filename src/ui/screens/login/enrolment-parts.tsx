import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Enrolment } from '../../../machines/session/session-actors';
import { FormActions } from '../../components/form-parts';
import { Button } from '../../components/button';
import * as styles from './enrolment-parts.css';

/** The server's QR code (an SVG document without script or link) as an image; the CSP allows `data:` images. */
const svgDataUrl = (svg: string) => `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;

/** The secret in groups of four, easier to type into an app by hand. */
const grouped = (secret: string) => secret.replace(/(.{4})(?=.)/g, '$1 ');

export type EnrolmentPartsProps = { enrolment: Enrolment } | { codes: string[]; onDone: () => void };

/**
 * Enrolment at sign-in (contracts/openapi.yaml `authLogin`, docs/product.md, Two-factor sign-in), in a
 * chunk of its own: the secret to add to an authenticator app (the code field below it is the login
 * form's), or, once signed in, the recovery codes shown this once. Native controls, as on the rest of
 * the login page; the /two-factor screen's messages.
 */
export default function EnrolmentParts(props: EnrolmentPartsProps) {
  return 'enrolment' in props ? <EnrolmentSecret enrolment={props.enrolment} /> : <RecoveryCodes {...props} />;
}

function EnrolmentSecret({ enrolment }: { enrolment: Enrolment }) {
  const { t } = useTranslation();
  return (
    <div className={styles.stack}>
      <p className={styles.text}>{t('twoFactor.requiredHint')}</p>
      <p className={styles.muted}>{t('twoFactor.stepApp')}</p>
      <p className={styles.muted}>{t('twoFactor.stepScan')}</p>
      <img
        className={styles.qr}
        src={svgDataUrl(enrolment.qr_svg)}
        alt={t('twoFactor.qrAlt')}
        width={192}
        height={192}
      />
      <p className={styles.muted}>
        {t('twoFactor.manualHint')} <code className={styles.mono}>{grouped(enrolment.secret)}</code>
      </p>
      <p className={styles.muted}>{t('twoFactor.stepCode')}</p>
    </div>
  );
}

function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const { t } = useTranslation();
  const [saved, setSaved] = useState(false);
  return (
    <div className={styles.stack}>
      <h1 className={styles.text}>{t('twoFactor.codesHeading')}</h1>
      <p className={styles.warning} role="alert">
        {t('twoFactor.codesWarning')}
      </p>
      <ol className={styles.codes} aria-label={t('twoFactor.codesListLabel')}>
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ol>
      <label className={styles.check}>
        <input type="checkbox" checked={saved} onChange={(event) => setSaved(event.currentTarget.checked)} />
        {t('twoFactor.savedCheck')}
      </label>
      <FormActions>
        <Button onPress={onDone} isDisabled={!saved} fullWidth>
          {t('twoFactor.done')}
        </Button>
      </FormActions>
    </div>
  );
}
