import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createI18n } from './i18n/setup';
import { createAppServices, readSettings } from './machines/app-services';
import { readPreferences } from './machines/preferences.machine';
import { App } from './ui/app';

// The first paint already speaks the stored language (no flash of pt-BR for an English user).
const i18n = createI18n(readPreferences(safeStorage()).locale);
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

createRoot(container).render(
  <StrictMode>
    <App services={services} i18n={i18n} />
  </StrictMode>,
);
