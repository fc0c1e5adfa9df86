import { Suspense, type ReactNode } from 'react';
import { Spinner } from '../../components/spinner';
import { ErrorBoundary } from '../../../app/error-boundary';
import * as styles from './tenants.css';

/**
 * A tab's part of the tenant panel loaded as a chunk of its own (the instances, the webhook endpoints):
 * a short loading state, named by `loading`, while its code arrives, and an error boundary around it.
 */
export function PartSlot({ loading, children }: { loading: string; children: ReactNode }) {
  return (
    <ErrorBoundary>
      <Suspense
        fallback={
          <div className={styles.loading}>
            <Spinner label={loading} />
            <span aria-hidden="true">{loading}</span>
          </div>
        }
      >
        {children}
      </Suspense>
    </ErrorBoundary>
  );
}
