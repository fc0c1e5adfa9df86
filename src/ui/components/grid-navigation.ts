import { useMemo, useRef, useState, type FocusEvent, type KeyboardEvent, type RefObject } from 'react';
import { flushSync } from 'react-dom';
import { gridKeyAction, type KeyFocus, type Target } from './grid-keyboard';

/** A row's identity: stable across sorting and filtering. */
export type GridKey = string | number;

/** Where the grid's single tab stop is: a header cell, or a body row (`col: null`) or one of its cells. */
export type Cursor = { area: 'header'; col: number } | { area: 'body'; key: GridKey; col: number | null };
export type { Target };

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]';
const TABBABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** The controls inside a cell (its buttons), in order. */
function controlsIn(cell: Element): HTMLElement[] {
  return Array.from(cell.querySelectorAll<HTMLElement>(FOCUSABLE)).filter(
    (el) => (el.getAttribute('tabindex') ?? '0') !== '-1',
  );
}

function isEditable(el: HTMLElement): boolean {
  return (
    el.isContentEditable ||
    // A checkbox (the selection column's) edits no text: the arrows move on from it.
    (el instanceof HTMLInputElement && !['checkbox', 'radio', 'button'].includes(el.type)) ||
    el instanceof HTMLTextAreaElement ||
    el instanceof HTMLSelectElement
  );
}

/**
 * Which header cell, row or cell an element belongs to, from the ARIA indices every row and cell
 * carries (null: the grid itself or the empty/error slot).
 */
function locate(grid: HTMLElement, el: Element): (Target & { cell: HTMLElement | null }) | null {
  const row = el.closest<HTMLElement>('[role=row]');
  // A row's details (DataTable `renderExpanded`) are no cell of the grid.
  if (row?.hasAttribute('data-grid-detail')) return null;
  if (!row || !grid.contains(row) || row.parentElement?.hasAttribute('data-empty')) return null;
  const cell = el.closest<HTMLElement>('[aria-colindex]');
  const col = cell && row.contains(cell) ? Number(cell.getAttribute('aria-colindex')) - 1 : null;
  const rowIndex = Number(row.getAttribute('aria-rowindex'));
  if (rowIndex === 1) return col === null ? null : { area: 'header', col, cell };
  return { area: 'body', index: rowIndex - 2, col, cell: col === null ? null : cell };
}

/** The element of a cursor target: the header cell, the row, or the cell. */
function elementOf(grid: HTMLElement, target: Target): HTMLElement | null {
  const row = grid.querySelector<HTMLElement>(
    `[role=row][aria-rowindex="${target.area === 'header' ? 1 : target.index + 2}"]`,
  );
  return target.col === null ? row : (row?.querySelector<HTMLElement>(`[aria-colindex="${target.col + 1}"]`) ?? null);
}

export interface GridNavigationOptions<T extends { id: GridKey }> {
  gridRef: RefObject<HTMLElement | null>;
  /** The rows the grid shows, in order (row `i` carries `aria-rowindex` i + 2). */
  rows: readonly T[];
  columnCount: number;
  /** How many rows PageUp/PageDown move. */
  pageRows: (grid: HTMLElement) => number;
  /** Scrolls body row `index` into view (and mounts it, in a windowed grid) before it takes focus. */
  revealRow?: (grid: HTMLElement, index: number) => void;
  /** Enter or Space on a column header; answers whether it did something (sorted). */
  onHeaderAction: (col: number) => boolean;
  /** Enter on a focused row (not on a control in it). */
  onRowAction?: (key: GridKey) => void;
}

export interface GridNavigation {
  /** The tab stop, null while the grid itself is (nothing focused in it yet, or its row is gone). */
  current: Cursor | null;
  /** The body row index of the tab stop, -1 when it is not in the body. */
  cursorIndex: number;
  /** The grid element's handlers and tab index. */
  gridProps: {
    tabIndex: number;
    onKeyDownCapture: (event: KeyboardEvent<HTMLElement>) => void;
    onFocus: (event: FocusEvent<HTMLElement>) => void;
    onPointerDownCapture: () => void;
  };
  /** The tab index of header cell `col`. */
  headerTabIndex: (col: number) => 0 | -1;
  /** For body row `index`: undefined when the tab stop is elsewhere, null when it is the row, else the column. */
  focusIn: (index: number) => number | null | undefined;
}

/**
 * The keyboard and focus model of the app's grids (data-table.tsx, virtualized-table.tsx): one tab
 * stop with React Aria's grid model — arrows between rows, cells and the controls inside a cell,
 * Home/End (in the row; with Ctrl the first/last row), PageUp/PageDown, Enter/Space on a sortable
 * header, Enter on a row for its action, Tab out of the grid. The tab stop follows its row by key
 * through sorting and filtering.
 */
export function useGridNavigation<T extends { id: GridKey }>(options: GridNavigationOptions<T>): GridNavigation {
  const { gridRef, rows, columnCount, pageRows, revealRow, onHeaderAction, onRowAction } = options;
  const leaving = useRef(false);
  // Set from a pointer press until the task ends: the focus it causes is a click, not a Tab.
  const pressing = useRef(false);
  const count = rows.length;

  const [cursor, setCursor] = useState<Cursor | null>(null);
  const indexOf = useMemo(() => {
    let byKey: Map<GridKey, number> | null = null;
    return (key: GridKey) => {
      byKey ??= new Map(rows.map((row, i) => [row.id, i]));
      return byKey.get(key) ?? -1;
    };
  }, [rows]);
  const cursorIndex = cursor?.area === 'body' ? indexOf(cursor.key) : -1;
  // A row filtered out (or deleted) takes the tab stop with it: the grid itself is the stop again.
  const current: Cursor | null = cursor?.area === 'body' && cursorIndex < 0 ? null : cursor;

  const revealColumn = (grid: HTMLElement, cell: HTMLElement) => {
    const scroller = cell.closest<HTMLElement>('[data-grid-scroller]') ?? grid;
    const left = cell.offsetLeft;
    const right = left + cell.offsetWidth;
    if (left < scroller.scrollLeft) scroller.scrollLeft = left;
    else if (scroller.clientWidth > 0 && right > scroller.scrollLeft + scroller.clientWidth)
      scroller.scrollLeft = right - scroller.clientWidth;
  };

  /** Moves the tab stop and DOM focus: the row is mounted (it is the stop) before it is scrolled to. */
  const moveTo = (target: Target, controls: 'first' | 'last') => {
    const grid = gridRef.current;
    const row = target.area === 'body' ? rows[target.index] : undefined;
    if (!grid || (target.area === 'body' && !row)) return;
    flushSync(() =>
      setCursor(target.area === 'header' ? target : { area: 'body', key: (row as T).id, col: target.col }),
    );
    if (target.area === 'body') revealRow?.(grid, target.index);
    const el = elementOf(grid, target);
    if (!el) return;
    if (target.col !== null) revealColumn(grid, el);
    // A cell with controls (the row's buttons) hands focus to one of them, as RAC's grid does.
    const inside = target.area === 'body' && target.col !== null ? controlsIn(el) : [];
    const focusable = (controls === 'last' ? inside[inside.length - 1] : inside[0]) ?? el;
    // A windowed grid scrolls for itself (revealRow); a plain one lets the browser bring the element into view.
    focusable.focus({ preventScroll: revealRow !== undefined });
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

  const onKeyDownCapture = (event: KeyboardEvent<HTMLElement>) => {
    const grid = event.currentTarget;
    const el = event.target as HTMLElement;
    // Keys from a row's open menu reach here through React's tree (it is portalled): not ours; nor are
    // the keys of a row's details (DataTable `renderExpanded`), whose controls Tab moves through as on a page.
    if (!grid.contains(el) || event.defaultPrevented || el.closest('[data-grid-detail]')) return;
    const at = el === grid ? null : locate(grid, el);
    const inside = at?.area === 'body' && at.cell && el !== at.cell ? controlsIn(at.cell) : [];
    const controlIndex = inside.findIndex((control) => control === el || control.contains(el));
    const focus: KeyFocus =
      el === grid
        ? { area: 'grid' }
        : at === null
          ? { area: 'none' }
          : at.area === 'header'
            ? { area: 'header', col: at.col, onCell: el === at.cell }
            : {
                area: 'body',
                index: at.index,
                col: at.col,
                onCell: el === at.cell,
                control: controlIndex < 0 ? null : { index: controlIndex, count: inside.length },
              };
    const action = gridKeyAction(
      {
        focus,
        rowCount: count,
        columnCount,
        pageRows: focus.area === 'grid' || focus.area === 'none' ? 1 : Math.max(1, pageRows(grid)),
        editable: isEditable(el),
      },
      event.key,
      { ctrl: event.ctrlKey || event.metaKey, shift: event.shiftKey, alt: event.altKey },
    );
    if (!action) return;
    switch (action.type) {
      case 'leave':
        leave(grid, action.backwards);
        return;
      case 'header-action':
        if (onHeaderAction(action.col)) event.preventDefault();
        return;
      case 'row-action': {
        const row = rows[action.index];
        if (onRowAction && row) {
          event.preventDefault();
          onRowAction(row.id);
        }
        return;
      }
      case 'control':
        event.preventDefault();
        event.stopPropagation();
        inside[action.index]?.focus({ preventScroll: true });
        return;
      case 'move':
        // Handled here, in the capture phase, so a cell's control (a menu button opens on ArrowDown) never sees it.
        event.preventDefault();
        event.stopPropagation();
        moveTo(action.target, action.controls);
    }
  };

  const onFocus = (event: FocusEvent<HTMLElement>) => {
    const grid = event.currentTarget;
    const el = event.target;
    if (leaving.current || !grid.contains(el)) return;
    if (el === grid) {
      if (count === 0) return;
      // Tabbing in: back to the remembered cell, else the first row (the last when coming from after the grid).
      const from = event.relatedTarget;
      const fromAfter =
        from instanceof Node &&
        !grid.contains(from) &&
        (grid.compareDocumentPosition(from) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0;
      const target: Target =
        current?.area === 'header'
          ? current
          : current?.area === 'body'
            ? { area: 'body', index: cursorIndex, col: current.col }
            : { area: 'body', index: fromAfter ? count - 1 : 0, col: null };
      moveTo(target, 'first');
      return;
    }
    const at = locate(grid, el);
    if (!at) return;
    // Tabbing (Shift+Tab) into a control of some row: the grid is one tab stop, so focus goes back
    // to the remembered row or cell instead, as in RAC's grid. A click keeps what it clicked.
    const fromOutside = !(event.relatedTarget instanceof Node && grid.contains(event.relatedTarget));
    if (fromOutside && !pressing.current && current) {
      const target: Target =
        current.area === 'header' ? current : { area: 'body', index: cursorIndex, col: current.col };
      if (!elementOf(grid, target)?.contains(el)) {
        moveTo(target, 'first');
        return;
      }
    }
    const next: Cursor | null =
      at.area === 'header' ? at : rows[at.index] ? { area: 'body', key: (rows[at.index] as T).id, col: at.col } : null;
    if (
      next &&
      !(
        current &&
        current.area === next.area &&
        current.col === next.col &&
        (current.area === 'header' || (next.area === 'body' && current.key === next.key))
      )
    )
      setCursor(next);
    // A cell focused from outside (a click on its padding, Tab back into the grid) hands focus to its first control.
    if (
      at.area === 'body' &&
      at.cell === el &&
      !(event.relatedTarget instanceof Node && el.contains(event.relatedTarget))
    )
      controlsIn(el)[0]?.focus({ preventScroll: true });
  };

  const onPointerDownCapture = () => {
    pressing.current = true;
    setTimeout(() => {
      pressing.current = false;
    }, 0);
  };

  return {
    current,
    cursorIndex,
    gridProps: { tabIndex: current ? -1 : 0, onKeyDownCapture, onFocus, onPointerDownCapture },
    headerTabIndex: (col) => (current?.area === 'header' && current.col === col ? 0 : -1),
    focusIn: (index) => (index === cursorIndex && current?.area === 'body' ? current.col : undefined),
  };
}
