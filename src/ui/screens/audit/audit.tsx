import { useTranslation } from 'react-i18next';

/** `/audit`: the audit log (docs/product.md, Audit log). Being built: the list, filters and export follow. */
export default function AuditScreen() {
  const { t } = useTranslation();
  return <h1>{t('routes.audit')}</h1>;
}
