// @vitest-environment jsdom
import { act, fireEvent, screen, within } from '@testing-library/react';
import { renderUi } from '../test-support/test-utils';
import { VirtualizedDataTable } from './virtualized-table';
import { VIEWPORT, actionColumns, columns, withGridViewport, users } from '../test-support/virtualized-table-fixtures';

/** Keyboard and focus in the windowed grid (the keyboard model itself: ./grid-keyboard.test.ts). */
withGridViewport();

describe('VirtualizedDataTable keyboard and focus', () => {
  it('keeps keyboard navigation: End on a row jumps to the last of the 10,000', async () => {
    const { user } = renderUi(
      <VirtualizedDataTable
        aria-label="Usuários"
        columns={columns}
        rows={users}
        height={VIEWPORT.height}
        rowHeight={40}
      />,
    );
    await user.tab();
    await user.keyboard('{ArrowDown}');
    await user.keyboard('{Control>}{End}{/Control}');
    const active = document.activeElement as HTMLElement;
    expect(active.closest('[role="row"]')).toHaveAttribute('aria-rowindex', '10001');
    expect(within(screen.getByRole('grid')).getAllByRole('row').length).toBeLessThanOrEqual(150);
  });

  it('moves between rows, cells and headers with the keyboard, RAC-style', async () => {
    const { user } = renderUi(
      <VirtualizedDataTable
        aria-label="Usuários"
        columns={columns}
        rows={users}
        height={VIEWPORT.height}
        rowHeight={40}
      />,
    );
    const grid = screen.getByRole('grid', { name: 'Usuários' });
    expect(grid).toHaveAttribute('tabindex', '0');
    await user.tab();
    // Tabbing in lands on the first row; the grid is no longer a tab stop, the row is.
    expect(document.activeElement).toBe(screen.getByRole('row', { name: 'Usuário 1' }));
    expect(grid).toHaveAttribute('tabindex', '-1');
    await user.keyboard('{ArrowDown}');
    expect(document.activeElement).toBe(screen.getByRole('row', { name: 'Usuário 2' }));
    await user.keyboard('{ArrowRight}');
    expect(document.activeElement).toHaveTextContent('Usuário 2');
    expect(document.activeElement).toHaveAttribute('role', 'rowheader');
    await user.keyboard('{End}');
    expect(document.activeElement).toHaveTextContent('user2@demo.local');
    await user.keyboard('{Home}');
    expect(document.activeElement).toHaveAttribute('role', 'rowheader');
    // Left of the first cell is the row; left of the row its last cell.
    await user.keyboard('{ArrowLeft}');
    expect(document.activeElement).toBe(screen.getByRole('row', { name: 'Usuário 2' }));
    await user.keyboard('{ArrowLeft}');
    expect(document.activeElement).toHaveTextContent('user2@demo.local');
    // Up from the first row's cell: its column header; then along the headers and back down.
    await user.keyboard('{ArrowUp}{ArrowUp}');
    expect(document.activeElement).toBe(screen.getByRole('columnheader', { name: 'Email' }));
    await user.keyboard('{ArrowLeft}');
    expect(document.activeElement).toBe(screen.getByRole('columnheader', { name: 'Nome' }));
    await user.keyboard('{ArrowDown}');
    expect(document.activeElement).toHaveTextContent('Usuário 1');
    // A page is the rows that fit under the header: (600 − 44) / 40 = 13.
    await user.keyboard('{PageDown}');
    expect(document.activeElement).toHaveTextContent('Usuário 14');
    expect(document.activeElement?.closest('[role=row]')).toHaveAttribute('aria-rowindex', '15');
    await user.keyboard('{PageUp}');
    expect(document.activeElement).toHaveTextContent('Usuário 1');
    // Ctrl+End: the last row, same column; it was scrolled into view and mounted.
    await user.keyboard('{Control>}{End}{/Control}');
    expect(document.activeElement).toHaveTextContent('Usuário 10000');
    expect(grid.scrollTop).toBe(10_000 * 40 - (600 - 44));
    expect(within(grid).getAllByRole('row').length).toBeLessThanOrEqual(150);
    await user.keyboard('{Control>}{Home}{/Control}');
    expect(document.activeElement).toHaveTextContent('Usuário 1');
    expect(grid.scrollTop).toBe(0);
  });

  it('keeps the focused row mounted while it is scrolled away, and Tab leaves the grid and comes back to it', async () => {
    const { user } = renderUi(
      <>
        <button type="button">Antes</button>
        <VirtualizedDataTable
          aria-label="Usuários"
          columns={actionColumns(() => undefined)}
          rows={users}
          height={VIEWPORT.height}
          rowHeight={40}
        />
        <button type="button">Depois</button>
      </>,
    );
    const grid = screen.getByRole('grid', { name: 'Usuários' });
    await user.tab();
    await user.tab();
    await user.keyboard('{ArrowDown}{ArrowDown}{ArrowRight}');
    const cell = document.activeElement as HTMLElement;
    expect(cell).toHaveTextContent('Usuário 3');
    act(() => {
      grid.scrollTop = 40 * 5000;
      fireEvent.scroll(grid);
    });
    expect(screen.getByText('Usuário 5001')).toBeInTheDocument();
    expect(cell).toBeInTheDocument();
    expect(cell).toHaveFocus();
    expect(within(grid).getAllByRole('row').length).toBeLessThanOrEqual(150);
    // The rows' buttons are tabbable, yet Tab leaves the grid: it is one tab stop.
    await user.tab();
    expect(screen.getByRole('button', { name: 'Depois' })).toHaveFocus();
    await user.tab({ shift: true });
    expect(cell).toHaveFocus();
    await user.tab({ shift: true });
    expect(screen.getByRole('button', { name: 'Antes' })).toHaveFocus();
  });

  it('lets a click reach a control of any row, and the clicked row becomes the tab stop', async () => {
    const onPress = vi.fn();
    const { user } = renderUi(
      <>
        <button type="button">Antes</button>
        <VirtualizedDataTable
          aria-label="Usuários"
          columns={actionColumns(onPress)}
          rows={users}
          height={VIEWPORT.height}
          rowHeight={40}
        />
      </>,
    );
    const grid = screen.getByRole('grid', { name: 'Usuários' });
    await user.tab();
    await user.tab();
    await user.keyboard('{ArrowDown}');
    act(() => {
      grid.scrollTop = 40 * 10;
      fireEvent.scroll(grid);
    });
    // Rows 11–20 are in view; row 2 (the tab stop) is still mounted above them.
    for (const id of [12, 13, 20]) {
      // From outside the grid too: a click is not a Tab back to the remembered row.
      if (id === 20) await user.click(screen.getByRole('button', { name: 'Antes' }));
      const edit = screen.getByRole('button', { name: `Editar Usuário ${id}` });
      await user.click(edit);
      expect(onPress).toHaveBeenLastCalledWith('edit', id);
      expect(edit).toHaveFocus();
      expect(edit.closest('[role=gridcell]')).toHaveAttribute('tabindex', '0');
    }
    expect(screen.queryByRole('row', { name: 'Usuário 2' })).toBeNull();
  });

  it('walks the controls of a cell with the arrows; Up/Down move rows instead of reaching the controls', async () => {
    const onPress = vi.fn();
    const withActions = actionColumns(onPress);
    const { user } = renderUi(
      <VirtualizedDataTable
        aria-label="Usuários"
        columns={withActions}
        rows={users}
        height={VIEWPORT.height}
        rowHeight={40}
      />,
    );
    await user.tab();
    await user.keyboard('{ArrowLeft}');
    // Into the last cell: its last control (coming from the right, as RAC does).
    expect(screen.getByRole('button', { name: 'Mais Usuário 1' })).toHaveFocus();
    await user.keyboard('{ArrowLeft}');
    expect(screen.getByRole('button', { name: 'Editar Usuário 1' })).toHaveFocus();
    await user.keyboard('{ArrowDown}');
    expect(screen.getByRole('button', { name: 'Editar Usuário 2' })).toHaveFocus();
    expect(onPress).not.toHaveBeenCalled();
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('button', { name: 'Mais Usuário 2' })).toHaveFocus();
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('row', { name: 'Usuário 2' })).toHaveFocus();
    await user.keyboard('{ArrowLeft}{ArrowLeft}{Enter}');
    expect(onPress).toHaveBeenCalledWith('edit', 2);
  });
});
