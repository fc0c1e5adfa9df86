// @vitest-environment jsdom
import { act, fireEvent, screen, within } from '@testing-library/react';
import { useState } from 'react';
import type { SortDescriptor } from './data-table';
import type { DataTableColumn } from './data-table';
import { renderUi } from '../test-support/test-utils';
import { VirtualizedDataTable } from './virtualized-table';
import { VIEWPORT, columns, withGridViewport, users } from '../test-support/virtualized-table-fixtures';
import type { User } from '../test-support/virtualized-table-fixtures';

/** Windowing, ARIA counts, sorting and the empty state (keyboard and focus: ./virtualized-table-keyboard.test.tsx). */
withGridViewport();

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
