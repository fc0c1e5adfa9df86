import type { i18n as I18n } from 'i18next';
import { I18nextProvider, useTranslation } from 'react-i18next';
import { createI18n } from '../i18n/setup';
import * as styles from './app.css';
import { lightTheme } from './theme.css';

export interface AppProps {
  /** Injected by tests and by `main.tsx`; without it the app uses one shared pt-BR instance. */
  i18n?: I18n;
}

let defaultI18n: I18n | undefined;

/** Created on first use, so importing this module (e.g. in tests) builds no instance. */
function getDefaultI18n(): I18n {
  defaultI18n ??= createI18n();
  return defaultI18n;
}

/** Root component: provides translations and the theme, then the (placeholder) home page. */
export function App({ i18n }: AppProps) {
  return (
    <I18nextProvider i18n={i18n ?? getDefaultI18n()}>
      <div className={`${lightTheme} ${styles.root}`}>
        <Home />
      </div>
    </I18nextProvider>
  );
}

function Home() {
  const { t } = useTranslation();
  return (
    <main className={styles.main}>
      <h1 className={styles.heading}>{t('app.name')}</h1>
      <p className={styles.tagline}>{t('app.tagline')}</p>
    </main>
  );
}
