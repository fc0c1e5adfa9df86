import { useTranslation } from 'react-i18next';
import { Modal } from '../components/dialog';
import { Radio, RadioGroup } from '../components/radio-group';
import { Switch } from '../components/switch';
import type { Layout, NavbarWidth, Theme } from '../../machines/preferences.machine';
import { usePreferences, useServices } from '../services-context';
import * as styles from './navbar.css';

/** Layout (vertical by default), navbar width, sidebar and theme: applied at once, kept across reloads. */
export function PreferencesDialog({ isOpen, onOpenChange }: { isOpen: boolean; onOpenChange: (open: boolean) => void }) {
  const { t } = useTranslation();
  const { preferences } = useServices();
  const { layout, navbarWidth, sidebarCollapsed, theme } = usePreferences((s) => s.context);
  return (
    <Modal title={t('shell.preferences.title')} isOpen={isOpen} onOpenChange={onOpenChange} size="sm">
      <div className={styles.preferences}>
        <RadioGroup label={t('shell.preferences.layout')} value={layout} onChange={(value) => preferences.send({ type: 'prefs.layout.set', layout: value as Layout })}>
          <Radio value="vertical">{t('shell.preferences.vertical')}</Radio>
          <Radio value="horizontal">{t('shell.preferences.horizontal')}</Radio>
        </RadioGroup>
        <RadioGroup label={t('shell.preferences.navbarWidth')} value={navbarWidth} onChange={(value) => preferences.send({ type: 'prefs.navbar.set', width: value as NavbarWidth })}>
          <Radio value="full">{t('shell.preferences.full')}</Radio>
          <Radio value="boxed">{t('shell.preferences.boxed')}</Radio>
        </RadioGroup>
        <RadioGroup label={t('shell.preferences.theme')} value={theme} onChange={(value) => preferences.send({ type: 'prefs.theme.set', theme: value as Theme })}>
          <Radio value="light">{t('shell.preferences.light')}</Radio>
          <Radio value="dark">{t('shell.preferences.dark')}</Radio>
        </RadioGroup>
        <Switch isSelected={sidebarCollapsed} onChange={(collapsed) => preferences.send({ type: 'prefs.sidebar.set', collapsed })} isDisabled={layout === 'horizontal'}>
          {t('shell.preferences.collapsed')}
        </Switch>
      </div>
    </Modal>
  );
}
