// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import type { DataTableColumn } from './data-table';
import { renderUi } from './test-utils';
import { VirtualizedDataTable } from './virtualized-table';

interface User {
  id: number;
  name: string;
  email: string;
}
const users: User[] = Array.from({ length: 10_000 }, (_, i) => ({ id: i + 1, name: `Usuário ${i + 1}`, email: `user${i + 1}@demo.local` }));
const columns: DataTableColumn<User>[] = [
  { id: 'name', header: 'Nome', cell: (u) => u.name, isRowHeader: true },
  { id: 'email', header: 'Email', cell: (u) => u.email },
];

/*
 * jsdom has no layout: every element is 0×0. React Aria's ScrollView treats an unmocked
 * HTMLElement.prototype.clientWidth/clientHeight in tests as an infinite viewport (and would render
 * every row), so define both on the prototype: the scroll view then measures 1000×600 px, as in a
 * browser, and the TableLayout lays out only the rows that fit plus its overscan.
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
    renderUi(<VirtualizedDataTable aria-label="Usuários" columns={columns} rows={users} height={VIEWPORT.height} rowHeight={40} />);
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
    renderUi(<VirtualizedDataTable aria-label="Usuários" columns={columns} rows={users} height={VIEWPORT.height} rowHeight={40} />);
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
    const { user } = renderUi(<VirtualizedDataTable aria-label="Usuários" columns={columns} rows={users} height={VIEWPORT.height} rowHeight={40} />);
    await user.tab();
    await user.keyboard('{ArrowDown}');
    await user.keyboard('{Control>}{End}{/Control}');
    const active = document.activeElement as HTMLElement;
    expect(active.closest('[role="row"]')).toHaveAttribute('aria-rowindex', '10001');
    expect(within(screen.getByRole('grid')).getAllByRole('row').length).toBeLessThanOrEqual(150);
  });
});
