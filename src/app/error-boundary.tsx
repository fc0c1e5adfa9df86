import { Component, type ErrorInfo, type ReactNode } from 'react';
import { ServerErrorContent } from '../ui/screens/errors/server-error';

interface State {
  error: Error | null;
}

/**
 * The 500 page for a render or chunk-load failure (docs/product.md, Errors): the screen is replaced by the
 * error content with a retry, the address stays (a reload retries the same page), the shell stays.
 */
export class ErrorBoundary extends Component<{ children: ReactNode }, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: Error): State {
    return { error };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error('screen failed', error, info.componentStack);
  }

  override render() {
    const { error } = this.state;
    if (!error) return this.props.children;
    // React.lazy keeps a failed import: a chunk that did not load needs a page reload to try again.
    const chunk = error.name === 'ChunkLoadError' || error.name === 'ChunkTimeoutError';
    return <ServerErrorContent onRetry={() => (chunk ? window.location.reload() : this.setState({ error: null }))} />;
  }
}
