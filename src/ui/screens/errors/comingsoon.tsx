import { useTranslation } from 'react-i18next';
import { useSearch } from 'wouter';
import { soonItem } from '../../../domain/menu';
import { ErrorPage } from '../../components/error-page';

/**
 * `/pages/comingsoon`: sections of the menu whose screens the product does not define yet (Target
 * Audience, Campaigns, Blocked Contacts; src/domain/menu.ts marks them `soon`). `?section=` names
 * which one was asked for, and the page says it.
 */
export default function ComingSoonScreen() {
  const { t } = useTranslation();
  const item = soonItem(new URLSearchParams(useSearch()).get('section'));
  const section = item ? t(item.labelKey) : null;
  return (
    <ErrorPage
      title={section ? t('pages.comingSoon.sectionTitle', { section }) : t('pages.comingSoon.title')}
      body={section ? t('pages.comingSoon.sectionBody', { section }) : t('pages.comingSoon.body')}
      action={{ label: t('pages.comingSoon.action'), href: '/' }}
    />
  );
}
