/** A cursor by row index, as the keyboard computes it: a header cell, or a body row (`col: null`) or one of its cells. */
export type Target = { area: 'header'; col: number } | { area: 'body'; index: number; col: number | null };

/** Where the key was pressed, as grid-navigation.ts locates the focused element. */
export type KeyFocus =
  /** The grid element itself (nothing focused in it yet). */
  | { area: 'grid' }
  /** Inside the grid but in no row: the empty or error slot, whose keys belong to its content. */
  | { area: 'none' }
  /** A column header; `onCell` when the header cell itself has focus, not something in it. */
  | { area: 'header'; col: number; onCell: boolean }
  /**
   * A body row (`col: null`) or one of its cells; `onCell` when that cell itself has focus, and
   * `control` when one of the cell's controls (its buttons) has: its position among them.
   */
  | {
      area: 'body';
      index: number;
      col: number | null;
      onCell: boolean;
      control: { index: number; count: number } | null;
    };

export interface GridKeyState {
  focus: KeyFocus;
  rowCount: number;
  columnCount: number;
  /** How many rows PageUp/PageDown move (at least 1). */
  pageRows: number;
  /** The focused element edits text: it keeps ArrowLeft/ArrowRight/Home/End. */
  editable: boolean;
}

export interface KeyModifiers {
  /** Ctrl, or Meta on macOS. */
  ctrl: boolean;
  shift: boolean;
  alt: boolean;
}

/** What a key does in the grid; null: nothing, the key goes on to the focused element. */
export type GridKeyAction =
  /** Move the tab stop and focus; a cell with controls hands focus to its first or last one. */
  | { type: 'move'; target: Target; controls: 'first' | 'last' }
  /** Focus control `index` of the focused cell (between the controls of one cell). */
  | { type: 'control'; index: number }
  /** Enter or Space on a column header cell (sorting). */
  | { type: 'header-action'; col: number }
  /** Enter on a row or one of its plain cells (the row's action). */
  | { type: 'row-action'; index: number }
  /** Tab out of the grid (Shift: backwards). */
  | { type: 'leave'; backwards: boolean }
  | null;

const ENTERING_KEYS = ['ArrowDown', 'ArrowUp', 'ArrowLeft', 'ArrowRight', 'Home', 'End', 'PageDown', 'PageUp'];
const TEXT_KEYS = ['ArrowLeft', 'ArrowRight', 'Home', 'End'];

/**
 * The grids' keyboard model (React Aria's grid model, used by grid-navigation.ts): arrows between
 * rows, cells and the controls inside a cell, Home/End (in the row; with Ctrl the first/last row),
 * PageUp/PageDown, Enter/Space on a header, Enter on a row, Tab out of the grid. A pure function
 * of where the key was pressed and the key: the caller does the focusing.
 */
export function gridKeyAction(state: GridKeyState, key: string, modifiers: KeyModifiers): GridKeyAction {
  const { focus, rowCount: count, columnCount, pageRows: page, editable } = state;
  if (modifiers.alt) return null;
  if (key === 'Tab') return count > 0 ? { type: 'leave', backwards: modifiers.shift } : null;
  if (focus.area === 'none') return null;
  if (editable && TEXT_KEYS.includes(key)) return null;
  const last = columnCount - 1;
  const move = (target: Target, controls: 'first' | 'last' = 'first'): GridKeyAction => ({
    type: 'move',
    target,
    controls,
  });

  if (focus.area === 'grid') {
    if (count > 0 && ENTERING_KEYS.includes(key))
      return move({ area: 'body', index: key === 'End' ? count - 1 : 0, col: null });
    return null;
  }

  if (focus.area === 'header') {
    const { col } = focus;
    switch (key) {
      case 'ArrowLeft':
        return col > 0 ? move({ area: 'header', col: col - 1 }) : null;
      case 'ArrowRight':
        return col < last ? move({ area: 'header', col: col + 1 }) : null;
      case 'Home':
        return move({ area: 'header', col: 0 });
      case 'End':
        return move({ area: 'header', col: last });
      case 'ArrowDown':
      case 'PageDown':
        if (count === 0) return null;
        return move({ area: 'body', index: key === 'ArrowDown' ? 0 : Math.min(count - 1, page - 1), col });
      case 'Enter':
      case ' ':
        return focus.onCell ? { type: 'header-action', col } : null;
      default:
        return null;
    }
  }

  const { index, col, onCell, control } = focus;
  const sameColumn = (i: number) => move({ area: 'body', index: Math.max(0, Math.min(count - 1, i)), col });
  switch (key) {
    case 'ArrowDown':
      return sameColumn(index + 1);
    case 'ArrowUp':
      return index === 0 && col !== null ? move({ area: 'header', col }) : sameColumn(index - 1);
    case 'PageDown':
      return sameColumn(index + page);
    case 'PageUp':
      return sameColumn(index - page);
    case 'Home':
      return modifiers.ctrl || col === null ? sameColumn(0) : move({ area: 'body', index, col: 0 });
    case 'End':
      return modifiers.ctrl || col === null ? sameColumn(count - 1) : move({ area: 'body', index, col: last });
    case 'Enter':
      // On the row or one of its plain cells (a control's own Enter stays the control's).
      return col === null || onCell ? { type: 'row-action', index } : null;
    case 'ArrowRight':
    case 'ArrowLeft': {
      const forward = key === 'ArrowRight';
      // Between the controls of a cell first (e.g. "Editar" → "Ações"), then to the next cell.
      if (control) {
        const sibling = forward ? control.index + 1 : control.index - 1;
        if (sibling >= 0 && sibling < control.count) return { type: 'control', index: sibling };
      }
      // Past the last cell (or before the first) comes the row itself, as in RAC's grid.
      const nextCol = forward
        ? col === null
          ? 0
          : col < last
            ? col + 1
            : null
        : col === null
          ? last
          : col > 0
            ? col - 1
            : null;
      return move({ area: 'body', index, col: nextCol }, forward ? 'first' : 'last');
    }
    default:
      return null;
  }
}
