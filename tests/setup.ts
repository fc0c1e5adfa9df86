import '@testing-library/jest-dom/vitest';
import { configure } from '@testing-library/dom';

// findBy*/waitFor give up after 1 s by default; lazily imported screens transform on first use and a
// loaded 2-core CI box is slow. Waiting longer for a condition that does come is not a sleep.
configure({ asyncUtilTimeout: 10_000 });

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
