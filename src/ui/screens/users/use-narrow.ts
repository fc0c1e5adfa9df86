import { useSyncExternalStore } from 'react';

/** Below this width the row actions collapse into one menu per row (390 px phones, split screens). */
export const NARROW_QUERY = '(max-width: 47.99rem)';

function subscribe(onChange: () => void): () => void {
  if (typeof window.matchMedia !== 'function') return () => undefined;
  const list = window.matchMedia(NARROW_QUERY);
  list.addEventListener('change', onChange);
  return () => list.removeEventListener('change', onChange);
}

// Environments without matchMedia (jsdom) get the wide layout.
const isNarrow = () => typeof window.matchMedia === 'function' && window.matchMedia(NARROW_QUERY).matches;

/** True while the viewport is narrow; re-renders when it crosses the breakpoint. */
export function useNarrow(): boolean {
  return useSyncExternalStore(subscribe, isNarrow, () => false);
}
