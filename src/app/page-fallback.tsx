import { useTranslation } from 'react-i18next';
import { Spinner } from '../ui/components/spinner';
import * as styles from './page-fallback.css';

/** While a screen's code loads or the guard decides: a quiet, announced spinner (no layout jump). */
export function PageFallback() {
  const { t } = useTranslation();
  return (
    <div className={styles.fallback}>
      <Spinner label={t('shell.loading')} />
    </div>
  );
}
