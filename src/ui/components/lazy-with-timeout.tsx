import { useState, type ComponentType } from 'react';
import { ErrorBoundary, isChunkError } from '../../app/error-boundary';
import { CHUNK_TIMEOUT_MS, preloadableLazy, type PreloadableComponent } from './preloadable';

export { CHUNK_TIMEOUT_MS, importWithTimeout } from './preloadable';

/*
 * The one way to load code on demand in src (a unit test, lazy-with-timeout.test.ts, refuses a bare
 * React `lazy(` or an `import(` elsewhere): every chunk has the same timeout, and a failure shows an
 * error with a retry (docs/product.md, Errors).
 */

type Module<P> = { default: ComponentType<P> };

/**
 * A screen in a chunk of its own, with that timeout: a stalled network ends in the error page, not a
 * spinner forever. The router's boundary (src/app/error-boundary.tsx) shows the failure.
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
 * When its chunk fails or times out, an error with a retry stands in its place (the rest of the
 * screen stays); the retry imports again: React.lazy keeps a failed attempt for good, so each retry
 * takes a fresh lazy component (the bundler's runtime forgets a chunk that failed or timed out
 * and requests it again).
 */
export function lazyPart<P extends object>(load: () => Promise<Module<P>>, timeoutMs = CHUNK_TIMEOUT_MS): LazyPart<P> {
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
    return (
      <ErrorBoundary
        key={tries}
        onChunkRetry={() => {
          current = attempt();
          setTries((n) => n + 1);
        }}
      >
        <Current {...props} />
      </ErrorBoundary>
    );
  }
  return Object.assign(Part, { preload: () => current.preload() });
}
