import { useTranslation } from 'react-i18next';
import { IconButton } from '../components/button';
import { useHydrated } from '../components/use-hydrated';
import { usePreferences, useServices } from '../hooks/services-context';
import { MoonIcon, SunIcon } from './theme-icons';

/** Light/dark (light by default); the preference survives reloads. A native button: it is on the login route. */
export function ThemeToggle() {
  const { t } = useTranslation();
  const { preferences } = useServices();
  const theme = usePreferences((s) => s.context.theme);
  const hydrated = useHydrated();
  return (
    <IconButton
      label={t('shell.toggleTheme')}
      isDisabled={!hydrated}
      icon={theme === 'dark' ? <SunIcon size={18} /> : <MoonIcon size={18} />}
      onPress={() => preferences.send({ type: 'prefs.theme.toggle' })}
    />
  );
}
