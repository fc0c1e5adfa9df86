import { useTranslation } from 'react-i18next';
import { NativeSpinner } from '../ui/components/native-spinner';
import * as styles from './page-fallback.css';

/** While a screen's code loads or the guard decides: a quiet, announced spinner (no layout jump). */
export function PageFallback() {
  const { t } = useTranslation();
  return (
    <div className={styles.fallback}>
      <NativeSpinner label={t('shell.loading')} />
    </div>
  );
}
