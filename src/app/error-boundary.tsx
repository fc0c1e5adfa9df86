import { Component, type ErrorInfo, type ReactNode } from 'react';
import { requestIdOf } from '../api/api-error';
import { ServerErrorContent } from '../ui/screens/errors/server-error';

interface State {
  error: Error | null;
}

interface Props {
  children: ReactNode;
  /**
   * Guards one lazily loaded part of a screen (src/ui/components/preloadable.tsx, `guardedLazy`)
   * rather than the screen: only a chunk that failed or timed out is caught, and this shows in the
   * part's place (its retry is the part's own); any other error goes on to the boundary above (the
   * screen's 500 page).
   */
  chunkFallback?: ReactNode;
  /** Heading level of the 500 title: 2 under the shell's page header (its h1). Default 1. */
  headingLevel?: 1 | 2;
}

/** A dynamic import that failed (bundler's ChunkLoadError) or took longer than its timeout. */
export const isChunkError = (error: Error): boolean =>
  error.name === 'ChunkLoadError' || error.name === 'ChunkTimeoutError';

/**
 * The 500 page for a render or chunk-load failure (docs/product.md, Errors): the screen is replaced by the
 * error content with a retry, a way home and the failed call's request id, the address stays (a
 * reload retries the same page), the shell stays.
 * With `chunkFallback`, the boundary of one part of a screen instead (see {@link Props.chunkFallback}).
 */
export class ErrorBoundary extends Component<Props, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: Error): State {
    return { error };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error('chunkFallback' in this.props ? 'part failed' : 'screen failed', error, info.componentStack);
  }

  override render() {
    const { error } = this.state;
    if (!error) return this.props.children;
    const chunk = isChunkError(error);
    if ('chunkFallback' in this.props) {
      // Not a chunk failure: the screen's boundary above shows it.
      if (!chunk) throw error;
      return this.props.chunkFallback;
    }
    // React.lazy keeps a failed import: a chunk that did not load needs a page reload to try again.
    // A failed call's request id (src/api/api-error.ts) is shown for the user to quote (docs/panel.md).
    return (
      <ServerErrorContent
        requestId={requestIdOf(error)}
        level={this.props.headingLevel ?? 1}
        onRetry={() => (chunk ? window.location.reload() : this.setState({ error: null }))}
      />
    );
  }
}
