import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { SUPPORTED_LOCALES, type Locale } from '../../i18n/options';
import { ChevronDownIcon } from '../components/form-icons';
import { useHydrated } from '../components/use-hydrated';
import { usePreferences, useServices } from '../hooks/services-context';
import * as styles from './language-select.css';

/**
 * The language switch (en, pt, pt-BR): a native select, so it costs no library on the login route
 * and works the same with a keyboard, a screen reader and a phone.
 */
export function LanguageSelect() {
  const { t } = useTranslation();
  const { preferences } = useServices();
  const locale = usePreferences((s) => s.context.locale);
  const id = useId();
  const hydrated = useHydrated();
  return (
    <span className={styles.wrapper}>
      <label htmlFor={id} className={styles.label}>
        {t('shell.language')}
      </label>
      <span className={styles.selectBox}>
        <select
          id={id}
          className={styles.select}
          value={locale}
          disabled={!hydrated}
          onChange={(e) => preferences.send({ type: 'prefs.locale.set', locale: e.target.value as Locale })}
        >
          {SUPPORTED_LOCALES.map((code) => (
            <option key={code} value={code} lang={code}>
              {t(`languages.${code}`)}
            </option>
          ))}
        </select>
        <ChevronDownIcon className={styles.selectIcon} />
      </span>
    </span>
  );
}
