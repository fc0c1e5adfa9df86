import { Suspense, useEffect } from 'react';
import { lazyPart } from '../lazy-with-timeout';
import type { BulkActionDialogProps } from './bulk-action-dialog';

/**
 * BulkActionDialog (with its machine and runner) in a chunk of its own: a list shows it only once an
 * action is chosen, so the users and tenants screens do not carry it (docs/performance.md). Fetched as
 * soon as rows are selected ({@link usePreloadBulkActionDialog}); a chunk that fails shows the part's
 * error with a retry in the dialog's place.
 */
const Dialog = lazyPart(() =>
  import('./bulk-action-dialog').then(({ BulkActionDialog }) => ({ default: BulkActionDialog })),
);

export function LazyBulkActionDialog(props: BulkActionDialogProps) {
  return (
    <Suspense fallback={null}>
      <Dialog {...props} />
    </Suspense>
  );
}

/** Fetches the dialog's chunk once `selected` (rows are ticked: an action may follow). */
export function usePreloadBulkActionDialog(selected: boolean): void {
  useEffect(() => {
    if (selected) void Dialog.preload().catch(() => undefined);
  }, [selected]);
}
