/**
 * Saved views and the column chooser (docs/lists.md, Views): the lists that have them, the columns
 * each list may hide, and the limits of a view. Shared by the server (server/src/views/service.ts
 * validates `state` with it) and the SPA (src/machines/views/, the column chooser), so a column the
 * chooser offers is one the server accepts.
 */

export const VIEW_LISTS = ['users', 'tenants', 'audit'] as const;
export type ViewList = (typeof VIEW_LISTS)[number];

/**
 * Per list: the columns that are always shown (the identifying column and the actions; a selection
 * column other parts add is never hideable either) and those a user may hide, in the table's order.
 */
export const VIEW_COLUMNS: Readonly<
  Record<ViewList, { readonly fixed: readonly string[]; readonly hideable: readonly string[] }>
> = {
  users: { fixed: ['name', 'actions'], hideable: ['email', 'role', 'department', 'presence', 'status'] },
  tenants: {
    fixed: ['name', 'actions'],
    hideable: ['cnpj', 'plan', 'userLimit', 'ticketLimit', 'template', 'pool', 'created_at', 'deleted_at'],
  },
  audit: { fixed: ['operation', 'details'], hideable: ['when', 'who', 'target', 'tenant', 'address'] },
};

/** Names: trimmed, 1–60 characters (code points). */
export const VIEW_NAME_MAX_LENGTH = 60;
/** The address's search string a view keeps (without the leading `?`). */
export const VIEW_QUERY_MAX_LENGTH = 2000;
/** The whole `state` as JSON, in UTF-8 bytes. */
export const VIEW_STATE_MAX_BYTES = 4096;
/** Views per user and list. */
export const VIEWS_PER_LIST = 50;

/**
 * What a view keeps: the list's address search string (filters, sort, page size…; `?` left out) and the
 * columns it hides (names of `VIEW_COLUMNS[list].hideable`). Hidden rather than shown columns, so a
 * column a later release adds shows in every existing view.
 */
export interface ViewState {
  query: string;
  columns: string[];
}

export interface SavedView {
  id: number;
  list: ViewList;
  name: string;
  state: ViewState;
  is_default: boolean;
  created_at: string;
  updated_at: string;
}

export const isViewList = (value: unknown): value is ViewList =>
  typeof value === 'string' && (VIEW_LISTS as readonly string[]).includes(value);

/** The hideable columns of `list` among `columns`, each once, in the table's order (unknown names dropped). */
export function hideableColumns(list: ViewList, columns: readonly string[]): string[] {
  const wanted = new Set(columns);
  return VIEW_COLUMNS[list].hideable.filter((column) => wanted.has(column));
}
