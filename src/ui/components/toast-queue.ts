/**
 * The app's toast queue, light enough for the login route: no React Aria until a toast region
 * renders. Toasts added before that wait here; the region (toast.tsx, loaded lazily) attaches
 * React Aria's queue, which takes them over and shows them.
 */
export type ToastVariant = 'success' | 'error' | 'info';

/** What a toast says; texts are translated by the caller. */
export interface ToastContent {
  variant: ToastVariant;
  title: string;
  description?: string;
  /** One button beside the text ("Desfazer"); pressing it closes the toast. */
  action?: { label: string; onAction: () => void };
}

/** A queued toast as regions and tests read it. */
export interface QueuedToast {
  key: string;
  content: ToastContent;
}

/** The part of React Aria's `ToastQueue` this app uses (the real one satisfies it). */
export interface ToastQueueLike {
  add(content: ToastContent, options?: { timeout?: number }): string;
  close(key: string): void;
  clear(): void;
  subscribe(listener: () => void): () => void;
  readonly visibleToasts: readonly QueuedToast[];
}

/** Holds toasts until a region attaches the real queue, then forwards everything to it. */
export class ToastQueue implements ToastQueueLike {
  private real: ToastQueueLike | null = null;
  // Newest first, as React Aria's queue lists them (and its region shows them): the order readers see
  // does not change when a region attaches.
  private pending: (QueuedToast & { timeout: number | undefined })[] = [];
  private readonly listeners = new Set<() => void>();
  // The key React Aria's queue gave each toast that waited: its caller holds the waiting key.
  private readonly moved = new Map<string, string>();
  private next = 0;

  /** Called once by the region with React Aria's queue; the waiting toasts move over, in order. */
  attach(real: ToastQueueLike): void {
    if (this.real) return;
    this.real = real;
    // Oldest first: each one added goes before the others there.
    for (const toast of this.pending.splice(0).reverse())
      this.moved.set(toast.key, real.add(toast.content, toast.timeout === undefined ? {} : { timeout: toast.timeout }));
    real.subscribe(() => this.notify());
    this.notify();
  }

  get attached(): ToastQueueLike | null {
    return this.real;
  }

  add(content: ToastContent, options: { timeout?: number } = {}): string {
    if (this.real) return this.real.add(content, options);
    const key = `pending-${++this.next}`;
    this.pending = [{ key, content, timeout: options.timeout }, ...this.pending];
    this.notify();
    return key;
  }

  close(key: string): void {
    if (this.real) return this.real.close(this.moved.get(key) ?? key);
    this.pending = this.pending.filter((toast) => toast.key !== key);
    this.notify();
  }

  clear(): void {
    if (this.real) return this.real.clear();
    this.pending = [];
    this.notify();
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  /** How many views listen now: none once every React root showing toasts has unmounted. */
  get listenerCount(): number {
    return this.listeners.size;
  }

  get visibleToasts(): readonly QueuedToast[] {
    return this.real ? this.real.visibleToasts : this.pending;
  }

  private notify(): void {
    for (const listener of [...this.listeners]) listener();
  }
}

/** Creates a queue (tests and pages with their own region; the app uses {@link appToasts}). */
export function createToastQueue(): ToastQueue {
  return new ToastQueue();
}

/** The app-wide queue: views call `showToast(appToasts, …)` when a machine reports an outcome. */
export const appToasts: ToastQueue = createToastQueue();

/**
 * Success and info close after 5 s (paused on hover/focus by React Aria); errors stay until
 * dismissed, so nobody misses one (WCAG 2.2.1).
 */
const DEFAULT_TIMEOUT: Record<ToastVariant, number | undefined> = { success: 5000, info: 5000, error: undefined };

/** Shows a toast; returns its key (for `queue.close(key)`). */
export function showToast(
  queue: ToastQueueLike,
  content: ToastContent,
  timeout = DEFAULT_TIMEOUT[content.variant],
): string {
  return queue.add(content, timeout === undefined ? {} : { timeout });
}
