import { useSyncExternalStore } from 'react';

const never = () => () => {};

/**
 * False in markup rendered ahead of time (the prerendered login page, src/app/prerender.tsx) and while
 * React hydrates it; true right after (React re-renders with the client value once hydrated) and
 * in every client render. Buttons and selects on a prerendered page render disabled until then:
 * before hydration nothing listens to them, and a submit would go out as a GET. Text fields stay
 * open when they are uncontrolled (the login form): hydration keeps what was typed into them.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    never,
    () => true,
    () => false,
  );
}
