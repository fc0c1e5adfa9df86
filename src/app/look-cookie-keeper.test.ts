// @vitest-environment jsdom
import { createActor } from 'xstate';
import { memoryStorage } from '../machines/session/session-storage';
import { PREFERENCES_KEY, preferencesMachine } from '../machines/preferences/preferences.machine';
import { keepLookCookie } from './look-cookie-keeper';

afterEach(() => {
  document.cookie = 'panel_look=; Path=/; Max-Age=0';
});

function preferencesIn(storage = memoryStorage()) {
  const actor = createActor(preferencesMachine, { input: { storage } });
  actor.start();
  return { actor, storage };
}

describe('keepLookCookie', () => {
  it('puts the look back when another tab wrote its own and this tab then saves its preferences', () => {
    // Two tabs: both pt-BR light; tab B switches to English (its cookie and storage say en), then tab A
    // folds the sidebar, which saves A's whole preferences (pt-BR) over B's: the cookie must say pt-BR
    // too, or the next visit is sent the English page and replaces it (src/domain/look-cookie.ts).
    const { actor, storage } = preferencesIn();
    const stop = keepLookCookie(actor, document, false);
    expect(document.cookie).toContain('panel_look=pt-BR.light');
    document.cookie = 'panel_look=en.light; Path=/';
    actor.send({ type: 'prefs.sidebar.toggle' });
    expect(JSON.parse(storage.getItem(PREFERENCES_KEY) ?? '{}')).toMatchObject({ locale: 'pt-BR', theme: 'light' });
    expect(document.cookie).toContain('panel_look=pt-BR.light');
    stop();
    actor.stop();
  });

  it("leaves another tab's look alone when this tab saves nothing (a dialog held open)", () => {
    // Tab B's English is in the cookie and in localStorage; tab A opening a dialog saves nothing, so
    // the next visit reads English from localStorage: the cookie must still say so.
    const { actor } = preferencesIn();
    const stop = keepLookCookie(actor, document, false);
    document.cookie = 'panel_look=en.light; Path=/';
    actor.send({ type: 'prefs.overlay.suspend' });
    actor.send({ type: 'prefs.overlay.resume' });
    expect(document.cookie).toContain('panel_look=en.light');
    stop();
    actor.stop();
  });

  it('keeps the page working where cookies cannot be written (a sandboxed frame throws, as for localStorage)', () => {
    const { actor } = preferencesIn();
    const refusing = {
      get cookie(): string {
        throw new DOMException('The document is sandboxed', 'SecurityError');
      },
      set cookie(_value: string) {
        throw new DOMException('The document is sandboxed', 'SecurityError');
      },
    } as unknown as Document;
    const stop = keepLookCookie(actor, refusing, false);
    actor.send({ type: 'prefs.locale.set', locale: 'en' });
    expect(actor.getSnapshot().context.locale).toBe('en');
    stop();
    actor.stop();
  });
});
