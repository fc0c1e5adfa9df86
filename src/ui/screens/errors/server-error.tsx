import { useTranslation } from 'react-i18next';
import { useSearch } from 'wouter';
import { ErrorPage } from '../../components/error-page';
import * as styles from '../../components/error-page.css';

export interface ServerErrorContentProps {
  onRetry: () => void;
  /** The `x-request-id` of the failed call (src/api/api-error.ts), when the failure came from one. */
  requestId?: string | null;
  /** 2 inside a screen, under the shell's page header (its h1). */
  level?: 1 | 2;
}

/**
 * The 500 content; the error boundary shows it in place of a screen that failed, with a retry and a
 * way home, and the request id to quote when a call failed (docs/panel.md).
 */
export function ServerErrorContent({ onRetry, requestId = null, level = 1 }: ServerErrorContentProps) {
  const { t } = useTranslation();
  return (
    <ErrorPage
      code="500"
      level={level}
      title={t('pages.serverError.title')}
      body={
        <>
          <p className={styles.paragraph}>{t('pages.serverError.body')}</p>
          {requestId ? (
            <p className={styles.paragraph}>
              {t('pages.serverError.requestId')} <code className={styles.requestId}>{requestId}</code>
            </p>
          ) : null}
        </>
      }
      action={{ label: t('pages.serverError.action'), onPress: onRetry }}
      secondary={{ label: t('pages.serverError.home'), href: '/' }}
    />
  );
}

/** `/pages/error-500`: retrying goes back to where the user came from; `?request=` is the failed call's id. */
export default function ServerErrorScreen() {
  const requestId = new URLSearchParams(useSearch()).get('request');
  return <ServerErrorContent onRetry={() => window.history.back()} requestId={requestId} />;
}
