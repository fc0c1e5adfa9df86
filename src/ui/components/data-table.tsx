import { memo, useCallback, useDeferredValue, useId, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { cx } from './class-names';
import { useGridNavigation, type GridKey } from './grid-navigation';
import { rowsToShow, TableState, useColumnSort } from './table-parts';
import * as styles from './table.css';

/** A row's identity: stable across sorting and filtering. */
export type Key = GridKey;

/** Which column a table is sorted by, and which way (the caller sorts; the table shows it). */
export interface SortDescriptor {
  column: Key;
  direction: 'ascending' | 'descending';
}

/** The selected rows: a set of keys, or every row. */
export type Selection = 'all' | Set<Key>;

/** How one column reads and renders a row. */
export interface DataTableColumn<T> {
  /**
   * `actions` names the row's actions column: on a phone it ends the row's card, unlabelled and
   * never off screen (table.css.ts, cards).
   */
  id: string;
  /** Header text (translated). */
  header: string;
  cell: (row: T) => ReactNode;
  /** The column that names a row for screen readers (usually the name); one per table. */
  isRowHeader?: boolean;
  allowsSorting?: boolean;
  /** Numbers and money: right-aligned with tabular digits. */
  align?: 'start' | 'end';
  /** Fixed width (px, or a CSS length outside virtualized mode). */
  width?: number;
}

/** `ready` shows rows or the empty state; `loading` a spinner (or dims existing rows); `error` the error slot. */
export type DataTableStatus = 'ready' | 'loading' | 'error';

export interface DataTableProps<T extends { id: Key }> {
  'aria-label'?: string;
  'aria-labelledby'?: string;
  columns: readonly DataTableColumn<T>[];
  rows: readonly T[];
  status?: DataTableStatus;
  sortDescriptor?: SortDescriptor;
  onSortChange?: (sort: SortDescriptor) => void;
  /** `multiple`: a checkbox per row and a select-all checkbox in the header. */
  selectionMode?: 'none' | 'multiple';
  selectedKeys?: Selection | Iterable<Key>;
  defaultSelectedKeys?: Selection | Iterable<Key>;
  onSelectionChange?: (keys: Selection) => void;
  /** Rows that cannot be selected. */
  disabledKeys?: Iterable<Key>;
  /** A click on a row (not on a control in it) or Enter on the focused row. */
  onRowAction?: (key: Key) => void;
  /** Shown when `ready` with no rows; defaults to an EmptyState saying "Nenhum registro encontrado". */
  emptyState?: ReactNode;
  /** Shown when `error`, e.g. `<ErrorState onRetry={…} />`. */
  errorState?: ReactNode;
  /**
   * Below table.css.ts's CARD_BREAKPOINT: `cards` (the default) stacks each row as a card with its
   * actions in view; `scroll` keeps the table, scrolling sideways with a shadow at the edge to scroll to.
   */
  narrowLayout?: 'cards' | 'scroll';
  /**
   * A row's details, shown in a full-width line under it while this answers something (the audit log's
   * expanded record); the arrows of the grid pass over it and Tab moves through its controls as on a page.
   */
  renderExpanded?: (row: T) => ReactNode;
  className?: string;
}

/** The id of a row's actions column (see {@link DataTableColumn.id}). */
const ACTIONS = 'actions';

const asSelection = (keys: Selection | Iterable<Key> | undefined): Selection =>
  keys === 'all' ? 'all' : new Set(keys ?? []);

/** The selection, controlled (`selectedKeys`) or kept here (`defaultSelectedKeys`). */
function useSelection(
  props: Pick<DataTableProps<{ id: Key }>, 'selectedKeys' | 'defaultSelectedKeys' | 'onSelectionChange'>,
) {
  const [own, setOwn] = useState<Selection>(() => asSelection(props.defaultSelectedKeys));
  const selection = props.selectedKeys === undefined ? own : asSelection(props.selectedKeys);
  const change = (next: Selection) => {
    if (props.selectedKeys === undefined) setOwn(next);
    props.onSelectionChange?.(next);
  };
  return [selection, change] as const;
}

/**
 * A data table: a native `<table>` with grid semantics (`role=grid`, `aria-rowindex`/`aria-colindex`)
 * and the keyboard model of grid-navigation.ts (one tab stop, arrows between cells and the controls
 * in them). Sortable headers with `aria-sort` (the caller sorts, the table shows it), optional row
 * selection with checkboxes, row actions, and loading/empty/error slots. Every row is rendered: a
 * page of up to a few hundred rows builds only its elements (no collection of nodes per row and
 * cell), so it renders and holds memory like plain markup. For long lists use `VirtualizedDataTable`.
 */
export function DataTable<T extends { id: Key }>(props: DataTableProps<T>) {
  const {
    columns,
    rows,
    status = 'ready',
    emptyState,
    errorState,
    selectionMode = 'none',
    className,
    sortDescriptor,
    onSortChange,
    onRowAction,
    narrowLayout = 'cards',
    renderExpanded,
  } = props;
  const { t } = useTranslation();
  const idPrefix = useId();
  const gridRef = useRef<HTMLTableElement>(null);
  const [selection, setSelection] = useSelection(props);
  const multiple = selectionMode === 'multiple';
  const disabled = new Set(props.disabledKeys ?? []);
  const shownRows = rowsToShow(status, rows);
  const count = shownRows.length;
  const offset = multiple ? 1 : 0;
  const columnCount = columns.length + offset;
  const headerCol = columns.findIndex((column) => column.isRowHeader);
  const { sortBy, header, describedBy, descriptions } = useColumnSort(columns, idPrefix, sortDescriptor, onSortChange);

  const { gridProps, headerTabIndex, focusIn } = useGridNavigation({
    gridRef,
    rows: shownRows,
    columnCount,
    pageRows: (grid) => {
      const row = grid.querySelector<HTMLElement>('tbody [role=row]');
      const view = grid.closest<HTMLElement>('[data-grid-scroller]')?.clientHeight || window.innerHeight;
      return row && row.offsetHeight > 0 ? Math.floor(view / row.offsetHeight) - 1 : 10;
    },
    onHeaderAction: (col) => sortBy(columns[col - offset]),
    onRowAction,
  });

  const selectable = shownRows.filter((row) => !disabled.has(row.id));
  const isSelected = (key: Key) => selection === 'all' || selection.has(key);
  const selectedCount =
    selection === 'all' ? selectable.length : selectable.filter((row) => selection.has(row.id)).length;
  const allSelected = selectable.length > 0 && selectedCount === selectable.length;
  const toggleRow = (key: Key) => {
    const next = new Set(selection === 'all' ? selectable.map((row) => row.id) : selection);
    if (next.has(key)) next.delete(key);
    else next.add(key);
    setSelection(next);
  };
  // The rows take callbacks that never change (they read the latest render's), so a row re-renders
  // only when its own row, columns, focus or selection change.
  const latest = useRef({ toggleRow, onRowAction });
  useLayoutEffect(() => {
    latest.current = { toggleRow, onRowAction };
  });
  const onToggle = useCallback((key: Key) => latest.current.toggleRow(key), []);
  const onRowActionStable = useCallback((key: Key) => latest.current.onRowAction?.(key), []);
  const selectRowLabel = t('ui.table.selectRow');
  // Rows arriving in an empty table (the first page after sign-in): the first FIRST_ROWS render and
  // paint at once, the rest in a transition React slices, so no one task renders a whole page
  // (docs/performance.md). aria-rowcount counts every row from the start; rows already shown
  // (another page, a new order) are replaced in one render, so nothing shrinks and grows back.
  const filled = useDeferredValue(count > 0, false);
  const renderedRows = filled || count <= FIRST_ROWS ? shownRows : shownRows.slice(0, FIRST_ROWS);

  // aria-busy on the wrapper: it covers the whole region, header included.
  return (
    <div
      className={cx(styles.wrapper, narrowLayout === 'cards' && styles.cardRows, className)}
      aria-busy={status === 'loading' || undefined}
      data-grid-scroller=""
    >
      <table
        ref={gridRef}
        role="grid"
        aria-label={props['aria-label']}
        aria-labelledby={props['aria-labelledby']}
        aria-describedby={describedBy}
        aria-rowcount={count > 0 ? count + 1 : 2}
        aria-colcount={columnCount}
        aria-multiselectable={multiple || undefined}
        className={styles.table}
        {...gridProps}
      >
        <thead role="rowgroup" className={styles.header}>
          <tr role="row" aria-rowindex={1}>
            {multiple ? (
              <th
                role="columnheader"
                aria-colindex={1}
                tabIndex={headerTabIndex(0)}
                className={cx(styles.column, styles.selectionCell)}
              >
                <input
                  type="checkbox"
                  className={styles.checkbox}
                  aria-label={t('ui.table.selectAll')}
                  checked={allSelected}
                  ref={(el) => {
                    if (el) el.indeterminate = selectedCount > 0 && !allSelected;
                  }}
                  disabled={selectable.length === 0}
                  onChange={() => setSelection(allSelected ? new Set() : 'all')}
                />
              </th>
            ) : null}
            {columns.map((column, i) => {
              const { props: sortProps, content } = header(column);
              return (
                <th
                  key={column.id}
                  role="columnheader"
                  scope="col"
                  aria-colindex={i + offset + 1}
                  {...sortProps}
                  tabIndex={headerTabIndex(i + offset)}
                  style={column.width ? { width: column.width } : undefined}
                  className={cx(styles.column, column.align === 'end' && styles.alignEnd)}
                >
                  {content}
                </th>
              );
            })}
          </tr>
        </thead>
        {count > 0 ? (
          <tbody role="rowgroup">
            {renderedRows.map((row, index) => (
              <DataTableRow
                key={row.id}
                row={row}
                index={index}
                columns={columns}
                offset={offset}
                headerCol={headerCol}
                idPrefix={idPrefix}
                focus={focusIn(index)}
                selected={multiple ? isSelected(row.id) : undefined}
                disabled={disabled.has(row.id)}
                selectRowLabel={selectRowLabel}
                onToggle={onToggle}
                onRowAction={onRowAction ? onRowActionStable : undefined}
                renderExpanded={renderExpanded}
              />
            ))}
          </tbody>
        ) : (
          <tbody role="rowgroup" data-empty="">
            <tr role="row" aria-rowindex={2}>
              <td role="gridcell" aria-colindex={1} colSpan={columnCount}>
                <TableState status={status} emptyState={emptyState} errorState={errorState} />
              </td>
            </tr>
          </tbody>
        )}
      </table>
      {descriptions}
    </div>
  );
}

/** How many rows an empty table renders at once when a page arrives; the rest follow in a transition. */
const FIRST_ROWS = 20;

const cellIdOf = (idPrefix: string, key: Key, col: number) => `${idPrefix}-${String(key)}-${col}`;

interface DataTableRowProps<T extends { id: Key }> {
  row: T;
  index: number;
  columns: readonly DataTableColumn<T>[];
  /** 1 with the selection column, else 0. */
  offset: number;
  headerCol: number;
  idPrefix: string;
  /** grid-navigation.ts `focusIn` for this row. */
  focus: number | null | undefined;
  /** Whether it is ticked; undefined without selection. */
  selected: boolean | undefined;
  disabled: boolean;
  selectRowLabel: string;
  onToggle: (key: Key) => void;
  onRowAction: ((key: Key) => void) | undefined;
  renderExpanded: ((row: T) => ReactNode) | undefined;
}

/** One body row (and its details line); memoized: another row's change or a parent's render skips it. */
const DataTableRow = memo(function DataTableRow<T extends { id: Key }>({
  row,
  index,
  columns,
  offset,
  headerCol,
  idPrefix,
  focus,
  selected,
  disabled,
  selectRowLabel,
  onToggle,
  onRowAction,
  renderExpanded,
}: DataTableRowProps<T>) {
  const multiple = selected !== undefined;
  const expanded = renderExpanded?.(row) ?? null;
  const cellId = (col: number) => cellIdOf(idPrefix, row.id, col);
  return (
    <>
      <tr
        role="row"
        aria-rowindex={index + 2}
        aria-selected={selected}
        aria-labelledby={headerCol >= 0 ? cellId(headerCol) : undefined}
        aria-disabled={disabled || undefined}
        data-action={onRowAction ? '' : undefined}
        tabIndex={focus === null ? 0 : -1}
        className={styles.row}
        onClick={
          onRowAction
            ? (event) => {
                // A click on a control in the row (a checkbox, a menu) is the control's.
                const control = (event.target as Element).closest('a, button, input, select, textarea, [role=menu]');
                if (!control || !event.currentTarget.contains(control)) onRowAction(row.id);
              }
            : undefined
        }
      >
        {multiple ? (
          <td
            role="gridcell"
            aria-colindex={1}
            tabIndex={focus === 0 ? 0 : -1}
            className={cx(styles.cell, styles.selectionCell)}
          >
            <input
              type="checkbox"
              id={cellId(-1)}
              className={styles.checkbox}
              aria-label={selectRowLabel}
              aria-labelledby={headerCol >= 0 ? `${cellId(-1)} ${cellId(headerCol)}` : undefined}
              checked={selected}
              disabled={disabled}
              onChange={() => onToggle(row.id)}
            />
          </td>
        ) : null}
        {columns.map((column, i) => {
          const Cell = column.isRowHeader ? 'th' : 'td';
          return (
            <Cell
              key={column.id}
              role={column.isRowHeader ? 'rowheader' : 'gridcell'}
              scope={column.isRowHeader ? 'row' : undefined}
              id={i === headerCol ? cellId(i) : undefined}
              aria-colindex={i + offset + 1}
              data-label={column.isRowHeader || column.id === ACTIONS ? undefined : column.header}
              data-actions={column.id === ACTIONS ? '' : undefined}
              tabIndex={focus === i + offset ? 0 : -1}
              className={cx(
                styles.cell,
                column.isRowHeader && styles.rowHeader,
                column.align === 'end' && styles.alignEnd,
              )}
            >
              {column.cell(row)}
            </Cell>
          );
        })}
      </tr>
      {expanded !== null ? (
        <tr role="row" data-grid-detail="" className={styles.row}>
          <td role="gridcell" colSpan={columns.length + offset} className={styles.cell}>
            {expanded}
          </td>
        </tr>
      ) : null}
    </>
  );
}) as <T extends { id: Key }>(props: DataTableRowProps<T> & { key?: Key }) => ReactNode;
