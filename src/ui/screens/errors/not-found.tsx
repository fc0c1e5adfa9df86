import { useTranslation } from 'react-i18next';
import { ErrorPage } from '../../components/error-page';

/** `/pages/error-404`: where every unknown path lands (docs/product.md, Routes). */
export default function NotFoundScreen() {
  const { t } = useTranslation();
  return (
    <ErrorPage
      code="404"
      title={t('pages.notFound.title')}
      body={t('pages.notFound.body')}
      action={{ label: t('pages.notFound.action'), href: '/' }}
    />
  );
}
