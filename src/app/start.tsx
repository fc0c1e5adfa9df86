import { StrictMode } from 'react';
import { createRuntimeI18n } from '../i18n/runtime';
import { createAppServices, readSettings } from './app-services';
import { readPreferences } from '../machines/preferences/preferences.machine';
import { App } from './app';
import { mountApp } from './mount-app';
import { decideFirstRoute, prerenderKey } from './prerender-state';

function safeStorage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

/** Starts the app in `root` (src/app/main.tsx decides when). */
export function start(root: HTMLElement): void {
  const services = createAppServices({ window, settings: readSettings(document) });
  // The first render already speaks the stored language (the server sent the login page prerendered in
  // the look cookie's language and theme, src/domain/look-cookie.ts: hydrated when they are the stored
  // ones, rendered from scratch otherwise, see mountApp).
  void createRuntimeI18n(readPreferences(safeStorage()).locale).then((i18n) => {
    document.documentElement.lang = i18n.language;
    decideFirstRoute(services, window.location);
    const app = (
      <StrictMode>
        <App services={services} i18n={i18n} />
      </StrictMode>
    );
    // The login page may come prerendered (src/app/prerender.tsx): hydrated when this visit is in the
    // state it was rendered for.
    mountApp(root, app, prerenderKey(services, window.location.pathname));
  });
}
