import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createRuntimeI18n } from './i18n/runtime';
import { createAppServices, readSettings } from './machines/app-services';
import { readPreferences } from './machines/preferences.machine';
import { App } from './ui/app';

const services = createAppServices({ window, settings: readSettings(document) });

function safeStorage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

const container = document.getElementById('root');
if (!container) throw new Error('#root element missing from index.html');

// The first paint already speaks the stored language (no flash of pt-BR for an English user).
void createRuntimeI18n(readPreferences(safeStorage()).locale).then((i18n) => {
  document.documentElement.lang = i18n.language;
  createRoot(container).render(
    <StrictMode>
      <App services={services} i18n={i18n} />
    </StrictMode>,
  );
});
