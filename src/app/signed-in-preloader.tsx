import { useEffect } from 'react';
import { useSearch } from 'wouter';
import { safeRedirectTarget } from '../domain/route-access';
import { preloadToastRegion } from '../ui/components/lazy-toast-region';
import { preloadSignedIn } from './screens-registry';
import { useServices } from '../ui/hooks/services-context';

/** Runs `task` when the main thread is next idle (at the latest after `timeoutMs`); returns a cancel. */
export function whenIdle(task: () => void, timeoutMs = 2000): () => void {
  if (typeof window.requestIdleCallback === 'function') {
    const id = window.requestIdleCallback(task, { timeout: timeoutMs });
    return () => window.cancelIdleCallback(id);
  }
  const id = window.setTimeout(task, 200);
  return () => window.clearTimeout(id);
}

/**
 * On the login page, once the form is up and the main thread idle: fetches and evaluates what the
 * first signed-in screen needs (main layout, complete messages, the `to` screen or home, the socket
 * side, the toast that greets the user), so signing in renders at once instead of loading ~150 KB
 * and evaluating it between the server's answer and the first signed-in paint. Renders nothing.
 */
export function SignedInPreloader() {
  const services = useServices();
  const to = new URLSearchParams(useSearch()).get('to');
  const target = safeRedirectTarget(to);
  useEffect(
    () =>
      whenIdle(() => {
        const failed = (error: unknown) =>
          console.warn('preloading the signed-in screens failed; they load at sign-in', error);
        preloadSignedIn(target).catch(failed);
        preloadToastRegion().catch(failed);
        void services.preloadSignIn();
      }),
    [services, target],
  );
  return null;
}
