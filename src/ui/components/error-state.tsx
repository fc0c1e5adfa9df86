import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import * as styles from './empty-state.css';
import { AlertIcon } from './icons';
import { Button } from './button';

export interface ErrorStateProps {
  /** Defaults to "Ocorreu um erro". */
  title?: ReactNode;
  /** Detail for the user (translated; never a raw server message). */
  description?: ReactNode;
  /** Shows a "Tentar novamente" button that calls it. */
  onRetry?: () => void;
  /** The retry is running (button shows a spinner and ignores presses). */
  isRetrying?: boolean;
  retryLabel?: string;
}

/**
 * A failed load in place of the content (table body, card, screen), with a retry. It is a
 * `role="alert"` so the failure is announced; the icon plus the text tell it is an error. The
 * retry is a {@link Button} (no React Aria): lists show this in place of their rows.
 */
export function ErrorState({ title, description, onRetry, isRetrying, retryLabel }: ErrorStateProps) {
  const { t } = useTranslation();
  return (
    <div className={styles.root} role="alert">
      <AlertIcon size={32} className={styles.errorIcon} />
      <p className={styles.title}>{title ?? t('common.error')}</p>
      {description ? <p className={styles.body}>{description}</p> : null}
      {onRetry ? (
        <Button variant="secondary" onPress={onRetry} isPending={isRetrying} pendingLabel={t('common.loading')}>
          {retryLabel ?? t('common.retry')}
        </Button>
      ) : null}
    </div>
  );
}
