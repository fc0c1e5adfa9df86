import { memo, useCallback, useEffect, useId, useLayoutEffect, useMemo, useRef, useState, type FocusEvent, type KeyboardEvent, type ReactNode } from 'react';
import { flushSync } from 'react-dom';
import type { Key, SortDescriptor } from 'react-aria-components/Table';
import { useTranslation } from 'react-i18next';
import { cx } from './class-names';
import type { DataTableColumn, DataTableProps } from './data-table';
import { rowsToShow, SortIndicator, TableState } from './table-parts';
import * as tableStyles from './table.css';
import * as styles from './virtualized-table.css';
import { VisuallyHidden } from './visually-hidden';

/** Row selection and row actions are {@link DataTable}'s alone: no long list uses them. */
type DataTableOnlyProps = 'selectionMode' | 'selectedKeys' | 'defaultSelectedKeys' | 'onSelectionChange' | 'disabledKeys' | 'onRowAction';

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

/** Where the grid's single tab stop is: a header cell, or a body row (`col: null`) or one of its cells. */
type Cursor = { area: 'header'; col: number } | { area: 'body'; key: Key; col: number | null };
/** A cursor by row index, as the keyboard computes it. */
type Target = { area: 'header'; col: number } | { area: 'body'; index: number; col: number | null };
type Range = { start: number; end: number };

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]';
const TABBABLE = 'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** The controls inside a cell (its buttons), in order. */
function controlsIn(cell: Element): HTMLElement[] {
  return Array.from(cell.querySelectorAll<HTMLElement>(FOCUSABLE)).filter((el) => (el.getAttribute('tabindex') ?? '0') !== '-1');
}

function isEditable(el: HTMLElement): boolean {
  return el.isContentEditable || el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement;
}

/**
 * Which header cell, row or cell an element belongs to, from the ARIA indices every row and cell
 * carries (null: the grid itself or the empty/error slot).
 */
function locate(grid: HTMLElement, el: Element): (Target & { cell: HTMLElement | null }) | null {
  const row = el.closest<HTMLElement>('[role=row]');
  if (!row || !grid.contains(row) || row.parentElement?.hasAttribute('data-empty')) return null;
  const cell = el.closest<HTMLElement>('[aria-colindex]');
  const col = cell && row.contains(cell) ? Number(cell.getAttribute('aria-colindex')) - 1 : null;
  const rowIndex = Number(row.getAttribute('aria-rowindex'));
  if (rowIndex === 1) return col === null ? null : { area: 'header', col, cell };
  return { area: 'body', index: rowIndex - 2, col, cell: col === null ? null : cell };
}

/** The element of a cursor target: the header cell, the row, or the cell. */
function elementOf(grid: HTMLElement, target: Target): HTMLElement | null {
  const row = grid.querySelector<HTMLElement>(`[role=row][aria-rowindex="${target.area === 'header' ? 1 : target.index + 2}"]`);
  return target.col === null ? row : (row?.querySelector<HTMLElement>(`[aria-colindex="${target.col + 1}"]`) ?? null);
}

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
const GridRow = memo(function GridRow<T extends { id: Key }>({ row, index, columns, rowHeight, template, idPrefix, focus }: GridRowProps<T>) {
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
          className={cx(tableStyles.cell, styles.cell, column.align === 'end' && tableStyles.alignEnd, column.align === 'end' && styles.cellEnd)}
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
  const { t } = useTranslation();
  const idPrefix = useId();
  const sortableId = `${idPrefix}-sortable`;
  const sortedId = `${idPrefix}-sorted`;
  const gridRef = useRef<HTMLDivElement>(null);
  const leaving = useRef(false);
  // Set from a pointer press until the task ends: the focus it causes is a click, not a Tab.
  const pressing = useRef(false);
  const shownRows = useMemo(() => rowsToShow(status, rows), [status, rows]);
  const count = shownRows.length;

  // The window: rows [start, end) of the list are mounted. Only a scroll that reveals another row
  // changes it; the first guess uses the window's height until the grid is measured.
  const [range, setRange] = useState<Range>(() => ({ start: 0, end: Math.ceil((typeof window === 'undefined' ? 800 : window.innerHeight) / rowHeight) + overscan }));
  // Written only where the range is set, so a scroll compares against what is (about to be) rendered.
  const rangeRef = useRef(range);
  const syncRange = useCallback(
    (sync: boolean) => {
      const grid = gridRef.current;
      if (!grid) return;
      const viewport = Math.max(rowHeight, (grid.clientHeight || window.innerHeight) - headingHeight);
      const first = Math.floor(grid.scrollTop / rowHeight);
      const next = { start: Math.max(0, first - overscan), end: first + Math.ceil(viewport / rowHeight) + 1 + overscan };
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

  // The tab stop, by row key so it follows its row through sorting and filtering.
  const [cursor, setCursor] = useState<Cursor | null>(null);
  const indexOf = useMemo(() => {
    let byKey: Map<Key, number> | null = null;
    return (key: Key) => {
      byKey ??= new Map(shownRows.map((row, i) => [row.id, i]));
      return byKey.get(key) ?? -1;
    };
  }, [shownRows]);
  const cursorIndex = cursor?.area === 'body' ? indexOf(cursor.key) : -1;
  // A row filtered out (or deleted) takes the tab stop with it: the grid itself is the stop again.
  const current: Cursor | null = cursor?.area === 'body' && cursorIndex < 0 ? null : cursor;

  const start = Math.min(range.start, count);
  const end = Math.min(range.end, count);
  const indices: number[] = [];
  if (cursorIndex >= 0 && cursorIndex < start) indices.push(cursorIndex);
  for (let i = start; i < end; i += 1) indices.push(i);
  if (cursorIndex >= end) indices.push(cursorIndex);
  const [rowSlots] = useState(() => new RowSlots());
  const slotOf = rowSlots.assign(indices.map((i) => (shownRows[i] as T).id));

  const template = columns.map((column) => (column.width ? `${column.width}px` : `minmax(${minColumnWidth}px, 1fr)`)).join(' ');
  const minWidth = columns.reduce((sum, column) => sum + (column.width ?? minColumnWidth), 0);
  const sortedColumn = sortDescriptor?.column == null ? undefined : columns.find((column) => column.id === sortDescriptor.column);

  const sortBy = (column: DataTableColumn<T>) => {
    if (!column.allowsSorting) return;
    const direction: SortDescriptor['direction'] = sortDescriptor?.column === column.id && sortDescriptor.direction === 'ascending' ? 'descending' : 'ascending';
    onSortChange?.({ column: column.id, direction });
  };

  /** Scrolls row `index` fully into view below the sticky header. */
  const revealRow = (grid: HTMLElement, index: number) => {
    const top = index * rowHeight;
    const viewport = grid.clientHeight - headingHeight;
    if (top < grid.scrollTop) grid.scrollTop = top;
    else if (viewport > 0 && top + rowHeight > grid.scrollTop + viewport) grid.scrollTop = top + rowHeight - viewport;
  };
  const revealColumn = (grid: HTMLElement, cell: HTMLElement) => {
    const left = cell.offsetLeft;
    const right = left + cell.offsetWidth;
    if (left < grid.scrollLeft) grid.scrollLeft = left;
    else if (grid.clientWidth > 0 && right > grid.scrollLeft + grid.clientWidth) grid.scrollLeft = right - grid.clientWidth;
  };

  /** Moves the tab stop and DOM focus: the row is mounted (it is the stop) before it is scrolled to. */
  const moveTo = (target: Target, controls: 'first' | 'last') => {
    const grid = gridRef.current;
    const row = target.area === 'body' ? shownRows[target.index] : undefined;
    if (!grid || (target.area === 'body' && !row)) return;
    flushSync(() => setCursor(target.area === 'header' ? target : { area: 'body', key: (row as T).id, col: target.col }));
    if (target.area === 'body') {
      revealRow(grid, target.index);
      syncRange(true);
    }
    const el = elementOf(grid, target);
    if (!el) return;
    if (target.col !== null) revealColumn(grid, el);
    // A cell with controls (the row's buttons) hands focus to one of them, as RAC's grid does.
    const inside = target.area === 'body' && target.col !== null ? controlsIn(el) : [];
    const focusable = (controls === 'last' ? inside[inside.length - 1] : inside[0]) ?? el;
    focusable.focus({ preventScroll: true });
  };

  /** Tab leaves the grid: focus hops to its last tabbable element (Shift: to the grid) and the browser moves on from there. */
  const leave = (grid: HTMLElement, backwards: boolean) => {
    leaving.current = true;
    try {
      if (backwards) grid.focus({ preventScroll: true });
      else {
        const tabbables = grid.querySelectorAll<HTMLElement>(TABBABLE);
        const last = tabbables[tabbables.length - 1];
        if (last && last !== document.activeElement) last.focus({ preventScroll: true });
      }
    } finally {
      leaving.current = false;
    }
  };

  const onKeyDownCapture = (event: KeyboardEvent<HTMLDivElement>) => {
    const grid = event.currentTarget;
    const el = event.target as HTMLElement;
    // Keys from a row's open menu reach here through React's tree (it is portalled): not ours.
    if (!grid.contains(el) || event.altKey || event.defaultPrevented) return;
    if (event.key === 'Tab') {
      if (count > 0) leave(grid, event.shiftKey);
      return;
    }
    const at = el === grid ? null : locate(grid, el);
    if (at === null && el !== grid) return; // the empty/error slot: its keys belong to its content
    if (isEditable(el) && ['ArrowLeft', 'ArrowRight', 'Home', 'End'].includes(event.key)) return;
    const page = Math.max(1, Math.floor((grid.clientHeight - headingHeight) / rowHeight));
    const last = columns.length - 1;
    const ctrl = event.ctrlKey || event.metaKey;
    let next: Target | null = null;
    let controls: 'first' | 'last' = 'first';
    if (at === null) {
      if (count > 0 && ['ArrowDown', 'ArrowUp', 'ArrowLeft', 'ArrowRight', 'Home', 'End', 'PageDown', 'PageUp'].includes(event.key)) {
        next = { area: 'body', index: event.key === 'End' ? count - 1 : 0, col: null };
      }
    } else if (at.area === 'header') {
      const { col } = at;
      switch (event.key) {
        case 'ArrowLeft':
          if (col > 0) next = { area: 'header', col: col - 1 };
          break;
        case 'ArrowRight':
          if (col < last) next = { area: 'header', col: col + 1 };
          break;
        case 'Home':
          next = { area: 'header', col: 0 };
          break;
        case 'End':
          next = { area: 'header', col: last };
          break;
        case 'ArrowDown':
        case 'PageDown':
          if (count > 0) next = { area: 'body', index: event.key === 'ArrowDown' ? 0 : Math.min(count - 1, page - 1), col };
          break;
        case 'Enter':
        case ' ': {
          const column = columns[col];
          if (el === at.cell && column?.allowsSorting) {
            event.preventDefault();
            sortBy(column);
          }
          return;
        }
      }
    } else {
      const { index, col, cell } = at;
      const sameColumn = (i: number): Target => ({ area: 'body', index: Math.max(0, Math.min(count - 1, i)), col });
      switch (event.key) {
        case 'ArrowDown':
          next = sameColumn(index + 1);
          break;
        case 'ArrowUp':
          next = index === 0 && col !== null ? { area: 'header', col } : sameColumn(index - 1);
          break;
        case 'PageDown':
          next = sameColumn(index + page);
          break;
        case 'PageUp':
          next = sameColumn(index - page);
          break;
        case 'Home':
          next = ctrl || col === null ? sameColumn(0) : { area: 'body', index, col: 0 };
          break;
        case 'End':
          next = ctrl || col === null ? sameColumn(count - 1) : { area: 'body', index, col: last };
          break;
        case 'ArrowRight':
        case 'ArrowLeft': {
          const forward = event.key === 'ArrowRight';
          // Between the controls of a cell first (e.g. "Editar" → "Ações"), then to the next cell.
          if (cell && el !== cell) {
            const inside = controlsIn(cell);
            const i = inside.findIndex((control) => control === el || control.contains(el));
            const sibling = i < 0 ? undefined : inside[forward ? i + 1 : i - 1];
            if (sibling) {
              event.preventDefault();
              event.stopPropagation();
              sibling.focus({ preventScroll: true });
              return;
            }
          }
          // Past the last cell (or before the first) comes the row itself, as in RAC's grid.
          if (forward) next = { area: 'body', index, col: col === null ? 0 : col < last ? col + 1 : null };
          else next = { area: 'body', index, col: col === null ? last : col > 0 ? col - 1 : null };
          controls = forward ? 'first' : 'last';
          break;
        }
      }
    }
    if (!next) return;
    // Handled here, in the capture phase, so a cell's control (a menu button opens on ArrowDown) never sees it.
    event.preventDefault();
    event.stopPropagation();
    moveTo(next, controls);
  };

  const onFocus = (event: FocusEvent<HTMLDivElement>) => {
    const grid = event.currentTarget;
    const el = event.target;
    if (leaving.current || !grid.contains(el)) return;
    if (el === grid) {
      if (count === 0) return;
      // Tabbing in: back to the remembered cell, else the first row (the last when coming from after the grid).
      const from = event.relatedTarget;
      const fromAfter = from instanceof Node && !grid.contains(from) && (grid.compareDocumentPosition(from) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0;
      const target: Target =
        current?.area === 'header' ? current : current?.area === 'body' ? { area: 'body', index: cursorIndex, col: current.col } : { area: 'body', index: fromAfter ? count - 1 : 0, col: null };
      moveTo(target, 'first');
      return;
    }
    const at = locate(grid, el);
    if (!at) return;
    // Tabbing (Shift+Tab) into a control of some row: the grid is one tab stop, so focus goes back
    // to the remembered row or cell instead, as in RAC's grid. A click keeps what it clicked.
    const fromOutside = !(event.relatedTarget instanceof Node && grid.contains(event.relatedTarget));
    if (fromOutside && !pressing.current && current) {
      const target: Target = current.area === 'header' ? current : { area: 'body', index: cursorIndex, col: current.col };
      if (!elementOf(grid, target)?.contains(el)) {
        moveTo(target, 'first');
        return;
      }
    }
    const next: Cursor | null = at.area === 'header' ? at : shownRows[at.index] ? { area: 'body', key: (shownRows[at.index] as T).id, col: at.col } : null;
    if (next && !(current && current.area === next.area && current.col === next.col && (current.area === 'header' || (next.area === 'body' && current.key === next.key)))) setCursor(next);
    // A cell focused from outside (a click on its padding, Tab back into the grid) hands focus to its first control.
    if (at.area === 'body' && at.cell === el && !(event.relatedTarget instanceof Node && el.contains(event.relatedTarget))) controlsIn(el)[0]?.focus({ preventScroll: true });
  };

  return (
    <div className={cx(tableStyles.wrapper, className)} aria-busy={status === 'loading' || undefined}>
      <div
        ref={gridRef}
        role="grid"
        aria-label={ariaLabel}
        aria-labelledby={ariaLabelledby}
        aria-describedby={sortedColumn ? sortedId : undefined}
        aria-rowcount={count > 0 ? count + 1 : 2}
        aria-colcount={columns.length}
        tabIndex={current ? -1 : 0}
        className={cx(tableStyles.table, styles.grid)}
        style={{ height }}
        onScroll={() => syncRange(true)}
        onKeyDownCapture={onKeyDownCapture}
        onFocus={onFocus}
        onPointerDownCapture={() => {
          pressing.current = true;
          setTimeout(() => {
            pressing.current = false;
          }, 0);
        }}
      >
        <div className={styles.content} style={{ minWidth }}>
          <div role="rowgroup" className={cx(tableStyles.header, styles.header)}>
            <div role="row" aria-rowindex={1} className={styles.headerRow} style={{ gridTemplateColumns: template, height: headingHeight }}>
              {columns.map((column, col) => {
                const direction = sortedColumn?.id === column.id ? sortDescriptor?.direction : undefined;
                return (
                  <div
                    key={column.id}
                    role="columnheader"
                    aria-colindex={col + 1}
                    aria-sort={column.allowsSorting ? (direction ?? 'none') : undefined}
                    aria-describedby={column.allowsSorting ? sortableId : undefined}
                    data-allows-sorting={column.allowsSorting || undefined}
                    data-sort-direction={direction}
                    tabIndex={current?.area === 'header' && current.col === col ? 0 : -1}
                    className={cx(tableStyles.column, styles.column, column.align === 'end' && tableStyles.alignEnd, column.align === 'end' && styles.columnEnd)}
                    onClick={() => sortBy(column)}
                  >
                    <span className={tableStyles.columnContent}>
                      {column.header}
                      {column.allowsSorting ? <SortIndicator direction={direction} /> : null}
                    </span>
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
                    focus={i === cursorIndex && current?.area === 'body' ? current.col : undefined}
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
      <VisuallyHidden>
        <span id={sortableId}>{t('ui.table.sortable')}</span>
        {sortedColumn ? (
          <span id={sortedId}>{t(sortDescriptor?.direction === 'descending' ? 'ui.table.sortedDescending' : 'ui.table.sortedAscending', { column: sortedColumn.header })}</span>
        ) : null}
      </VisuallyHidden>
    </div>
  );
}
