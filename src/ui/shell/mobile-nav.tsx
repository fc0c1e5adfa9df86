import { useTranslation } from 'react-i18next';
import { CloseIcon } from '../components/icons';
import { IconButton } from '../components/button';
import { useModalDialog } from '../components/dialog';
import * as overlay from '../components/dialog.css';
import { NavSections } from './nav-sections';
import * as styles from './mobile-nav.css';

/**
 * The menu as a drawer on narrow screens, on a modal `<dialog>`: focus stays inside, the page
 * behind is inert, Escape or a tap outside closes it, focus returns to the menu button.
 */
export function MobileNav({ isOpen, onOpenChange }: { isOpen: boolean; onOpenChange: (open: boolean) => void }) {
  return isOpen ? <Drawer close={() => onOpenChange(false)} /> : null;
}

function Drawer({ close }: { close: () => void }) {
  const { t } = useTranslation();
  const { dialogProps } = useModalDialog({ onClose: close });
  return (
    <dialog
      {...dialogProps}
      aria-label={t('shell.mainNavigation')}
      tabIndex={-1}
      className={`${overlay.drawer} ${styles.drawer} ${styles.dialog}`}
    >
      <nav aria-label={t('shell.mainNavigation')}>
        <div className={styles.top}>
          <span className={styles.brand}>{t('app.name')}</span>
          <IconButton label={t('common.close')} icon={<CloseIcon />} onPress={close} />
        </div>
        <NavSections onNavigate={close} />
      </nav>
    </dialog>
  );
}
