import { useTranslation } from 'react-i18next';
import { NativeIconButton } from '../components/native-button';
import { usePreferences, useServices } from '../services-context';
import { MoonIcon, SunIcon } from './theme-icons';

/** Light/dark (SPEC §9: light by default); the preference survives reloads. A native button: it is on the login route. */
export function ThemeToggle() {
  const { t } = useTranslation();
  const { preferences } = useServices();
  const theme = usePreferences((s) => s.context.theme);
  return (
    <NativeIconButton
      label={t('shell.toggleTheme')}
      icon={theme === 'dark' ? <SunIcon size={18} /> : <MoonIcon size={18} />}
      onPress={() => preferences.send({ type: 'prefs.theme.toggle' })}
    />
  );
}
