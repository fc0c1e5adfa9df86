import { useEffect } from 'react';
import { useSearch } from 'wouter';
import { safeRedirectTarget } from '../domain/route-access';
import { preloadToastRegion } from '../ui/components/lazy-toast-region';
import { preloadSignedIn } from './screens-registry';
import { useServices } from '../ui/hooks/services-context';
import { whenIdle } from '../ui/hooks/when-idle';

/**
 * Runs `steps` one after the other, each in an idle period of its own once the one before has settled
 * (a failed step does not stop the next), so that what each step evaluates is a task of its own rather
 * than one long task with the others; returns a cancel that stops the steps not yet started.
 */
export function inIdleTurns(steps: readonly (() => Promise<unknown>)[], timeoutMs = 2000): () => void {
  let cancelled = false;
  let cancelWaiting: () => void = () => undefined;
  const next = (index: number) => {
    const step = steps[index];
    if (cancelled || !step) return;
    cancelWaiting = whenIdle(() => {
      let running: Promise<unknown>;
      try {
        running = step();
      } catch (error) {
        running = Promise.reject(error);
      }
      void running.catch(() => undefined).then(() => next(index + 1));
    }, timeoutMs);
  };
  next(0);
  return () => {
    cancelled = true;
    cancelWaiting();
  };
}

/**
 * On the login page, once the form is up and the main thread idle: fetches and evaluates what the
 * first signed-in screen needs (the REST client the sign-in sends with, then the main layout, complete
 * messages and the `to` screen or home, then the toast that greets the user), so signing in renders at
 * once instead of loading ~150 KB and evaluating it between the server's answer and the first
 * signed-in paint. Each part in an idle period of its own (`inIdleTurns`): evaluated all at once they
 * made one task long enough to count as blocking time on a slow phone (docs/performance.md, "Page load
 * against peers"). Renders nothing.
 */
export function SignedInPreloader() {
  const services = useServices();
  const to = new URLSearchParams(useSearch()).get('to');
  const target = safeRedirectTarget(to);
  useEffect(() => {
    const failed = (error: unknown) => {
      console.warn('preloading the signed-in screens failed; they load at sign-in', error);
    };
    return inIdleTurns([
      () => services.preloadSignIn(),
      () => preloadSignedIn(target).catch(failed),
      () => preloadToastRegion().catch(failed),
    ]);
  }, [services, target]);
  return null;
}
