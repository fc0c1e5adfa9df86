import { useTranslation } from 'react-i18next';
import { Dialog } from 'react-aria-components/Dialog';
import { Modal, ModalOverlay } from 'react-aria-components/Modal';
import { IconButton } from '../components/button';
import { CloseIcon } from '../components/icons';
import { NavSections } from './nav-sections';
import * as styles from './mobile-nav.css';

/** The menu as a drawer on narrow screens: focus trapped, Escape or a tap outside closes, focus returns. */
export function MobileNav({ isOpen, onOpenChange }: { isOpen: boolean; onOpenChange: (open: boolean) => void }) {
  const { t } = useTranslation();
  return (
    <ModalOverlay isOpen={isOpen} onOpenChange={onOpenChange} isDismissable className={styles.overlay}>
      <Modal className={styles.drawer}>
        <Dialog aria-label={t('shell.mainNavigation')} className={styles.dialog}>
          {({ close }) => (
            <nav aria-label={t('shell.mainNavigation')}>
              <div className={styles.top}>
                <span className={styles.brand}>{t('app.name')}</span>
                <IconButton label={t('common.close')} icon={<CloseIcon />} onPress={close} />
              </div>
              <NavSections onNavigate={close} />
            </nav>
          )}
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}
