import { UNSTABLE_ToastQueue as RACToastQueue } from 'react-aria-components/Toast';

export type ToastVariant = 'success' | 'error' | 'info';

/** What a toast says; texts are translated by the caller. */
export interface ToastContent {
  variant: ToastVariant;
  title: string;
  description?: string;
}

/** A queue of toasts; the shell owns one and renders its `ToastRegion`. */
export type ToastQueue = RACToastQueue<ToastContent>;

/** Creates a queue (tests and storybook-like pages make their own; the app uses {@link appToasts}). */
export function createToastQueue(): ToastQueue {
  return new RACToastQueue<ToastContent>({ maxVisibleToasts: 5 });
}

/** The app-wide queue: views call `showToast(appToasts, …)` when a machine reports an outcome. */
export const appToasts: ToastQueue = createToastQueue();

/**
 * Success and info close after 5 s (paused on hover/focus by React Aria); errors stay until
 * dismissed, so nobody misses one (WCAG 2.2.1).
 */
const DEFAULT_TIMEOUT: Record<ToastVariant, number | undefined> = { success: 5000, info: 5000, error: undefined };

/** Shows a toast; returns its key (for `queue.close(key)`). */
export function showToast(queue: ToastQueue, content: ToastContent, timeout = DEFAULT_TIMEOUT[content.variant]): string {
  return queue.add(content, { timeout });
}
