import type { FetchLike } from '../../api/auth-middleware';

/**
 * Counts requests in flight through the typed clients, for the global loading indicator
 * (docs/product.md, Loading indicator). Streams (sheet downloads) use their own progress and are not counted.
 */
export interface RequestActivity {
  pending(): number;
  /** Called on every change; returns the unsubscribe function. */
  subscribe(listener: () => void): () => void;
  /** Wraps a fetch so its requests are counted while they are in flight. */
  track(fetch: FetchLike): FetchLike;
}

export function createRequestActivity(): RequestActivity {
  let pending = 0;
  const listeners = new Set<() => void>();
  const change = (delta: number) => {
    pending += delta;
    for (const listener of [...listeners]) listener();
  };
  return {
    pending: () => pending,
    subscribe(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    track(fetch) {
      return async (request) => {
        change(1);
        try {
          return await fetch(request);
        } finally {
          change(-1);
        }
      };
    },
  };
}
