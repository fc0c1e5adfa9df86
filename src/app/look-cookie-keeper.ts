import { lookCookie } from '../domain/look-cookie';
import type { PreferencesActor } from '../machines/preferences/preferences.machine';

/**
 * Keeps the look cookie (src/domain/look-cookie.ts) equal to the chosen language and theme: now, and at
 * every change. A chunk of its own, started by src/app/app-services.ts after the page is up: the cookie
 * serves the next visit's login page, nothing on this one waits for it.
 *
 * @returns stops keeping it
 */
export function keepLookCookie(preferences: PreferencesActor, document: Document, secure: boolean): () => void {
  let look = '';
  const write = ({ context: { locale, theme } }: ReturnType<PreferencesActor['getSnapshot']>) => {
    if (look === `${locale}.${theme}`) return;
    look = `${locale}.${theme}`;
    document.cookie = lookCookie({ locale, theme }, secure);
  };
  write(preferences.getSnapshot());
  const subscription = preferences.subscribe(write);
  return () => subscription.unsubscribe();
}
