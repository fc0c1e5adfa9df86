import { useTranslation } from 'react-i18next';
import { ErrorPage } from '../../components/error-page';

/** The 500 content; the error boundary shows it in place of a screen that failed, with a retry. */
export function ServerErrorContent({ onRetry }: { onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <ErrorPage
      code="500"
      title={t('pages.serverError.title')}
      body={t('pages.serverError.body')}
      action={{ label: t('pages.serverError.action'), onPress: onRetry }}
    />
  );
}

/** `/pages/error-500`: retrying goes back to where the user came from. */
export default function ServerErrorScreen() {
  return <ServerErrorContent onRetry={() => window.history.back()} />;
}
