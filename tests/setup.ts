import '@testing-library/jest-dom/vitest';
import { configure } from '@testing-library/dom';

// findBy*/waitFor give up after 1 s by default; lazily imported screens transform on first use and a
// loaded 2-core CI box is slow. Waiting longer for a condition that does come is not a sleep.
configure({ asyncUtilTimeout: 10_000 });

// Node 25 and later have a Web Storage of their own on the global object, which vitest's jsdom
// environment does not replace: without `--localstorage-file` it reads undefined (vitest.config.ts also
// turns it off for the workers). A component test gets jsdom's storage, as a browser page has.
const dom = (globalThis as { jsdom?: { window: { localStorage: Storage; sessionStorage: Storage } } }).jsdom;
if (dom) {
  for (const name of ['localStorage', 'sessionStorage'] as const)
    if (globalThis[name] !== dom.window[name])
      Object.defineProperty(globalThis, name, { value: dom.window[name], configurable: true, writable: true });
}

// jsdom has no matchMedia; the shell asks it for the narrow-screen layout. A wide, static viewport.
if (typeof window !== 'undefined' && typeof window.matchMedia !== 'function') {
  window.matchMedia = (query: string): MediaQueryList =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      addListener: () => undefined,
      removeListener: () => undefined,
      dispatchEvent: () => false,
    }) as MediaQueryList;
}

// `logic` and `views` share one module graph, and views one jsdom document, between the files of a
// worker (vitest.config.ts). Each file starts from the page a fresh jsdom would give it: nothing
// rendered, no attributes on <html> (lang, theme), empty storage and cookies, the first URL, nothing
// focused, and real timers (a file that left fake ones on would stop the next file's waits).
vi.useRealTimers();
if (typeof document !== 'undefined') {
  const shared = globalThis as { firstHref?: string };
  shared.firstHref ??= window.location.href;
  if (window.location.href !== shared.firstHref) window.history.replaceState(null, '', shared.firstHref);
  (document.activeElement as HTMLElement | null)?.blur?.();
  document.body.replaceChildren();
  for (const { name } of [...document.documentElement.attributes]) document.documentElement.removeAttribute(name);
  document.title = '';
  localStorage.clear();
  sessionStorage.clear();
  for (const cookie of document.cookie.split(';')) {
    const name = cookie.split('=')[0]?.trim();
    if (name) document.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
  }
}

// A React root a file leaves mounted lives on into the next files of its worker, listening to the
// app's toast queue and registering landmarks with React Aria on the shared document: another file's
// region then met a landmark whose element was gone ("compareDocumentPosition … not of type 'Node'").
// RTL's cleanup unmounts what `render` mounted; a file that mounts a root itself (src/app/mount-app.tsx)
// unmounts it. This check names the file that did not.
if (typeof document !== 'undefined') {
  const { appToasts } = await import('../src/ui/components/toast-queue');
  const before = appToasts.listenerCount;
  afterAll(async () => {
    const { cleanup } = await import('@testing-library/react');
    cleanup();
    const left = appToasts.listenerCount - before;
    if (left > 0)
      throw new Error(
        `${left} view(s) of this file still listen to the app's toast queue: a React root was left mounted`,
      );
  });
}
