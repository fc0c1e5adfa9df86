import { useTranslation } from 'react-i18next';
import { selectOverlayEnabled } from '../../machines/preferences/preferences.machine';
import { usePreferences, useRequestsPending } from '../hooks/services-context';
import * as styles from './request-bar.css';

/**
 * The global loading indicator (docs/product.md, Loading indicator): requests in flight show a thin bar that
 * never blocks the page; it fades in only after 250 ms (CSS), so quick requests never flash it. Bulk
 * runs switch the flag off while they show their own progress.
 */
export function RequestBar() {
  const { t } = useTranslation();
  const pending = useRequestsPending();
  const enabled = usePreferences(selectOverlayEnabled);
  return (
    <div className={styles.track}>
      {pending && enabled ? <div className={styles.bar} role="progressbar" aria-label={t('shell.loading')} /> : null}
    </div>
  );
}
