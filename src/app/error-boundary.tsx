import { Component, type ErrorInfo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorState } from '../ui/components/error-state';
import { ServerErrorContent } from '../ui/screens/errors/server-error';

interface State {
  error: Error | null;
}

interface Props {
  children: ReactNode;
  /**
   * Guards one lazily loaded part of a screen (src/ui/components/lazy-with-timeout.tsx, `lazyPart`)
   * rather than the screen: only a chunk that failed or timed out is caught, and shown in place of
   * the part with a retry that calls this (a fresh import); any other error goes on to the boundary
   * above (the screen's 500 page).
   */
  onChunkRetry?: () => void;
}

/** A dynamic import that failed (bundler's ChunkLoadError) or took longer than its timeout. */
export const isChunkError = (error: Error): boolean =>
  error.name === 'ChunkLoadError' || error.name === 'ChunkTimeoutError';

/**
 * The 500 page for a render or chunk-load failure (docs/product.md, Errors): the screen is replaced by the
 * error content with a retry, the address stays (a reload retries the same page), the shell stays.
 * With `onChunkRetry`, the boundary of one part of a screen instead (see {@link Props.onChunkRetry}).
 */
export class ErrorBoundary extends Component<Props, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: Error): State {
    return { error };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error(this.props.onChunkRetry ? 'part failed' : 'screen failed', error, info.componentStack);
  }

  override render() {
    const { error } = this.state;
    if (!error) return this.props.children;
    const chunk = isChunkError(error);
    const { onChunkRetry } = this.props;
    if (onChunkRetry) {
      // Not a chunk failure: the screen's boundary above shows it.
      if (!chunk) throw error;
      return (
        <PartError
          onRetry={() => {
            onChunkRetry();
            this.setState({ error: null });
          }}
        />
      );
    }
    // React.lazy keeps a failed import: a chunk that did not load needs a page reload to try again.
    return <ServerErrorContent onRetry={() => (chunk ? window.location.reload() : this.setState({ error: null }))} />;
  }
}

/** In place of a part whose code did not arrive: announced (role="alert"), with a retry. */
function PartError({ onRetry }: { onRetry: () => void }) {
  const { t } = useTranslation();
  return <ErrorState title={t('common.partError.title')} description={t('common.partError.body')} onRetry={onRetry} />;
}
