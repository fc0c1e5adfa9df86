import { gridKeyAction, type GridKeyState, type KeyFocus, type KeyModifiers } from './grid-keyboard';

const none: KeyModifiers = { ctrl: false, shift: false, alt: false };
const ctrl: KeyModifiers = { ...none, ctrl: true };

/** A grid of 100 rows and 4 columns, 10 rows a page. */
function state(focus: KeyFocus, overrides: Partial<GridKeyState> = {}): GridKeyState {
  return { focus, rowCount: 100, columnCount: 4, pageRows: 10, editable: false, ...overrides };
}
const header = (col: number, onCell = true): KeyFocus => ({ area: 'header', col, onCell });
const body = (
  index: number,
  col: number | null,
  extra: Partial<Extract<KeyFocus, { area: 'body' }>> = {},
): KeyFocus => ({
  area: 'body',
  index,
  col,
  onCell: col !== null,
  control: null,
  ...extra,
});
const moveTo = (target: unknown, controls: 'first' | 'last' = 'first') => ({ type: 'move', target, controls });

describe('gridKeyAction', () => {
  describe('on the grid itself', () => {
    it('enters the first row on arrows, Home, PageUp and PageDown, the last row on End', () => {
      for (const key of ['ArrowDown', 'ArrowUp', 'ArrowLeft', 'ArrowRight', 'Home', 'PageDown', 'PageUp']) {
        expect(gridKeyAction(state({ area: 'grid' }), key, none)).toEqual(
          moveTo({ area: 'body', index: 0, col: null }),
        );
      }
      expect(gridKeyAction(state({ area: 'grid' }), 'End', none)).toEqual(
        moveTo({ area: 'body', index: 99, col: null }),
      );
    });

    it('does nothing without rows, nor for other keys', () => {
      expect(gridKeyAction(state({ area: 'grid' }, { rowCount: 0 }), 'ArrowDown', none)).toBeNull();
      expect(gridKeyAction(state({ area: 'grid' }), 'Enter', none)).toBeNull();
      expect(gridKeyAction(state({ area: 'grid' }), 'a', none)).toBeNull();
    });
  });

  it('leaves the grid on Tab (Shift: backwards) when it has rows', () => {
    expect(gridKeyAction(state(body(3, 1)), 'Tab', none)).toEqual({ type: 'leave', backwards: false });
    expect(gridKeyAction(state(header(0)), 'Tab', { ...none, shift: true })).toEqual({
      type: 'leave',
      backwards: true,
    });
    expect(gridKeyAction(state({ area: 'grid' }, { rowCount: 0 }), 'Tab', none)).toBeNull();
  });

  it('leaves every key to the empty or error slot, and to Alt combinations', () => {
    for (const key of ['ArrowDown', 'Home', 'Enter', ' ']) {
      expect(gridKeyAction(state({ area: 'none' }, { rowCount: 0 }), key, none)).toBeNull();
      expect(gridKeyAction(state(body(3, 1)), key, { ...none, alt: true })).toBeNull();
    }
    expect(gridKeyAction(state(body(3, 1)), 'Tab', { ...none, alt: true })).toBeNull();
  });

  it('leaves ArrowLeft, ArrowRight, Home and End to a text field, but not ArrowDown', () => {
    for (const key of ['ArrowLeft', 'ArrowRight', 'Home', 'End']) {
      expect(gridKeyAction(state(body(3, 1), { editable: true }), key, none)).toBeNull();
    }
    expect(gridKeyAction(state(body(3, 1), { editable: true }), 'ArrowDown', none)).toEqual(
      moveTo({ area: 'body', index: 4, col: 1 }),
    );
  });

  describe('on a column header', () => {
    it('moves between headers with ArrowLeft/ArrowRight, stopping at the ends', () => {
      expect(gridKeyAction(state(header(1)), 'ArrowRight', none)).toEqual(moveTo({ area: 'header', col: 2 }));
      expect(gridKeyAction(state(header(1)), 'ArrowLeft', none)).toEqual(moveTo({ area: 'header', col: 0 }));
      expect(gridKeyAction(state(header(0)), 'ArrowLeft', none)).toBeNull();
      expect(gridKeyAction(state(header(3)), 'ArrowRight', none)).toBeNull();
    });

    it('goes to the first and last header with Home/End', () => {
      expect(gridKeyAction(state(header(2)), 'Home', none)).toEqual(moveTo({ area: 'header', col: 0 }));
      expect(gridKeyAction(state(header(1)), 'End', none)).toEqual(moveTo({ area: 'header', col: 3 }));
    });

    it('goes down into the same column: ArrowDown to the first row, PageDown a page down', () => {
      expect(gridKeyAction(state(header(2)), 'ArrowDown', none)).toEqual(moveTo({ area: 'body', index: 0, col: 2 }));
      expect(gridKeyAction(state(header(2)), 'PageDown', none)).toEqual(moveTo({ area: 'body', index: 9, col: 2 }));
      expect(gridKeyAction(state(header(2), { rowCount: 5 }), 'PageDown', none)).toEqual(
        moveTo({ area: 'body', index: 4, col: 2 }),
      );
      expect(gridKeyAction(state(header(2), { rowCount: 0 }), 'ArrowDown', none)).toBeNull();
      expect(gridKeyAction(state(header(2)), 'ArrowUp', none)).toBeNull();
    });

    it('asks for the header action on Enter and Space on the header cell itself', () => {
      expect(gridKeyAction(state(header(1)), 'Enter', none)).toEqual({ type: 'header-action', col: 1 });
      expect(gridKeyAction(state(header(1)), ' ', none)).toEqual({ type: 'header-action', col: 1 });
      expect(gridKeyAction(state(header(1, false)), 'Enter', none)).toBeNull();
    });
  });

  describe('in the body', () => {
    it('moves up and down in the same column, clamped to the rows', () => {
      expect(gridKeyAction(state(body(5, 2)), 'ArrowDown', none)).toEqual(moveTo({ area: 'body', index: 6, col: 2 }));
      expect(gridKeyAction(state(body(5, null)), 'ArrowUp', none)).toEqual(
        moveTo({ area: 'body', index: 4, col: null }),
      );
      expect(gridKeyAction(state(body(99, 2)), 'ArrowDown', none)).toEqual(moveTo({ area: 'body', index: 99, col: 2 }));
      expect(gridKeyAction(state(body(0, null)), 'ArrowUp', none)).toEqual(
        moveTo({ area: 'body', index: 0, col: null }),
      );
    });

    it('goes from a cell of the first row up to its column header', () => {
      expect(gridKeyAction(state(body(0, 3)), 'ArrowUp', none)).toEqual(moveTo({ area: 'header', col: 3 }));
    });

    it('moves a page with PageUp/PageDown, clamped to the first and last row', () => {
      expect(gridKeyAction(state(body(5, 1)), 'PageDown', none)).toEqual(moveTo({ area: 'body', index: 15, col: 1 }));
      expect(gridKeyAction(state(body(15, 1)), 'PageUp', none)).toEqual(moveTo({ area: 'body', index: 5, col: 1 }));
      expect(gridKeyAction(state(body(95, null)), 'PageDown', none)).toEqual(
        moveTo({ area: 'body', index: 99, col: null }),
      );
      expect(gridKeyAction(state(body(5, null)), 'PageUp', none)).toEqual(
        moveTo({ area: 'body', index: 0, col: null }),
      );
    });

    it('goes to the first/last cell of the row with Home/End, and to the first/last row from the row itself', () => {
      expect(gridKeyAction(state(body(5, 2)), 'Home', none)).toEqual(moveTo({ area: 'body', index: 5, col: 0 }));
      expect(gridKeyAction(state(body(5, 1)), 'End', none)).toEqual(moveTo({ area: 'body', index: 5, col: 3 }));
      expect(gridKeyAction(state(body(5, null)), 'Home', none)).toEqual(moveTo({ area: 'body', index: 0, col: null }));
      expect(gridKeyAction(state(body(5, null)), 'End', none)).toEqual(moveTo({ area: 'body', index: 99, col: null }));
    });

    it('goes to the first/last row in the same column with Ctrl+Home/End (Meta counts as Ctrl)', () => {
      expect(gridKeyAction(state(body(5, 2)), 'Home', ctrl)).toEqual(moveTo({ area: 'body', index: 0, col: 2 }));
      expect(gridKeyAction(state(body(5, 2)), 'End', ctrl)).toEqual(moveTo({ area: 'body', index: 99, col: 2 }));
    });

    it('walks row → cells → row with ArrowRight, backwards with ArrowLeft (focusing the last control)', () => {
      expect(gridKeyAction(state(body(5, null)), 'ArrowRight', none)).toEqual(
        moveTo({ area: 'body', index: 5, col: 0 }),
      );
      expect(gridKeyAction(state(body(5, 1)), 'ArrowRight', none)).toEqual(moveTo({ area: 'body', index: 5, col: 2 }));
      expect(gridKeyAction(state(body(5, 3)), 'ArrowRight', none)).toEqual(
        moveTo({ area: 'body', index: 5, col: null }),
      );
      expect(gridKeyAction(state(body(5, null)), 'ArrowLeft', none)).toEqual(
        moveTo({ area: 'body', index: 5, col: 3 }, 'last'),
      );
      expect(gridKeyAction(state(body(5, 2)), 'ArrowLeft', none)).toEqual(
        moveTo({ area: 'body', index: 5, col: 1 }, 'last'),
      );
      expect(gridKeyAction(state(body(5, 0)), 'ArrowLeft', none)).toEqual(
        moveTo({ area: 'body', index: 5, col: null }, 'last'),
      );
    });

    it('moves between the controls of a cell before leaving it', () => {
      const onFirst = body(5, 3, { onCell: false, control: { index: 0, count: 2 } });
      const onSecond = body(5, 3, { onCell: false, control: { index: 1, count: 2 } });
      expect(gridKeyAction(state(onFirst), 'ArrowRight', none)).toEqual({ type: 'control', index: 1 });
      expect(gridKeyAction(state(onSecond), 'ArrowLeft', none)).toEqual({ type: 'control', index: 0 });
      expect(gridKeyAction(state(onSecond), 'ArrowRight', none)).toEqual(moveTo({ area: 'body', index: 5, col: null }));
      expect(gridKeyAction(state(onFirst), 'ArrowLeft', none)).toEqual(
        moveTo({ area: 'body', index: 5, col: 2 }, 'last'),
      );
    });

    it('asks for the row action on Enter on the row or a plain cell, not on a control', () => {
      expect(gridKeyAction(state(body(5, null)), 'Enter', none)).toEqual({ type: 'row-action', index: 5 });
      expect(gridKeyAction(state(body(5, 1)), 'Enter', none)).toEqual({ type: 'row-action', index: 5 });
      const onControl = body(5, 3, { onCell: false, control: { index: 0, count: 2 } });
      expect(gridKeyAction(state(onControl), 'Enter', none)).toBeNull();
    });

    it('leaves Space and other keys to the focused element', () => {
      expect(gridKeyAction(state(body(5, 1)), ' ', none)).toBeNull();
      expect(gridKeyAction(state(body(5, 1)), 'Escape', none)).toBeNull();
      expect(gridKeyAction(state(body(5, 1)), 'a', none)).toBeNull();
    });
  });
});
