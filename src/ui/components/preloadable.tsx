import { lazy, useState, type ComponentType, type LazyExoticComponent, type ReactNode } from 'react';
import { ErrorBoundary, isChunkError } from '../../app/error-boundary';
import { CHUNK_TIMEOUT_MS } from '../../domain/chunk-timeout';

/** A chunk that has not loaded after this long is an error (docs/product.md, Errors; the boundary offers a retry). */
export { CHUNK_TIMEOUT_MS };

/**
 * A module that is not a component (the socket side, the route prefetch), with the chunk timeout:
 * rejects with a ChunkTimeoutError when it has not arrived in time, so its caller's retry runs.
 * Components go through src/ui/components/lazy-with-timeout.tsx.
 */
export function importWithTimeout<T>(load: () => Promise<T>, timeoutMs = CHUNK_TIMEOUT_MS): Promise<T> {
  return withTimeout(load(), timeoutMs);
}

/** A lazy component whose chunk can be fetched before it first renders. */
export type PreloadableComponent<P extends object> = LazyExoticComponent<ComponentType<P>> & {
  /** Fetches and evaluates the chunk (once); resolves when a first render would no longer suspend. */
  preload(): Promise<unknown>;
};

type Module<P> = { default: ComponentType<P> };

/**
 * `React.lazy` that can be warmed up ahead of time, and then does not suspend. React.lazy suspends
 * on its first render even when the chunk is already in memory (its factory's promise settles a
 * microtask later), and a fallback shown delays what comes after it (React spaces reveals by
 * 300 ms). When the chunk is in before the first render, the factory hands React.lazy a thenable
 * that calls back synchronously, which React.lazy takes as resolved on the spot.
 *
 * A failed load is forgotten until a render asks for the component, so a preload that failed
 * (offline for a moment) does not doom the later render; once a render has seen a failure it stays,
 * as with React.lazy (the error boundary reloads the page for chunk errors).
 *
 * @param load - the dynamic import
 * @param timeoutMs - rejects with a {@link ChunkTimeoutError} when the load takes longer (docs/product.md, Errors)
 */
export function preloadableLazy<P extends object>(
  load: () => Promise<Module<P>>,
  timeoutMs?: number,
): PreloadableComponent<P> {
  let loaded: Module<P> | null = null;
  let pending: Promise<Module<P>> | null = null;

  const preload = (): Promise<Module<P>> => {
    if (pending) return pending;
    const attempt = timeoutMs === undefined ? load() : withTimeout(load(), timeoutMs);
    attempt.then(
      (module) => {
        loaded = module;
      },
      () => {
        if (pending === attempt) pending = null;
      },
    );
    pending = attempt;
    return attempt;
  };

  // The mechanism itself (src/ui/components/lazy-with-timeout.tsx builds on it).
  // eslint-disable-next-line no-restricted-syntax
  const component = lazy(() => {
    const module = loaded;
    if (module) return synchronous(module);
    const attempt = preload();
    // From here on React.lazy holds this attempt, failure included.
    attempt.catch(() => undefined);
    return attempt;
  });
  return Object.assign(component, { preload });
}

/** `promise`, or a {@link ChunkTimeoutError} when it has not settled after `timeoutMs`. */
export function withTimeout<T>(promise: Promise<T>, timeoutMs: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ChunkTimeoutError(`chunk load timed out after ${timeoutMs} ms`)), timeoutMs);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * A screen in a chunk of its own, with the chunk timeout: a stalled network ends in the error page,
 * not a spinner forever. The router's boundary (src/app/error-boundary.tsx) shows the failure.
 */
export function lazyWithTimeout<P extends object>(
  load: () => Promise<Module<P>>,
  timeoutMs = CHUNK_TIMEOUT_MS,
): PreloadableComponent<P> {
  return preloadableLazy(load, timeoutMs);
}

/** A part of a screen in its own chunk: renders under a `<Suspense>` of the caller, like `React.lazy`. */
export type LazyPart<P extends object> = ComponentType<P> & {
  /** Fetches the chunk ahead of the first render (a failure is forgotten, see preloadableLazy). */
  preload(): Promise<unknown>;
};

/**
 * A part of a screen (dialog, panel, chart, field) in a chunk of its own, with the chunk timeout.
 * When its chunk fails or times out, `fallback(retry)` stands in its place (the rest of the screen
 * stays); `retry` imports again: React.lazy keeps a failed attempt for good, so each retry takes a
 * fresh lazy component (the bundler's runtime forgets a chunk that failed or timed out and requests
 * it again). Screens use `lazyPart` (src/ui/components/lazy-with-timeout.tsx), whose fallback is the
 * translated error; this core stays free of it for the entry chunk (the toast region).
 */
export function guardedLazy<P extends object>(
  load: () => Promise<Module<P>>,
  fallback: (retry: () => void) => ReactNode,
  timeoutMs = CHUNK_TIMEOUT_MS,
): LazyPart<P> {
  const attempt = () =>
    preloadableLazy<P>(
      () =>
        load().catch((cause: unknown) => {
          // Whatever the loader rejects with (a native import's TypeError, a CSS chunk's error), it is a chunk failure here.
          if (cause instanceof Error && isChunkError(cause)) throw cause;
          throw Object.assign(new Error('chunk failed to load', { cause }), { name: 'ChunkLoadError' });
        }),
      timeoutMs,
    );
  let current = attempt();

  function Part(props: P) {
    const [tries, setTries] = useState(0);
    const Current = current;
    const retry = () => {
      current = attempt();
      setTries((n) => n + 1);
    };
    return (
      <ErrorBoundary key={tries} chunkFallback={fallback(retry)}>
        <Current {...props} />
      </ErrorBoundary>
    );
  }
  return Object.assign(Part, { preload: () => current.preload() });
}

/**
 * A thenable that calls back at once. React.lazy reads its payload's status right after calling
 * `then`, so a module already in memory renders without suspending.
 */
function synchronous<T>(value: T): Promise<T> {
  const thenable = {
    then(resolve: (value: T) => unknown) {
      resolve(value);
    },
  };
  // React.lazy's factory is typed as returning a Promise, but React only ever calls `then` on it.
  return thenable as unknown as Promise<T>;
}

export class ChunkTimeoutError extends Error {
  override readonly name = 'ChunkTimeoutError';
}
