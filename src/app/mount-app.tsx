import { startTransition, useInsertionEffect, type ReactNode } from 'react';
import { createRoot, hydrateRoot, type Root } from 'react-dom/client';

/**
 * Starts React in `container`. A prerendered login page (src/app/prerender.tsx; `data-prerendered`
 * holds the state it was rendered for) is hydrated when `key` — the app's own state,
 * `prerenderKey` — is that state; otherwise the app renders from scratch (another language or theme,
 * a stored session) and replaces the markup and its theme class on `<html>` when it commits.
 *
 * Either way the first render is a transition (`startTransition`): React renders it in slices of a few
 * milliseconds, yielding to the browser between them, instead of one task as long as the whole tree
 * takes (a default-priority first render is not sliced) — on a slow phone that task alone was most of
 * the page's blocking time (docs/performance.md, "Page load against peers"). Typing into the
 * prerendered fields meanwhile is kept (they are uncontrolled until hydrated, src/ui/screens/login).
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
    let root: Root | undefined;
    startTransition(() => {
      root = hydrateRoot(container, app, {
        onRecoverableError: (error) => console.error('the prerendered page did not hydrate; rendered again', error),
      });
    });
    if (!root) throw new Error('hydrateRoot returned no root');
    return { how: 'hydrated', root };
  }
  const root = createRoot(container);
  if (prerendered === undefined) {
    startTransition(() => root.render(app));
    return { how: 'rendered', root };
  }
  // The prerendered page stays on screen, inert, while the transition renders (emptied at once, the
  // page would be blank for as many frames as the render takes); React empties the container when
  // it commits, and the prerendered theme class goes then, before the app's own is put on.
  delete container.dataset.prerendered;
  container.inert = true;
  startTransition(() => root.render(<ReplacesPrerendered container={container}>{app}</ReplacesPrerendered>));
  return { how: 'rendered', root };
}

/**
 * At the app's first commit, before any layout effect (`useThemeClass` puts the chosen theme's class on
 * `<html>` in one): the prerendered page's theme class goes and its container takes input again.
 */
function ReplacesPrerendered({ container, children }: { container: HTMLElement; children: ReactNode }) {
  useInsertionEffect(() => {
    container.ownerDocument.documentElement.removeAttribute('class');
    container.inert = false;
  }, [container]);
  return children;
}
