// @vitest-environment jsdom
import { cleanup, screen, within } from '@testing-library/react';
import { useState } from 'react';
import type { SortDescriptor } from './data-table';
import ptBR from '../../i18n/pt-BR.json';
import { DataTable, type DataTableColumn } from './data-table';
import { ErrorState } from './error-state';
import { renderUi } from '../test-support/test-utils';
import * as tableStyles from './table.css';

afterEach(cleanup);

interface Tenant {
  id: number;
  name: string;
  userLimit: number;
}
const tenants: Tenant[] = [
  { id: 1, name: 'Backoffice', userLimit: 50 },
  { id: 2, name: 'Farmácia Sol', userLimit: 10 },
  { id: 3, name: 'Drogaria Lua', userLimit: 25 },
];
const columns: DataTableColumn<Tenant>[] = [
  { id: 'name', header: 'Nome', cell: (t) => t.name, isRowHeader: true, allowsSorting: true },
  { id: 'userLimit', header: 'Limite de usuários', cell: (t) => t.userLimit, allowsSorting: true, align: 'end' },
];

function SortedTable() {
  const [sort, setSort] = useState<SortDescriptor>({ column: 'name', direction: 'ascending' });
  const rows = [...tenants].sort((a, b) => {
    const key = sort.column as keyof Tenant;
    const order = String(a[key]).localeCompare(String(b[key]), 'pt-BR', { numeric: true });
    return sort.direction === 'ascending' ? order : -order;
  });
  return <DataTable aria-label="Tenants" columns={columns} rows={rows} sortDescriptor={sort} onSortChange={setSort} />;
}

function bodyNames(): string[] {
  const rows = screen.getAllByRole('row').slice(1);
  return rows.map((row) => within(row).getAllByRole('rowheader')[0]?.textContent ?? '');
}

describe('DataTable', () => {
  it('is a named grid with column headers, row headers and aria-sort', () => {
    renderUi(<SortedTable />);
    const grid = screen.getByRole('grid', { name: 'Tenants' });
    const headers = within(grid).getAllByRole('columnheader');
    expect(headers.map((h) => h.textContent)).toEqual(['Nome', 'Limite de usuários']);
    expect(headers[0]).toHaveAttribute('aria-sort', 'ascending');
    expect(headers[1]).toHaveAttribute('aria-sort', 'none');
    expect(bodyNames()).toEqual(['Backoffice', 'Drogaria Lua', 'Farmácia Sol']);
  });

  it('sorts by clicking a header and by Enter on a focused header', async () => {
    const { user } = renderUi(<SortedTable />);
    const [nameHeader, limitHeader] = screen.getAllByRole('columnheader') as [HTMLElement, HTMLElement];
    await user.click(nameHeader);
    expect(nameHeader).toHaveAttribute('aria-sort', 'descending');
    expect(bodyNames()).toEqual(['Farmácia Sol', 'Drogaria Lua', 'Backoffice']);
    limitHeader.focus();
    await user.keyboard('{Enter}');
    expect(limitHeader).toHaveAttribute('aria-sort', 'ascending');
    expect(bodyNames()).toEqual(['Farmácia Sol', 'Drogaria Lua', 'Backoffice']);
  });

  it('moves between cells with arrow keys', async () => {
    const { user } = renderUi(<SortedTable />);
    await user.tab();
    await user.keyboard('{ArrowDown}');
    const focused = document.activeElement as HTMLElement;
    expect(focused.getAttribute('role')).toMatch(/row|rowheader|gridcell/);
    await user.keyboard('{ArrowDown}');
    expect(document.activeElement).not.toBe(focused);
    expect(screen.getByRole('grid')).toContainElement(document.activeElement as HTMLElement);
  });

  it('selects rows with checkboxes, including select-all', async () => {
    const onSelectionChange = vi.fn();
    const { user } = renderUi(
      <DataTable
        aria-label="Tenants"
        columns={columns}
        rows={tenants}
        selectionMode="multiple"
        onSelectionChange={onSelectionChange}
      />,
    );
    const checkboxes = screen.getAllByRole('checkbox');
    expect(checkboxes).toHaveLength(4);
    await user.click(checkboxes[2] as HTMLElement);
    expect([...(onSelectionChange.mock.calls.at(-1)?.[0] as Set<number>)]).toEqual([2]);
    await user.click(checkboxes[0] as HTMLElement);
    expect(onSelectionChange.mock.calls.at(-1)?.[0]).toBe('all');
  });

  it('shows the loading, empty and error slots', () => {
    const { rerender } = renderUi(<DataTable aria-label="Tenants" columns={columns} rows={[]} status="loading" />);
    expect(screen.getByRole('progressbar', { name: ptBR.ui.table.loading })).toBeInTheDocument();

    rerender(<DataTable aria-label="Tenants" columns={columns} rows={[]} />);
    expect(screen.getByText(ptBR.common.empty)).toBeInTheDocument();

    rerender(
      <DataTable
        aria-label="Tenants"
        columns={columns}
        rows={tenants}
        status="error"
        errorState={<ErrorState onRetry={() => undefined} />}
      />,
    );
    expect(screen.getByRole('alert')).toHaveTextContent(ptBR.common.error);
    expect(screen.queryByText('Backoffice')).toBeNull();
  });

  it('keeps rows visible and marks the region busy while reloading', () => {
    const { container } = renderUi(
      <DataTable aria-label="Tenants" columns={columns} rows={tenants} status="loading" />,
    );
    expect(container.querySelector('[aria-busy="true"]')).toContainElement(screen.getByRole('grid'));
    expect(screen.getByText('Backoffice')).toBeInTheDocument();
  });
});

describe('DataTable rendering', () => {
  const many: Tenant[] = Array.from({ length: 60 }, (_, i) => ({ id: i + 1, name: `Tenant ${i + 1}`, userLimit: i }));

  it('renders a row again only when its own row, focus or selection changes, not on a parent render', async () => {
    const rendered: number[] = [];
    const counted: DataTableColumn<Tenant>[] = [
      {
        id: 'name',
        header: 'Nome',
        isRowHeader: true,
        cell: (row) => {
          rendered.push(row.id);
          return row.name;
        },
      },
    ];
    function Parent() {
      const [, setTick] = useState(0);
      return (
        <>
          <button type="button" onClick={() => setTick((n) => n + 1)}>
            Outra resposta
          </button>
          <DataTable aria-label="Tenants" columns={counted} rows={tenants} selectionMode="multiple" />
        </>
      );
    }
    const { user } = renderUi(<Parent />);
    expect(new Set(rendered)).toEqual(new Set([1, 2, 3]));
    rendered.length = 0;
    await user.click(screen.getByRole('button', { name: 'Outra resposta' }));
    expect(rendered).toEqual([]);
    // Ticking a row (it takes the focus, then the tick) renders that row and no other.
    await user.click(within(screen.getByRole('row', { name: 'Drogaria Lua' })).getByRole('checkbox'));
    expect(new Set(rendered)).toEqual(new Set([3]));
    expect(within(screen.getByRole('row', { name: 'Drogaria Lua' })).getByRole('checkbox')).toBeChecked();
  });

  it('paints the first 20 rows of a page arriving in an empty table before rendering the rest', () => {
    // What the DOM held when each row was rendered: the 21st comes after the first 20 were committed.
    const seen = new Map<number, number>();
    const probed: DataTableColumn<Tenant>[] = [
      {
        id: 'name',
        header: 'Nome',
        isRowHeader: true,
        cell: (row) => {
          if (!seen.has(row.id)) seen.set(row.id, document.querySelectorAll('tbody tr[aria-rowindex]').length);
          return row.name;
        },
      },
    ];
    const { rerender } = renderUi(<DataTable aria-label="Tenants" columns={probed} rows={[]} status="loading" />);
    rerender(<DataTable aria-label="Tenants" columns={probed} rows={many} />);
    const grid = screen.getByRole('grid', { name: 'Tenants' });
    expect(grid).toHaveAttribute('aria-rowcount', '61');
    expect(within(grid).getAllByRole('row')).toHaveLength(61);
    expect(seen.get(1)).toBe(1); // the loading row
    expect(seen.get(20)).toBe(1);
    expect(seen.get(21)).toBe(20);
    expect(seen.get(60)).toBe(20);
    expect(within(grid).getAllByRole('row').at(-1)).toHaveAttribute('aria-rowindex', '61');
  });

  it('replaces rows already shown in one render (a new page does not shrink the table first)', () => {
    const seen = new Map<number, number>();
    const probed: DataTableColumn<Tenant>[] = [
      {
        id: 'name',
        header: 'Nome',
        isRowHeader: true,
        cell: (row) => {
          if (!seen.has(row.id)) seen.set(row.id, document.querySelectorAll('tbody tr[aria-rowindex]').length);
          return row.name;
        },
      },
    ];
    const { rerender } = renderUi(<DataTable aria-label="Tenants" columns={probed} rows={many.slice(0, 30)} />);
    seen.clear();
    rerender(<DataTable aria-label="Tenants" columns={probed} rows={many.slice(30)} />);
    expect(seen.get(31)).toBe(30);
    expect(seen.get(60)).toBe(30);
    expect(screen.getAllByRole('row')).toHaveLength(31);
  });
});

describe('DataTable select-all state', () => {
  it('shows the header checkbox as mixed while only some rows are selected', () => {
    renderUi(
      <DataTable
        aria-label="Tenants"
        columns={columns}
        rows={tenants}
        selectionMode="multiple"
        defaultSelectedKeys={[2]}
      />,
    );
    const [selectAll] = screen.getAllByRole('checkbox') as [HTMLInputElement];
    expect(selectAll.indeterminate).toBe(true);
    expect(selectAll).not.toBeChecked();
  });

  describe('on a phone (cards below table.css.ts CARD_BREAKPOINT)', () => {
    interface Department {
      id: number;
      name: string;
      status: string;
    }
    const departmentColumns = (onRename: (name: string) => void): DataTableColumn<Department>[] => [
      { id: 'name', header: 'Nome', isRowHeader: true, cell: (d) => d.name },
      { id: 'status', header: 'Situação', cell: (d) => d.status },
      {
        id: 'actions',
        header: 'Ações',
        align: 'end',
        cell: (d) => (
          <button type="button" onClick={() => onRename(d.name)}>
            Renomear {d.name}
          </button>
        ),
      },
    ];
    const departments: Department[] = [
      { id: 1, name: 'Suporte', status: 'Ativo' },
      { id: 2, name: 'Vendas', status: 'Inativo' },
    ];

    it('stacks rows as cards by default: each value cell names its column, the actions cell ends the card', () => {
      renderUi(<DataTable aria-label="Departamentos" columns={departmentColumns(() => {})} rows={departments} />);
      const grid = screen.getByRole('grid', { name: 'Departamentos' });
      expect(grid.parentElement).toHaveClass(tableStyles.cardRows);
      const row = screen.getByRole('row', { name: 'Vendas' });
      expect(within(row).getByRole('rowheader')).not.toHaveAttribute('data-label');
      expect(within(row).getByRole('gridcell', { name: 'Inativo' })).toHaveAttribute('data-label', 'Situação');
      const actions = within(row).getByRole('button', { name: 'Renomear Vendas' }).closest('[role=gridcell]');
      expect(actions).toHaveAttribute('data-actions', '');
      expect(actions).not.toHaveAttribute('data-label');
    });

    it('keeps every row action rendered and reachable in the card layout', async () => {
      const renamed: string[] = [];
      const { user } = renderUi(
        <DataTable aria-label="Departamentos" columns={departmentColumns((n) => renamed.push(n))} rows={departments} />,
      );
      for (const d of departments) {
        const row = screen.getByRole('row', { name: d.name });
        await user.click(within(row).getByRole('button', { name: `Renomear ${d.name}` }));
      }
      expect(renamed).toEqual(['Suporte', 'Vendas']);
    });

    it('keeps a scrolling table (with the scroll cue) where a screen asks for it', () => {
      renderUi(
        <DataTable
          aria-label="Planilha"
          narrowLayout="scroll"
          columns={departmentColumns(() => {})}
          rows={departments}
        />,
      );
      const wrapper = screen.getByRole('grid', { name: 'Planilha' }).parentElement;
      expect(wrapper).not.toHaveClass(tableStyles.cardRows);
      expect(wrapper).toHaveClass(tableStyles.scrollCue);
    });
  });
});
