import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createI18n } from './i18n/setup';
import { App } from './ui/app';

const i18n = createI18n();

/** Keeps `<html lang>` and the tab title in step with the active language (screen readers, spell-check). */
function syncDocument(): void {
  document.documentElement.lang = i18n.resolvedLanguage ?? i18n.language;
  document.title = i18n.t('app.name');
}
syncDocument();
i18n.on('languageChanged', syncDocument);

const container = document.getElementById('root');
if (!container) throw new Error('#root element missing from index.html');

createRoot(container).render(
  <StrictMode>
    <App i18n={i18n} />
  </StrictMode>,
);
