import { useCallback, useMemo, useState } from 'react';
import type { Key, Selection } from '../data-table';

/**
 * The rows a list has selected for a bulk action (docs/lists.md, Bulk actions): ids picked on any page
 * (kept while paging), or "every row the filters match" beyond the page, which the bulk machine turns
 * into ids (`userIds`, `tenantIds`) when the action starts. A new `resetKey` (the list's filters and
 * search) clears it: the rows it named may no longer be the ones shown.
 */
export type ListSelection = { mode: 'ids'; ids: ReadonlySet<number> } | { mode: 'matching' };

const NONE: ListSelection = { mode: 'ids', ids: new Set() };

export interface ListSelectionApi {
  selection: ListSelection;
  /** How many rows are selected: the matching total in "matching" mode. */
  count: number;
  /** The page's checked keys, for DataTable's `selectedKeys`. */
  selectedKeys: Selection;
  /** DataTable's `onSelectionChange` for this page's rows. */
  onSelectionChange: (keys: Selection) => void;
  selectMatching: () => void;
  clear: () => void;
}

export function useListSelection(resetKey: string, pageIds: readonly number[], total: number): ListSelectionApi {
  const [state, setState] = useState<{ key: string; selection: ListSelection }>({ key: resetKey, selection: NONE });
  // A new filter or search: the selection is of another list. Reset while rendering, before it is shown.
  const current = state.key === resetKey ? state.selection : NONE;
  if (state.key !== resetKey) setState({ key: resetKey, selection: NONE });
  const set = useCallback((selection: ListSelection) => setState({ key: resetKey, selection }), [resetKey]);

  const onSelectionChange = useCallback(
    (keys: Selection) => {
      const onPage = new Set(pageIds);
      const kept = current.mode === 'ids' ? [...current.ids].filter((id) => !onPage.has(id)) : [];
      // Unticking a row while "every match" is selected leaves the rows still ticked on this page.
      const picked = keys === 'all' ? [...pageIds] : [...keys].map(Number).filter((id) => onPage.has(id));
      set({ mode: 'ids', ids: new Set([...kept, ...picked]) });
    },
    [current, pageIds, set],
  );
  const selectedKeys: Selection = useMemo(
    () => (current.mode === 'matching' ? 'all' : new Set<Key>(pageIds.filter((id) => current.ids.has(id)))),
    [current, pageIds],
  );
  return {
    selection: current,
    count: current.mode === 'matching' ? total : current.ids.size,
    selectedKeys,
    onSelectionChange,
    selectMatching: useCallback(() => set({ mode: 'matching' }), [set]),
    clear: useCallback(() => set(NONE), [set]),
  };
}
