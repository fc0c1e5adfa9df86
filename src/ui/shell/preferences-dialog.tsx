import { useTranslation } from 'react-i18next';
import { Modal } from '../components/dialog';
import { RadioGroup } from '../components/radio-group';
import { Switch } from '../components/switch';
import type { Layout, NavbarWidth, Theme } from '../../machines/preferences/preferences.machine';
import { usePreferences, useServices } from '../hooks/services-context';
import * as styles from './navbar.css';

/**
 * Layout (vertical by default), navbar width, sidebar and theme: applied at once, kept across
 * reloads. A native `<dialog>` with native radios and switch: the shell loads no React Aria.
 */
export function PreferencesDialog({
  isOpen,
  onOpenChange,
}: {
  isOpen: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const { t } = useTranslation();
  const { preferences } = useServices();
  const { layout, navbarWidth, sidebarCollapsed, theme } = usePreferences((s) => s.context);
  return (
    <Modal title={t('shell.preferences.title')} isOpen={isOpen} onOpenChange={onOpenChange} size="sm">
      <div className={styles.preferences}>
        <RadioGroup<Layout>
          label={t('shell.preferences.layout')}
          value={layout}
          onChange={(value) => preferences.send({ type: 'prefs.layout.set', layout: value })}
          options={[
            { value: 'vertical', label: t('shell.preferences.vertical') },
            { value: 'horizontal', label: t('shell.preferences.horizontal') },
          ]}
        />
        <RadioGroup<NavbarWidth>
          label={t('shell.preferences.navbarWidth')}
          value={navbarWidth}
          onChange={(value) => preferences.send({ type: 'prefs.navbar.set', width: value })}
          options={[
            { value: 'full', label: t('shell.preferences.full') },
            { value: 'boxed', label: t('shell.preferences.boxed') },
          ]}
        />
        <RadioGroup<Theme>
          label={t('shell.preferences.theme')}
          value={theme}
          onChange={(value) => preferences.send({ type: 'prefs.theme.set', theme: value })}
          options={[
            { value: 'light', label: t('shell.preferences.light') },
            { value: 'dark', label: t('shell.preferences.dark') },
          ]}
        />
        <Switch
          isSelected={sidebarCollapsed}
          onChange={(collapsed) => preferences.send({ type: 'prefs.sidebar.set', collapsed })}
          isDisabled={layout === 'horizontal'}
        >
          {t('shell.preferences.collapsed')}
        </Switch>
      </div>
    </Modal>
  );
}
