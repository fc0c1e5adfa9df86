import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/button';
import { Card } from '../../../components/card';
import { Checkbox } from '../../../components/checkbox';
import { FormActions } from '../../../components/form';
import { AlertIcon } from '../../../components/icons';
import { copyText, downloadText } from './copy-text';
import * as styles from './two-factor.css';

export interface RecoveryCodesProps {
  codes: string[];
  /** Who they belong to, written in the downloaded file. */
  account: string;
  onDone: () => void;
}

/**
 * The 10 recovery codes, shown this once: a clear warning, copy and download, and "Concluir" only
 * after the user says they saved them (the machine then forgets them).
 */
export function RecoveryCodes({ codes, account, onDone }: RecoveryCodesProps) {
  const { t } = useTranslation();
  const [saved, setSaved] = useState(false);
  const text = codes.join('\n');
  const file = [t('twoFactor.codesFileTitle'), account, '', ...codes, '', t('twoFactor.codesFileHint'), ''].join('\n');
  return (
    <Card title={t('twoFactor.codesHeading')}>
      <p className={styles.warning} role="alert">
        <AlertIcon size={18} className={styles.warningIcon} />
        <span>{t('twoFactor.codesWarning')}</span>
      </p>
      <ol className={styles.codes} aria-label={t('twoFactor.codesListLabel')}>
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ol>
      <FormActions>
        <Button variant="secondary" onPress={() => void copyText(text, t)}>
          {t('twoFactor.copyCodes')}
        </Button>
        <Button variant="secondary" onPress={() => downloadText(file, 'codigos-de-recuperacao.txt')}>
          {t('twoFactor.downloadCodes')}
        </Button>
      </FormActions>
      <Checkbox isSelected={saved} onChange={setSaved}>
        {t('twoFactor.savedCheck')}
      </Checkbox>
      <FormActions>
        <Button onPress={onDone} isDisabled={!saved}>
          {t('twoFactor.done')}
        </Button>
      </FormActions>
    </Card>
  );
}
