import type { ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorState } from './error-state';
import { CHUNK_TIMEOUT_MS, guardedLazy, type LazyPart } from './preloadable';

type Module<P> = { default: ComponentType<P> };

export {
  CHUNK_TIMEOUT_MS,
  guardedLazy,
  importWithTimeout,
  lazyWithTimeout,
  type LazyPart,
  type PreloadableComponent,
} from './preloadable';

/*
 * The one way to load code on demand in src (a lint rule in eslint.config.js refuses a bare React
 * `lazy(` or an `import(` outside these): every chunk has the same timeout (docs/product.md, Errors)
 * and a failure shows an error with a retry. Screens: `lazyWithTimeout` (the router's boundary shows
 * the 500 page); parts of screens: `lazyPart`; other modules: `importWithTimeout`. The core lives in
 * ./preloadable.tsx, light enough for the login entry.
 */

/** In place of a part whose code did not arrive: announced (role="alert"), with a retry. */
function PartError({ onRetry }: { onRetry: () => void }) {
  const { t } = useTranslation();
  return <ErrorState title={t('common.partError.title')} description={t('common.partError.body')} onRetry={onRetry} />;
}

/**
 * A part of a screen (dialog, panel, chart, field) in a chunk of its own, with the chunk timeout;
 * when the chunk fails or times out, a translated error with a retry that imports again stands in
 * its place (see {@link guardedLazy}).
 */
export function lazyPart<P extends object>(load: () => Promise<Module<P>>, timeoutMs = CHUNK_TIMEOUT_MS): LazyPart<P> {
  return guardedLazy(load, (retry) => <PartError onRetry={retry} />, timeoutMs);
}
