import { useTranslation } from 'react-i18next';
import { IconButton } from '../components/button';
import { useSession } from '../hooks/services-context';
import { useAfterFirstPaint } from '../hooks/use-after-first-paint';
import { ActivityFeed } from './activity-feed';
import { ConnectionIndicator } from './connection-indicator';
import { MenuToggleIcon } from './icons';
import { LanguageSelect } from './language-select';
import { StarredMenu } from './starred-menu';
import { TenantSwitcher } from './tenant-switcher';
import { ThemeToggle } from './theme-toggle';
import { UserMenu } from './user-menu';
import * as styles from './navbar.css';

/**
 * The top bar: menu toggle, favourites, tenant (staff), connection, language, theme, user menu. All
 * but the menu toggle mount after the screen's first paint (`useAfterFirstPaint`): the right group
 * as a whole, so nothing in it moves when it comes, and the favourites at the end of the left one.
 */
export function Navbar({ onToggleMenu }: { onToggleMenu: () => void }) {
  const { t } = useTranslation();
  const staff = useSession((s) => s.context.originBackoffice);
  const later = useAfterFirstPaint();
  return (
    <header className={styles.navbar}>
      <div className={styles.group}>
        <IconButton label={t('shell.toggleSidebar')} icon={<MenuToggleIcon size={20} />} onPress={onToggleMenu} />
        {later ? <StarredMenu /> : null}
      </div>
      {later ? (
        <div className={styles.group}>
          {staff ? <TenantSwitcher /> : null}
          <ConnectionIndicator />
          <ActivityFeed />
          <span className={styles.wideOnly}>
            <LanguageSelect />
          </span>
          <ThemeToggle />
          <UserMenu />
        </div>
      ) : null}
    </header>
  );
}
