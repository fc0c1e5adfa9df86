/**
 * Runs `task` when the main thread is next idle (at the latest after `timeoutMs`, none when undefined);
 * where the browser has no idle callbacks, after a `fallbackMs` timer. Returns a cancel.
 */
export function whenIdle(task: () => void, timeoutMs: number | undefined = 2000, fallbackMs = 200): () => void {
  if (typeof window.requestIdleCallback === 'function') {
    const id = window.requestIdleCallback(task, timeoutMs === undefined ? undefined : { timeout: timeoutMs });
    return () => window.cancelIdleCallback(id);
  }
  const id = window.setTimeout(task, fallbackMs);
  return () => window.clearTimeout(id);
}
