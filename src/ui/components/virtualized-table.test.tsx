// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { useState } from 'react';
import type { SortDescriptor } from './data-table';
import type { DataTableColumn } from './data-table';
import { renderUi } from '../test-support/test-utils';
import { VirtualizedDataTable } from './virtualized-table';

interface User {
  id: number;
  name: string;
  email: string;
}
const users: User[] = Array.from({ length: 10_000 }, (_, i) => ({
  id: i + 1,
  name: `Usuário ${i + 1}`,
  email: `user${i + 1}@demo.local`,
}));
const columns: DataTableColumn<User>[] = [
  { id: 'name', header: 'Nome', cell: (u) => u.name, isRowHeader: true },
  { id: 'email', header: 'Email', cell: (u) => u.email },
];

/** The columns plus a cell with two buttons per row (as the users list's actions). */
function actionColumns(onPress: (what: string, id: number) => void): DataTableColumn<User>[] {
  return [
    ...columns,
    {
      id: 'actions',
      header: 'Ações',
      cell: (u) => (
        <>
          <button type="button" onClick={() => onPress('edit', u.id)}>
            Editar {u.name}
          </button>
          <button type="button" onKeyDown={(e) => onPress(`key ${e.key}`, u.id)}>
            Mais {u.name}
          </button>
        </>
      ),
    },
  ];
}

/*
 * jsdom has no layout: every element is 0×0, and the grid would fall back to the window's height
 * for its viewport. Define clientWidth/clientHeight on the prototype so it measures 1000×600 px, as
 * in a browser, and mounts only the rows that fit (under a 44 px header) plus its overscan.
 */
const VIEWPORT = { width: 1000, height: 600 };
beforeAll(() => {
  Object.defineProperty(HTMLElement.prototype, 'clientWidth', { configurable: true, get: () => VIEWPORT.width });
  Object.defineProperty(HTMLElement.prototype, 'clientHeight', { configurable: true, get: () => VIEWPORT.height });
});
afterAll(() => {
  // Removing the own properties restores jsdom's Element.prototype getters.
  Reflect.deleteProperty(HTMLElement.prototype, 'clientWidth');
  Reflect.deleteProperty(HTMLElement.prototype, 'clientHeight');
});
afterEach(cleanup);

describe('VirtualizedDataTable', () => {
  it('renders 10,000 users with at most 150 row elements in the DOM', () => {
    renderUi(
      <VirtualizedDataTable
        aria-label="Usuários"
        columns={columns}
        rows={users}
        height={VIEWPORT.height}
        rowHeight={40}
      />,
    );
    const grid = screen.getByRole('grid', { name: 'Usuários' });
    const rows = within(grid).getAllByRole('row');
    // Header row + the rows in a 600 px viewport at 40 px each, plus overscan.
    expect(rows.length).toBeGreaterThan(10);
    expect(rows.length).toBeLessThanOrEqual(150);
    // The whole list is still announced: 10,000 data rows + the header row.
    expect(grid).toHaveAttribute('aria-rowcount', '10001');
    expect(screen.getByText('Usuário 1')).toBeInTheDocument();
    expect(screen.queryByText('Usuário 5000')).toBeNull();
  });

  it('renders other rows after scrolling, still within the bound', () => {
    renderUi(
      <VirtualizedDataTable
        aria-label="Usuários"
        columns={columns}
        rows={users}
        height={VIEWPORT.height}
        rowHeight={40}
      />,
    );
    const grid = screen.getByRole('grid', { name: 'Usuários' });
    act(() => {
      grid.scrollTop = 40 * 5000;
      fireEvent.scroll(grid);
    });
    expect(screen.getByText('Usuário 5001')).toBeInTheDocument();
    expect(screen.queryByText('Usuário 1')).toBeNull();
    expect(within(grid).getAllByRole('row').length).toBeLessThanOrEqual(150);
  });

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

  it('renders the rows of the window with their own aria-rowindex, and keeps the count for the whole list', () => {
    renderUi(
      <VirtualizedDataTable
        aria-label="Usuários"
        columns={columns}
        rows={users}
        height={VIEWPORT.height}
        rowHeight={40}
      />,
    );
    const grid = screen.getByRole('grid', { name: 'Usuários' });
    expect(grid).toHaveAttribute('aria-colcount', '2');
    act(() => {
      grid.scrollTop = 40 * 7000 + 15;
      fireEvent.scroll(grid);
    });
    const [header, ...body] = within(grid).getAllByRole('row');
    expect(header).toHaveAttribute('aria-rowindex', '1');
    // Row 7001 is the first in view; two rows of overscan above it.
    expect(body.map((row) => Number(row.getAttribute('aria-rowindex'))).sort((a, b) => a - b)[0]).toBe(7001 - 2 + 1);
    const row = screen.getByRole('row', { name: 'Usuário 7001' });
    expect(row).toHaveAttribute('aria-rowindex', '7002');
    expect(within(row).getByRole('rowheader')).toHaveAttribute('aria-colindex', '1');
    expect(within(row).getByRole('gridcell')).toHaveAttribute('aria-colindex', '2');
    expect(within(row).getByRole('gridcell')).toHaveTextContent('user7001@demo.local');
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

  it('sorts from the headers: aria-sort, a described sort state, toggled by click or Enter', async () => {
    const sortable: DataTableColumn<User>[] = columns.map((c) => ({ ...c, allowsSorting: true }));
    function Sorted() {
      const [sort, setSort] = useState<SortDescriptor>({ column: 'name', direction: 'ascending' });
      const rows = sort.direction === 'ascending' ? users : [...users].reverse();
      return (
        <VirtualizedDataTable
          aria-label="Usuários"
          columns={sortable}
          rows={rows}
          height={VIEWPORT.height}
          rowHeight={40}
          sortDescriptor={sort}
          onSortChange={setSort}
        />
      );
    }
    const { user } = renderUi(<Sorted />);
    const grid = screen.getByRole('grid', { name: 'Usuários' });
    const name = screen.getByRole('columnheader', { name: 'Nome' });
    expect(name).toHaveAttribute('aria-sort', 'ascending');
    expect(screen.getByRole('columnheader', { name: 'Email' })).toHaveAttribute('aria-sort', 'none');
    expect(name).toHaveAccessibleDescription('coluna classificável');
    expect(grid).toHaveAccessibleDescription('classificado pela coluna Nome em ordem crescente');
    await user.click(name);
    expect(name).toHaveAttribute('aria-sort', 'descending');
    expect(grid).toHaveAccessibleDescription('classificado pela coluna Nome em ordem decrescente');
    expect(within(grid).getAllByRole('rowheader')[0]).toHaveTextContent('Usuário 10000');
    await user.keyboard('{ArrowRight}{Enter}');
    expect(screen.getByRole('columnheader', { name: 'Email' })).toHaveAttribute('aria-sort', 'ascending');
    expect(name).toHaveAttribute('aria-sort', 'none');
  });

  it('shows the empty state in one cell spanning the columns, and leaves its controls to Tab', async () => {
    const { user } = renderUi(
      <VirtualizedDataTable
        aria-label="Usuários"
        columns={columns}
        rows={[]}
        height={VIEWPORT.height}
        emptyState={
          <button type="button" onClick={() => undefined}>
            Novo usuário
          </button>
        }
      />,
    );
    const grid = screen.getByRole('grid', { name: 'Usuários' });
    expect(grid).toHaveAttribute('aria-rowcount', '2');
    expect(within(grid).getByRole('gridcell')).toHaveAttribute('aria-colspan', '2');
    await user.tab();
    expect(grid).toHaveFocus();
    await user.tab();
    expect(screen.getByRole('button', { name: 'Novo usuário' })).toHaveFocus();
  });
});
