import { useTranslation } from 'react-i18next';
import { ErrorPage } from '../../components/error-page';

/** `/pages/not-authorized`: a checked route the user's role may not open (docs/product.md, Routes). */
export default function NotAuthorizedScreen() {
  const { t } = useTranslation();
  return (
    <ErrorPage
      code="403"
      title={t('pages.notAuthorized.title')}
      body={t('pages.notAuthorized.body')}
      action={{ label: t('pages.notAuthorized.action'), href: '/' }}
    />
  );
}
