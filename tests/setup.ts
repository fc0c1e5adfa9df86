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
