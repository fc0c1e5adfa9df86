import { useTranslation } from 'react-i18next';
import { useSearch } from 'wouter';
import { MENU } from '../../../domain/menu';
import { ErrorPage } from '../../components/error-page';

/**
 * `/pages/comingsoon`: sections of the menu whose screens the product does not define yet (Target
 * Audience, Campaigns, Blocked Contacts, Departments). `?section=` names which one was asked for.
 */
export default function ComingSoonScreen() {
  const { t } = useTranslation();
  const wanted = new URLSearchParams(useSearch()).get('section');
  const section = MENU.find((s) => s.id === wanted);
  const title = section ? `${t(section.labelKey)}: ${t('pages.comingSoon.title')}` : t('pages.comingSoon.title');
  return (
    <ErrorPage
      title={title}
      body={t('pages.comingSoon.body')}
      action={{ label: t('pages.comingSoon.action'), href: '/' }}
    />
  );
}
