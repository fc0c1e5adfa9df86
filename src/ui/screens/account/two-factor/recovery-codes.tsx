import { useTranslation } from 'react-i18next';
import { Card } from '../../../components/card';
import { RecoveryCodes } from '../../../components/two-factor-enrolment';
import { copyText, downloadText } from './copy-text';

export interface RecoveryCodesCardProps {
  codes: string[];
  /** Who they belong to, written in the downloaded file. */
  account: string;
  onDone: () => void;
}

/**
 * The 10 recovery codes, shown this once (the shared part), with copy and download: the file names
 * the account they belong to.
 */
export function RecoveryCodesCard({ codes, account, onDone }: RecoveryCodesCardProps) {
  const { t } = useTranslation();
  const file = [t('twoFactor.codesFileTitle'), account, '', ...codes, '', t('twoFactor.codesFileHint'), ''].join('\n');
  return (
    <Card title={t('twoFactor.codesHeading')}>
      <RecoveryCodes
        codes={codes}
        onDone={onDone}
        onCopy={(text) => void copyText(text, t)}
        onDownload={() => downloadText(file, 'codigos-de-recuperacao.txt')}
      />
    </Card>
  );
}
