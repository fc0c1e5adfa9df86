import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { Enrolment } from '../../machines/session/session-actors';
import { AlertIcon } from './form-icons';
import { FormActions } from './form';
import { Button } from './button';
import * as styles from './two-factor-enrolment.css';

/** The server's SVG as an image source: an `<img>` never runs scripts and nothing is injected into the page. */
export function svgDataUrl(svg: string): string {
  const bytes = new TextEncoder().encode(svg);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return `data:image/svg+xml;base64,${btoa(binary)}`;
}

/** The secret in groups of four, easier to type into an app by hand. */
export const groupedSecret = (secret: string) => secret.replace(/(.{4})(?=.)/g, '$1 ');

export interface EnrolmentSecretProps {
  enrolment: Enrolment;
  /** Copies a text and says so; without it there are no copy buttons (the sign-in card). */
  onCopy?: (text: string) => void;
  /** What the last step holds: the code form on /two-factor; at sign-in the login form's field follows instead. */
  codeStep?: ReactNode;
  /** Buttons across the whole width, as on the narrow sign-in card. */
  fullWidth?: boolean;
  /** Says first that this sign-in requires enrolment (the sign-in card). */
  isRequired?: boolean;
}

export interface RecoveryCodesProps {
  codes: string[];
  /** Once the user says they saved them: the machine then forgets them. */
  onDone: () => void;
  /** Copies all codes and says so; without it, no copy button. */
  onCopy?: (text: string) => void;
  /** Offers the codes as a file; without it, no download button. */
  onDownload?: () => void;
  fullWidth?: boolean;
  /** Renders its own page heading (h1), where no card titles it (the sign-in card). */
  withHeading?: boolean;
}

export type TwoFactorEnrolmentProps = EnrolmentSecretProps | RecoveryCodesProps;

/**
 * Two-factor enrolment (docs/product.md, Two-factor sign-in), one component for the sign-in card and the
 * /two-factor screen: the secret to add to an authenticator app (steps, the server's QR code as an
 * image, the key and URI to type by hand), or, once confirmed, the recovery codes shown this once,
 * with "Concluir" only after the user says they saved them. Plain elements and native controls
 * (no React Aria): the sign-in route loads it as a chunk of its own and must stay light.
 */
export default function TwoFactorEnrolment(props: TwoFactorEnrolmentProps) {
  return 'enrolment' in props ? <EnrolmentSecret {...props} /> : <RecoveryCodes {...props} />;
}

export function EnrolmentSecret({ enrolment, onCopy, codeStep, fullWidth, isRequired }: EnrolmentSecretProps) {
  const { t } = useTranslation();
  const copy = (text: string, label: string, variant: 'secondary' | 'ghost') =>
    onCopy ? (
      <Button variant={variant} size="sm" onPress={() => onCopy(text)} fullWidth={fullWidth}>
        {label}
      </Button>
    ) : null;
  const steps = (
    <ol className={styles.steps}>
      <li className={styles.step}>{t('twoFactor.stepApp')}</li>
      <li className={styles.step}>
        <span>{t('twoFactor.stepScan')}</span>
        <img
          className={styles.qr}
          src={svgDataUrl(enrolment.qr_svg)}
          alt={t('twoFactor.qrAlt')}
          width={192}
          height={192}
        />
        <div className={styles.details}>
          <p className={styles.muted}>
            <strong>{t('twoFactor.manualHeading')}</strong> {t('twoFactor.manualHint')}
          </p>
          <dl className={styles.details}>
            <dt className={styles.muted}>{t('twoFactor.secretLabel')}</dt>
            <dd className={styles.secretRow}>
              <code className={styles.mono}>{groupedSecret(enrolment.secret)}</code>
              {copy(enrolment.secret, t('twoFactor.copySecret'), 'secondary')}
            </dd>
            <dt className={styles.muted}>{t('twoFactor.uriLabel')}</dt>
            <dd className={styles.secretRow}>
              <code className={styles.uri}>{enrolment.otpauth_uri}</code>
              {copy(enrolment.otpauth_uri, t('twoFactor.copyUri'), 'ghost')}
            </dd>
          </dl>
        </div>
      </li>
      <li className={styles.step}>
        <span>{t('twoFactor.stepCode')}</span>
        {codeStep}
      </li>
    </ol>
  );
  if (!isRequired) return steps;
  return (
    <div className={styles.stack}>
      <p className={styles.text}>{t('twoFactor.requiredHint')}</p>
      {steps}
    </div>
  );
}

export function RecoveryCodes({ codes, onDone, onCopy, onDownload, fullWidth, withHeading }: RecoveryCodesProps) {
  const { t } = useTranslation();
  const [saved, setSaved] = useState(false);
  return (
    <div className={styles.stack}>
      {withHeading ? <h1 className={styles.text}>{t('twoFactor.codesHeading')}</h1> : null}
      <p className={styles.warning} role="alert">
        <AlertIcon size={18} className={styles.warningIcon} />
        <span>{t('twoFactor.codesWarning')}</span>
      </p>
      <ol className={styles.codes} aria-label={t('twoFactor.codesListLabel')}>
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ol>
      {onCopy || onDownload ? (
        <FormActions>
          {onCopy ? (
            <Button variant="secondary" onPress={() => onCopy(codes.join('\n'))} fullWidth={fullWidth}>
              {t('twoFactor.copyCodes')}
            </Button>
          ) : null}
          {onDownload ? (
            <Button variant="secondary" onPress={onDownload} fullWidth={fullWidth}>
              {t('twoFactor.downloadCodes')}
            </Button>
          ) : null}
        </FormActions>
      ) : null}
      <label className={styles.check}>
        <input type="checkbox" checked={saved} onChange={(event) => setSaved(event.currentTarget.checked)} />
        {t('twoFactor.savedCheck')}
      </label>
      <FormActions>
        <Button onPress={onDone} isDisabled={!saved} fullWidth={fullWidth}>
          {t('twoFactor.done')}
        </Button>
      </FormActions>
    </div>
  );
}
