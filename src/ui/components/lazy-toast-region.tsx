import { Suspense, useState, useSyncExternalStore } from 'react';
import { guardedLazy } from './preloadable';
import { appToasts, type ToastQueue } from './toast-queue';

// In the login entry: a region whose code did not arrive shows nothing (toasts only add to what screens say).
const ToastRegion = guardedLazy<{ queue?: ToastQueue }>(
  () => import('./toast').then((module) => ({ default: module.ToastRegion })),
  () => null,
);

/** Fetches the region's code ahead of its first toast (sign-in greets with one). */
export const preloadToastRegion = (): Promise<unknown> => ToastRegion.preload();

/**
 * The app's toast region, loaded on first use: the region (RAC's landmark, focus management and
 * its 34-language strings) stays out of the initial JS of every route — the login page included —
 * until something calls `showToast`. Once loaded it stays mounted. The shell renders this one;
 * tests and pages that must show toasts synchronously use `ToastRegion` from `toast.tsx`.
 */
export function LazyToastRegion({ queue = appToasts }: { queue?: ToastQueue }) {
  const hasToasts = useSyncExternalStore(
    (onChange) => queue.subscribe(onChange),
    () => queue.visibleToasts.length > 0,
    // Prerendered pages (src/app/prerender.tsx) have no toasts.
    () => false,
  );
  // Latches: after the first toast the region stays, so later toasts appear without a fetch.
  const [needed, setNeeded] = useState(false);
  if (hasToasts && !needed) setNeeded(true);
  if (!needed) return null;
  return (
    <Suspense fallback={null}>
      <ToastRegion queue={queue} />
    </Suspense>
  );
}
