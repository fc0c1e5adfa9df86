import { useTranslation } from 'react-i18next';
import { useLocation } from 'wouter';
import { ChevronDownIcon } from '../components/icons';
import { MenuTriggerButton } from '../components/menu';
import { menuHref, visibleMenu } from '../../domain/menu';
import { selectAccessSubject } from '../../machines/session/session-selectors';
import { useSession } from '../hooks/services-context';
import * as styles from './horizontal-menu.css';

/** The menu as a top bar (layout "horizontal"): one button per section, its pages in a dropdown. */
export function HorizontalMenu() {
  const { t } = useTranslation();
  const subject = useSession(selectAccessSubject, (a, b) => JSON.stringify(a) === JSON.stringify(b));
  const [path] = useLocation();
  return (
    <nav aria-label={t('shell.mainNavigation')} className={styles.bar}>
      {visibleMenu(subject).map((section) => {
        const active = section.items.some((item) => menuHref(item).split('?')[0] === path);
        return (
          <MenuTriggerButton
            key={section.id}
            variant="ghost"
            size="sm"
            className={active ? `${styles.trigger} ${styles.active}` : styles.trigger}
            aria-current={active ? 'true' : undefined}
            placement="bottom start"
            menuLabel={t(section.labelKey)}
            items={section.items.map((item) => ({
              id: item.id,
              label: item.soon ? `${t(item.labelKey)} (${t('menu.soon')})` : t(item.labelKey),
              href: menuHref(item),
            }))}
          >
            {t(section.labelKey)}
            <ChevronDownIcon />
          </MenuTriggerButton>
        );
      })}
    </nav>
  );
}
