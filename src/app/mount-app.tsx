import type { ReactNode } from 'react';
import { createRoot, hydrateRoot, type Root } from 'react-dom/client';

/**
 * Starts React in `container`. A prerendered login page (src/app/prerender.tsx; `data-prerendered`
 * holds the state it was rendered for) is hydrated when `key` — the app's own state,
 * `prerenderKey` — is that state; otherwise the markup and its theme class on `<html>` go, and
 * the app renders from scratch (another language or theme, a stored session).
 *
 * @returns how the app came up, and its root (for whoever must unmount it: a test)
 */
export function mountApp(
  container: HTMLElement,
  app: ReactNode,
  key: string | null,
): { how: 'hydrated' | 'rendered'; root: Root } {
  const prerendered = container.dataset.prerendered;
  if (prerendered !== undefined && prerendered === key) {
    const root = hydrateRoot(container, app, {
      onRecoverableError: (error) => console.error('the prerendered page did not hydrate; rendered again', error),
    });
    return { how: 'hydrated', root };
  }
  if (prerendered !== undefined) {
    container.replaceChildren();
    delete container.dataset.prerendered;
    container.ownerDocument.documentElement.removeAttribute('class');
  }
  const root = createRoot(container);
  root.render(app);
  return { how: 'rendered', root };
}
