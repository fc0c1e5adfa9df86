import { useTranslation } from 'react-i18next';
import { MenuTriggerButton, type MenuOption } from '../components/menu';
import { STARRED_LIMIT } from '../../machines/preferences/preferences.machine';
import { usePreferences } from '../hooks/services-context';
import { StarIcon } from './icons';
import * as styles from './navbar.css';

/** Starred pages in the navbar (at most 10, docs/product.md, Limits); each page's header star adds or removes it. */
export function StarredMenu() {
  const { t } = useTranslation();
  const starred = usePreferences((s) => s.context.starred);
  const items: MenuOption[] = starred.map((page) => ({
    id: page.href,
    label: t(page.titleKey as never),
    href: page.href,
  }));
  const label = `${t('shell.starred.title')} (${starred.length}/${STARRED_LIMIT})`;
  if (items.length === 0) return null;
  return (
    <MenuTriggerButton
      variant="ghost"
      aria-label={label}
      className={styles.starredButton}
      icon={<StarIcon size={18} />}
      items={items}
      menuLabel={t('shell.starred.title')}
      placement="bottom start"
    >
      <span className={styles.starredCount}>{starred.length}</span>
    </MenuTriggerButton>
  );
}
