import { lookCookie, lookFromCookies } from '../domain/look-cookie';
import type { Preferences, PreferencesActor } from '../machines/preferences/preferences.machine';

/** What the preferences machine saves in localStorage at each choice (its `persist` action). */
const SAVED: readonly (keyof Preferences)[] = [
  'theme',
  'layout',
  'sidebarCollapsed',
  'navbarWidth',
  'locale',
  'starred',
  'hiddenColumns',
];

/**
 * Keeps the look cookie (src/domain/look-cookie.ts) equal to the chosen language and theme: now, and at
 * every change. A chunk of its own, started by src/app/app-services.ts after the page is up: the cookie
 * serves the next visit's login page, nothing on this one waits for it.
 *
 * Written whenever this tab saves its preferences, not only when its look changes: another tab may have
 * written its own look meanwhile, and this tab's save has just put this tab's look back in localStorage,
 * which the next visit reads (the cookie then names the page that visit hydrates). A document that
 * refuses cookies (a sandboxed frame) keeps working without it, as it does without localStorage.
 *
 * @returns stops keeping it
 */
export function keepLookCookie(preferences: PreferencesActor, document: Document, secure: boolean): () => void {
  let saved: Preferences | null = null;
  const write = ({ context }: ReturnType<PreferencesActor['getSnapshot']>) => {
    if (saved && SAVED.every((key) => context[key] === saved?.[key])) return;
    saved = context;
    const { locale, theme } = context;
    try {
      const current = lookFromCookies(document.cookie);
      if (current?.locale === locale && current.theme === theme) return;
      document.cookie = lookCookie({ locale, theme }, secure);
    } catch {
      // No cookies here: the next visit gets the first visit's page (server/src/plugins/static.ts).
    }
  };
  write(preferences.getSnapshot());
  const subscription = preferences.subscribe(write);
  return () => subscription.unsubscribe();
}
