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

const container = document.getElementById('root');
if (!container) throw new Error('#root element missing from index.html');
const root = container;

function start(): void {
  const services = createAppServices({ window, settings: readSettings(document) });
  // The first render already speaks the stored language (the prerendered login page is pt-BR: an
  // English visitor gets a render from scratch, see mountApp).
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

// A prerendered login page is on screen, and its fields take typing, before the app starts: the
// browser gets to finish a frame (and the input waiting for it) between this script's evaluation and
// the app's start and hydration, two long tasks at a slow CPU (docs/performance.md, The signed-in path
// against react-admin). A hidden tab has no frames: the timer starts the app there.
if (root.dataset.prerendered === undefined) start();
else {
  let started = false;
  const once = () => {
    if (started) return;
    started = true;
    start();
  };
  requestAnimationFrame(() => requestAnimationFrame(once));
  setTimeout(once, 1000);
}
