import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import * as styles from './loading-overlay.css';
import { Spinner } from './spinner';
import { VisuallyHidden } from './visually-hidden';

export interface LoadingOverlayProps {
  /** The global loading flag (on at start; docs/product.md, Loading indicator). */
  isVisible: boolean;
  /** Defaults to "Carregando…". */
  label?: string;
  /**
   * ms the flag must stay on before the overlay shows, so fast requests do not flash it. The
   * announcement waits too: a 100 ms request says nothing.
   */
  delay?: number;
}

/**
 * The global request overlay: covers the app with a spinner and label while `isVisible`. The
 * polite live region is always mounted (a region that appears together with its text is often
 * not announced), so "Carregando…" is read once when loading starts and cleared when it ends.
 */
export function LoadingOverlay({ isVisible, label, delay = 250 }: LoadingOverlayProps) {
  const { t } = useTranslation();
  // True once the flag has stayed on for `delay`; reset when the flag goes off (cleanup), so the
  // next loading period waits again.
  const [delayElapsed, setDelayElapsed] = useState(false);
  useEffect(() => {
    if (!isVisible) return undefined;
    const timer = setTimeout(() => setDelayElapsed(true), delay);
    return () => {
      clearTimeout(timer);
      setDelayElapsed(false);
    };
  }, [isVisible, delay]);
  const shown = isVisible && delayElapsed;
  const text = label ?? t('common.loading');
  return (
    <>
      <VisuallyHidden>
        <span role="status" aria-live="polite">
          {shown ? text : ''}
        </span>
      </VisuallyHidden>
      {shown ? (
        <div className={styles.overlay} data-testid="loading-overlay" aria-hidden="true">
          <div className={styles.panel}>
            <Spinner size="md" />
            <span>{text}</span>
          </div>
        </div>
      ) : null}
    </>
  );
}
