import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { BulkSelection, UserBulkAction } from '../../../machines/shared/bulk-action.machine';
import { Button } from '../../components/button';
import { LazyBulkActionDialog, usePreloadBulkActionDialog } from '../../components/selection/lazy-bulk-action-dialog';
import { SelectionBar } from '../../components/selection/selection-bar';
import type { ListSelectionApi } from '../../components/selection/use-list-selection';
import { useServices } from '../../hooks/services-context';

const ACTIONS: readonly UserBulkAction[] = ['block', 'unblock', 'require_two_factor', 'end_sessions', 'delete'];

/**
 * The users list's bulk actions (docs/lists.md, Bulk actions): block, unblock, require two-factor, end
 * sessions, delete, over the selected users: the rows ticked, or every user the search and filters
 * match on the server (`userIds`, asked when the action starts); the dry run, run and results are
 * BulkActionDialog's.
 */
export function UsersBulk({
  selection,
  matching,
  total,
  onDone,
}: {
  selection: ListSelectionApi;
  /** The list's search, filters and sort as `userIds` takes them (users-query.ts `userListApiQuery`). */
  matching: Extract<BulkSelection, { list: 'users' }>['query'];
  /** How many users match, in all pages. */
  total: number;
  onDone: (changed: boolean) => void;
}) {
  const { t } = useTranslation();
  const { clients, overlay } = useServices();
  usePreloadBulkActionDialog(selection.count > 0);
  const [action, setAction] = useState<UserBulkAction | null>(null);
  const rows: BulkSelection =
    selection.selection.mode === 'matching'
      ? { kind: 'matching', list: 'users', query: matching }
      : { kind: 'ids', ids: [...selection.selection.ids] };
  return (
    <>
      <SelectionBar
        count={selection.count}
        total={total}
        allMatching={selection.selection.mode === 'matching'}
        onSelectMatching={selection.selectMatching}
        onClear={selection.clear}
      >
        {ACTIONS.map((name) => (
          <Button
            key={name}
            size="sm"
            variant={name === 'delete' ? 'danger' : 'secondary'}
            onPress={() => setAction(name)}
          >
            {t(`bulkAction.users.${name}`)}
          </Button>
        ))}
      </SelectionBar>
      {action ? (
        <LazyBulkActionDialog
          rest={clients.rest}
          overlay={overlay}
          target={{ kind: 'users', action }}
          selection={rows}
          actionLabel={t(`bulkAction.users.${action}`)}
          onClose={(changed) => {
            setAction(null);
            onDone(changed);
          }}
        />
      ) : null}
    </>
  );
}
