// @vitest-environment jsdom
import { act, cleanup, screen, within } from '@testing-library/react';
import { useState } from 'react';
import ptBR from '../../../i18n/pt-BR.json';
import { DataTable } from '../data-table';
import { renderUi } from '../../test-support/test-utils';
import { SelectionBar } from './selection-bar';
import { useListSelection } from './use-list-selection';

afterEach(cleanup);

const ALL = Array.from({ length: 9 }, (_, i) => ({ id: i + 1, name: `Farmácia ${i + 1}` }));
const text = (template: string, n: number) => template.replace('{{n}}', String(n));

/** A list of 9 rows, 3 a page, with the selection column and the bar, as the tenants screen wires them. */
function List({ onRun }: { onRun: (selection: unknown) => void }) {
  const [page, setPage] = useState(0);
  const [search, setSearch] = useState('');
  const rows = ALL.slice(page * 3, page * 3 + 3);
  const selection = useListSelection(
    search,
    rows.map((r) => r.id),
    ALL.length,
  );
  return (
    <>
      <button type="button" onClick={() => setPage((p) => (p + 1) % 3)}>
        next
      </button>
      <button type="button" onClick={() => setSearch('x')}>
        search
      </button>
      <SelectionBar
        count={selection.count}
        total={ALL.length}
        allMatching={selection.selection.mode === 'matching'}
        onSelectMatching={selection.selectMatching}
        onClear={selection.clear}
      >
        <button type="button" onClick={() => onRun(selection.selection)}>
          run
        </button>
      </SelectionBar>
      <DataTable
        aria-label="Farmácias"
        columns={[{ id: 'name', header: 'Nome', isRowHeader: true, cell: (r) => r.name }]}
        rows={rows}
        selectionMode="multiple"
        selectedKeys={selection.selectedKeys}
        onSelectionChange={selection.onSelectionChange}
      />
    </>
  );
}

describe('the selection column and bar', () => {
  it('labelled checkboxes by keyboard, a live count kept across pages, all matching, clear; a new search clears it', async () => {
    let ran: unknown = null;
    const { user, container } = renderUi(<List onRun={(s) => (ran = s)} />);
    const live = container.querySelector('[aria-live="polite"]');
    expect(live).not.toBeNull();
    expect(live?.textContent).toBe('');
    // Each row's checkbox is named by the row; Space ticks it.
    const first = screen.getByRole('checkbox', { name: /Farmácia 1$/ });
    act(() => first.focus());
    await user.keyboard(' ');
    expect(first).toBeChecked();
    expect(live?.textContent).toBe(text(ptBR.selection.count, 1));
    // Next page: the page's header checkbox ticks its three; the first page's stays selected.
    await user.click(screen.getByRole('button', { name: 'next' }));
    await user.click(screen.getByRole('checkbox', { name: ptBR.ui.table.selectAll }));
    expect(live?.textContent).toBe(text(ptBR.selection.count, 4));
    await user.click(screen.getByRole('button', { name: 'run' }));
    expect(ran).toEqual({ mode: 'ids', ids: new Set([1, 4, 5, 6]) });

    await user.click(screen.getByRole('button', { name: text(ptBR.selection.selectMatching_other, 9) }));
    expect(live?.textContent).toBe(text(ptBR.selection.allMatching, 9));
    expect(screen.queryByRole('button', { name: text(ptBR.selection.selectMatching_other, 9) })).toBeNull();
    for (const box of screen.getAllByRole('checkbox')) expect(box).toBeChecked();
    await user.click(screen.getByRole('button', { name: 'run' }));
    expect(ran).toEqual({ mode: 'matching' });

    await user.click(screen.getByRole('button', { name: ptBR.selection.clear }));
    expect(live?.textContent).toBe('');
    expect(screen.queryByRole('group', { name: ptBR.selection.bar })).not.toBeNull();
    expect(
      within(screen.getByRole('grid'))
        .getAllByRole('checkbox')
        .some((b) => (b as HTMLInputElement).checked),
    ).toBe(false);

    await user.click(screen.getByRole('checkbox', { name: /Farmácia 4$/ }));
    expect(live?.textContent).toBe(text(ptBR.selection.count, 1));
    await user.click(screen.getByRole('button', { name: 'search' }));
    expect(live?.textContent).toBe('');
  });
});

describe('the selection bar over a bounded count', () => {
  it.each([
    ['pt-BR', 'Selecionar os mais de 1.000 correspondentes', 'Todos os mais de 1.000 correspondentes selecionados'],
    ['en', 'Select all 1,000+ matching', 'All 1,000+ matching selected'],
  ])('says "more than" in %s, never "all 1,000"', async (language, offer, chosen) => {
    function Bar() {
      const [matching, setMatching] = useState(false);
      return (
        <SelectionBar
          count={matching ? 1000 : 2}
          total={1000}
          totalIsLowerBound
          allMatching={matching}
          onSelectMatching={() => setMatching(true)}
          onClear={() => setMatching(false)}
        />
      );
    }
    const { user } = renderUi(<Bar />, { language });
    await user.click(screen.getByRole('button', { name: offer }));
    expect(screen.getByText(chosen)).toBeInTheDocument();
  });
});
