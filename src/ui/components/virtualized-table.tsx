import { memo, useCallback, useEffect, useId, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { flushSync } from 'react-dom';
import { cx } from './class-names';
import { useGridNavigation } from './grid-navigation';
import type { DataTableColumn, DataTableProps, Key } from './data-table';
import { rowsToShow, TableState, useColumnSort } from './table-parts';
import * as tableStyles from './table.css';
import * as styles from './virtualized-table.css';

/** Row selection and row actions are {@link DataTable}'s alone: no long list uses them. */
type DataTableOnlyProps =
  'selectionMode' | 'selectedKeys' | 'defaultSelectedKeys' | 'onSelectionChange' | 'disabledKeys' | 'onRowAction';

export interface VirtualizedDataTableProps<T extends { id: Key }> extends Omit<DataTableProps<T>, DataTableOnlyProps> {
  /** Height of the scrolling grid in px (or any CSS length, e.g. `calc(100vh - 240px)`). */
  height: number | string;
  /** Fixed row height in px: rows are positioned by index, never measured. */
  rowHeight?: number;
  /** Height of the header row in px. */
  headingHeight?: number;
  /** Rows rendered above and below the viewport, so a short scroll mounts only the rows it reveals. */
  overscan?: number;
  /** Narrowest a column without a `width` gets (px); below that the grid scrolls sideways. */
  minColumnWidth?: number;
}

type Range = { start: number; end: number };

/**
 * Which element slot each mounted row uses. A row keeps its slot while it stays mounted (scrolling
 * a little, or the focused row scrolled away); a row scrolled in takes a slot a row scrolled out
 * left, and React updates that row's elements in place instead of unmounting one row and mounting
 * another: the DOM work of a scroll step is then changed text and attributes. The assignment is
 * memory across renders, as RAC's virtualizer reuses its views; it is a pure function of the
 * previous assignment and the rows to render, so rendering twice gives the same slots.
 */
class RowSlots {
  private slots = new Map<Key, number>();

  assign(keys: readonly Key[]): Map<Key, number> {
    const next = new Map<Key, number>();
    const used = new Set<number>();
    for (const key of keys) {
      const slot = this.slots.get(key);
      if (slot !== undefined) {
        next.set(key, slot);
        used.add(slot);
      }
    }
    let free = 0;
    for (const key of keys) {
      if (next.has(key)) continue;
      while (used.has(free)) free += 1;
      next.set(key, free);
      used.add(free);
    }
    this.slots = next;
    return next;
  }
}

const cellId = (prefix: string, key: Key, col: number) => `${prefix}-${String(key)}-${col}`;

interface GridRowProps<T extends { id: Key }> {
  row: T;
  index: number;
  columns: readonly DataTableColumn<T>[];
  rowHeight: number;
  template: string;
  idPrefix: string;
  /** undefined: not the tab stop; null: the row is; a number: that cell is. */
  focus: number | null | undefined;
}

/**
 * One row, memoized: scrolling mounts the rows it reveals and leaves the others alone (their props
 * do not change). Cells read live state (e.g. a busy flag) from context, not from these props.
 */
const GridRow = memo(function GridRow<T extends { id: Key }>({
  row,
  index,
  columns,
  rowHeight,
  template,
  idPrefix,
  focus,
}: GridRowProps<T>) {
  const headerCol = columns.findIndex((column) => column.isRowHeader);
  return (
    <div
      role="row"
      aria-rowindex={index + 2}
      aria-labelledby={headerCol >= 0 ? cellId(idPrefix, row.id, headerCol) : undefined}
      tabIndex={focus === null ? 0 : -1}
      className={cx(tableStyles.row, styles.row)}
      style={{ top: index * rowHeight, height: rowHeight, gridTemplateColumns: template }}
    >
      {columns.map((column, col) => (
        <div
          key={column.id}
          role={column.isRowHeader ? 'rowheader' : 'gridcell'}
          id={col === headerCol ? cellId(idPrefix, row.id, col) : undefined}
          aria-colindex={col + 1}
          tabIndex={focus === col ? 0 : -1}
          className={cx(
            tableStyles.cell,
            styles.cell,
            column.align === 'end' && tableStyles.alignEnd,
            column.align === 'end' && styles.cellEnd,
          )}
        >
          <span className={styles.cellContent}>{column.cell(row)}</span>
        </div>
      ))}
    </div>
  );
}) as <T extends { id: Key }>(props: GridRowProps<T>) => ReactNode;

/**
 * {@link DataTable} for long lists (users: 10,000+): a grid of its own that only builds the rows in
 * view plus a few above and below — a couple of dozen row elements whatever the length — laid out by
 * index at a fixed row height. React Aria's Table (with its Virtualizer) built a collection node for
 * every row and cell and walked all of them on every scroll step: seconds to first paint, ~90 MiB of
 * heap and long tasks of hundreds of ms while scrolling 10,000 users.
 *
 * Same contract as the RAC grid it replaces: `role=grid` with `aria-rowcount`/`aria-colcount` over
 * every row, `aria-rowindex`/`aria-colindex`, sortable column headers (`aria-sort`, click or
 * Enter/Space) and one tab stop with RAC's keyboard model — arrows between rows, cells and the
 * controls inside a cell, Home/End (in the row; with Ctrl the first/last row), PageUp/PageDown, Tab
 * out of the grid. The row holding focus stays mounted while it is scrolled away. Lives in its own
 * module so screens without long lists never load it.
 */
export function VirtualizedDataTable<T extends { id: Key }>(props: VirtualizedDataTableProps<T>) {
  const {
    columns,
    rows,
    status = 'ready',
    emptyState,
    errorState,
    className,
    height,
    rowHeight = 44,
    headingHeight = 44,
    overscan = 2,
    minColumnWidth = 120,
    sortDescriptor,
    onSortChange,
    'aria-label': ariaLabel,
    'aria-labelledby': ariaLabelledby,
  } = props;
  const idPrefix = useId();
  const gridRef = useRef<HTMLDivElement>(null);
  const shownRows = useMemo(() => rowsToShow(status, rows), [status, rows]);
  const count = shownRows.length;

  // The window: rows [start, end) of the list are mounted. Only a scroll that reveals another row
  // changes it; the first guess uses the window's height until the grid is measured.
  const [range, setRange] = useState<Range>(() => ({
    start: 0,
    end: Math.ceil((typeof window === 'undefined' ? 800 : window.innerHeight) / rowHeight) + overscan,
  }));
  // Written only where the range is set, so a scroll compares against what is (about to be) rendered.
  const rangeRef = useRef(range);
  const syncRange = useCallback(
    (sync: boolean) => {
      const grid = gridRef.current;
      if (!grid) return;
      const viewport = Math.max(rowHeight, (grid.clientHeight || window.innerHeight) - headingHeight);
      const first = Math.floor(grid.scrollTop / rowHeight);
      const next = {
        start: Math.max(0, first - overscan),
        end: first + Math.ceil(viewport / rowHeight) + 1 + overscan,
      };
      if (next.start === rangeRef.current.start && next.end === rangeRef.current.end) return;
      rangeRef.current = next;
      // From a scroll event, render before the frame is painted (no blank rows); elsewhere React batches.
      if (sync) flushSync(() => setRange(next));
      else setRange(next);
    },
    [rowHeight, headingHeight, overscan],
  );
  useLayoutEffect(() => syncRange(false), [syncRange, count]);
  useEffect(() => {
    const grid = gridRef.current;
    if (!grid || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => syncRange(false));
    observer.observe(grid);
    return () => observer.disconnect();
  }, [syncRange]);

  const { sortBy, header, describedBy, descriptions } = useColumnSort(columns, idPrefix, sortDescriptor, onSortChange);

  const { cursorIndex, gridProps, headerTabIndex, focusIn } = useGridNavigation({
    gridRef,
    rows: shownRows,
    columnCount: columns.length,
    pageRows: (grid) => Math.floor((grid.clientHeight - headingHeight) / rowHeight),
    // Scrolls row `index` fully into view below the sticky header, then mounts it before it takes focus.
    revealRow: (grid, index) => {
      const top = index * rowHeight;
      const viewport = grid.clientHeight - headingHeight;
      if (top < grid.scrollTop) grid.scrollTop = top;
      else if (viewport > 0 && top + rowHeight > grid.scrollTop + viewport) grid.scrollTop = top + rowHeight - viewport;
      syncRange(true);
    },
    onHeaderAction: (col) => sortBy(columns[col]),
  });

  const start = Math.min(range.start, count);
  const end = Math.min(range.end, count);
  const indices: number[] = [];
  if (cursorIndex >= 0 && cursorIndex < start) indices.push(cursorIndex);
  for (let i = start; i < end; i += 1) indices.push(i);
  if (cursorIndex >= end) indices.push(cursorIndex);
  const [rowSlots] = useState(() => new RowSlots());
  const slotOf = rowSlots.assign(indices.map((i) => (shownRows[i] as T).id));

  const template = columns
    .map((column) => (column.width ? `${column.width}px` : `minmax(${minColumnWidth}px, 1fr)`))
    .join(' ');
  const minWidth = columns.reduce((sum, column) => sum + (column.width ?? minColumnWidth), 0);

  return (
    <div className={cx(tableStyles.wrapper, className)} aria-busy={status === 'loading' || undefined}>
      <div
        ref={gridRef}
        role="grid"
        aria-label={ariaLabel}
        aria-labelledby={ariaLabelledby}
        aria-describedby={describedBy}
        aria-rowcount={count > 0 ? count + 1 : 2}
        aria-colcount={columns.length}
        {...gridProps}
        className={cx(tableStyles.table, tableStyles.scrollCue, styles.grid)}
        style={{ height }}
        onScroll={() => syncRange(true)}
      >
        <div className={styles.content} style={{ minWidth }}>
          <div role="rowgroup" className={cx(tableStyles.header, styles.header)}>
            <div
              role="row"
              aria-rowindex={1}
              className={styles.headerRow}
              style={{ gridTemplateColumns: template, height: headingHeight }}
            >
              {columns.map((column, col) => {
                const { props: sortProps, content } = header(column);
                return (
                  <div
                    key={column.id}
                    role="columnheader"
                    aria-colindex={col + 1}
                    {...sortProps}
                    tabIndex={headerTabIndex(col)}
                    className={cx(
                      tableStyles.column,
                      styles.column,
                      column.align === 'end' && tableStyles.alignEnd,
                      column.align === 'end' && styles.columnEnd,
                    )}
                  >
                    {content}
                  </div>
                );
              })}
            </div>
          </div>
          {count > 0 ? (
            <div role="rowgroup" className={styles.body} style={{ height: count * rowHeight }}>
              {indices.map((i) => {
                const row = shownRows[i] as T;
                return (
                  <GridRow
                    key={slotOf.get(row.id)}
                    row={row}
                    index={i}
                    columns={columns}
                    rowHeight={rowHeight}
                    template={template}
                    idPrefix={idPrefix}
                    focus={focusIn(i)}
                  />
                );
              })}
            </div>
          ) : (
            <div role="rowgroup" data-empty="" className={styles.body}>
              <div role="row" aria-rowindex={2} className={styles.stateRow}>
                <div role="gridcell" aria-colspan={columns.length}>
                  <TableState status={status} emptyState={emptyState} errorState={errorState} />
                </div>
              </div>
            </div>
          )}
        </div>
      </div>
      {descriptions}
    </div>
  );
}
