import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MenuTriggerButton, type MenuOption } from '../components/menu';
import { selectUser } from '../../machines/session/session-selectors';
import { useServices, useSession } from '../hooks/services-context';
import { LogoutIcon, ShieldIcon, SlidersIcon, UserIcon } from './icons';
import { PreferencesDialog } from './preferences-dialog';
import * as styles from './navbar.css';

/** Initials for the avatar: first letters of the first and last names. */
function initials(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  return ((parts[0]?.[0] ?? '') + (parts.length > 1 ? (parts.at(-1)?.[0] ?? '') : '')).toUpperCase() || '?';
}

/** Profile, security, preferences and logout (the navbar's user menu). */
export function UserMenu() {
  const { t } = useTranslation();
  const { session } = useServices();
  const user = useSession(selectUser);
  const [preferencesOpen, setPreferencesOpen] = useState(false);
  const items: MenuOption[] = [
    { id: 'profile', label: t('shell.profile'), icon: <UserIcon />, href: '/user-settings' },
    { id: 'security', label: t('routes.two-factor'), icon: <ShieldIcon />, href: '/two-factor' },
    { id: 'preferences', label: t('shell.preferences.title'), icon: <SlidersIcon /> },
    { id: 'logout', label: t('shell.logout'), icon: <LogoutIcon />, isDanger: true },
  ];
  return (
    <>
      <MenuTriggerButton
        variant="ghost"
        aria-label={`${t('shell.userMenu')}: ${user?.name ?? ''}`}
        className={styles.userButton}
        items={items}
        menuLabel={t('shell.userMenu')}
        onAction={(key) => {
          if (key === 'preferences') setPreferencesOpen(true);
          if (key === 'logout') session.send({ type: 'session.logout' });
        }}
      >
        <span className={styles.avatar} aria-hidden="true" data-initials={initials(user?.name ?? '')} />
        <span className={styles.userName}>{user?.name}</span>
      </MenuTriggerButton>
      <PreferencesDialog isOpen={preferencesOpen} onOpenChange={setPreferencesOpen} />
    </>
  );
}
