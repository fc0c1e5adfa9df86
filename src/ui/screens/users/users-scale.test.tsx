// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import { operationOf, type SeenRequest } from '../../../machines/test-support/fake-fetch';
import { appToasts } from '../../components/toast-queue';
import { renderWithServices, type RenderedApp } from '../../test-support/render';
import { fakeUsersApi, user } from '../../test-support/fake-users-api';
import { NARROW_QUERY } from './use-narrow';
import { keys } from '../../test-support/users-user-event';
import UsersScreen from './users';

let view: RenderedApp | undefined;
afterEach(() => {
  view?.unmount();
  view = undefined;
  appToasts.clear();
  vi.unstubAllGlobals();
});

const render = (users = [user(2, { name: 'Ana Souza' }), user(3, { name: 'Bruno Alves', isConnected: true })]) => {
  view = renderWithServices(<UsersScreen />, { path: '/users', signedIn: {}, respond: fakeUsersApi(users).respond });
  return view;
};

/** The list's filters, in the order Tab reaches them after "Novo usuário" (users-filters.tsx). */
const FILTERS = ['Função', 'Departamento', 'Bloqueio', 'Presença', 'Dois fatores'];

/** Tabs through the filters, each in its turn (the stops between the toolbar and the grid). */
async function tabThroughFilters() {
  for (const name of FILTERS) {
    await keys.tab();
    expect(screen.getByRole('combobox', { name })).toHaveFocus();
  }
}

describe('UsersScreen: 10,000 users', () => {
  const many = () =>
    Array.from({ length: 10_000 }, (_, i) => user(i + 2, { name: `Usuário ${String(i + 1).padStart(5, '0')}` }));
  const pagesAsked = (requests: readonly SeenRequest[]) =>
    requests.flatMap((r) => {
      const op = operationOf(r);
      return op?.name === 'usersPage'
        ? [op.variables as { filter: { q: string | null }; page: number; limit: number }]
        : [];
    });

  it('renders one page of 100, announces the total, and searches and pages through the server', async () => {
    const { requests } = render(many());
    await screen.findByText('Usuário 00001');
    const grid = screen.getByRole('grid', { name: 'Lista de usuários' });
    // One page in the DOM: 100 rows and the header; the browser never holds the 10,000. The first
    // 20 rows come at once, the rest in a transition (src/ui/components/data-table.tsx `FIRST_ROWS`).
    await waitFor(() => expect(within(grid).getAllByRole('row')).toHaveLength(101));
    expect(screen.getByRole('status')).toHaveTextContent('10.000 usuários');
    expect(requests.some((r) => operationOf(r)?.name === 'users')).toBe(false);
    expect(pagesAsked(requests)).toEqual([expect.objectContaining({ page: 1, limit: 100 })]);
    const pager = screen.getByRole('navigation', { name: 'Paginação' });
    expect(pager).toHaveTextContent('1–100 de 10.000');
    // The last page is the server's page 100.
    await keys.click(within(pager).getByRole('button', { name: 'Última página' }));
    await waitFor(() => expect(within(grid).getAllByRole('rowheader')[0]).toHaveTextContent('Usuário 09901'));
    expect(within(grid).getAllByRole('rowheader').at(-1)).toHaveTextContent('Usuário 10000');
    expect(pagesAsked(requests).at(-1)).toMatchObject({ page: 100 });
    // A search goes back to page 1 and is asked for once typing pauses, not once per key.
    const before = pagesAsked(requests).length;
    await keys.type(screen.getByRole('searchbox'), '09999');
    await waitFor(() =>
      expect(
        within(grid)
          .getAllByRole('rowheader')
          .map((c) => c.textContent),
      ).toEqual(['Usuário 09999']),
    );
    expect(screen.getByRole('status')).toHaveTextContent('1 usuário');
    const typed = pagesAsked(requests).slice(before);
    expect(typed.at(-1)).toMatchObject({ filter: { q: '09999' }, page: 1 });
    expect(typed.length).toBeLessThan(5);
    // One page: no pager.
    expect(screen.queryByRole('navigation', { name: 'Paginação' })).toBeNull();
  });

  it('reaches the last row of the page by keys, opens its menu, and focus comes back from it', async () => {
    render(many());
    await screen.findByText('Usuário 00001');
    const grid = screen.getByRole('grid', { name: 'Lista de usuários' });
    await keys.click(screen.getByRole('searchbox'));
    await keys.tab();
    expect(screen.getByRole('button', { name: 'Exportar CSV' })).toHaveFocus();
    await keys.tab();
    expect(screen.getByRole('button', { name: 'Novo usuário' })).toHaveFocus();
    await tabThroughFilters();
    // Then the saved views and the column chooser above the table.
    await keys.tab();
    expect(screen.getByRole('button', { name: 'Visões' })).toHaveFocus();
    await keys.tab();
    expect(screen.getByRole('button', { name: 'Colunas' })).toHaveFocus();
    await keys.tab();
    expect(grid).toContainElement(document.activeElement as HTMLElement);
    await keys.keyboard('{Control>}{End}{/Control}');
    const last = within(grid).getByRole('row', { name: /Usuário 00100/ });
    expect(last).toHaveAttribute('aria-rowindex', '101');
    expect(last).toContainElement(document.activeElement as HTMLElement);
    // Along the row to its last control, the menu button.
    const more = within(last).getByRole('button', { name: 'Ações de Usuário 00100' });
    for (let i = 0; i < 12 && document.activeElement !== more; i += 1) await keys.keyboard('{ArrowRight}');
    expect(more).toHaveFocus();
    await keys.keyboard('{Enter}');
    const menu = await screen.findByRole('menu', { name: 'Ações de Usuário 00100' });
    await waitFor(() => expect(within(menu).getAllByRole('menuitem')[0]).toHaveFocus());
    await keys.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('menu')).toBeNull());
    await waitFor(() => expect(more).toHaveFocus());
  });
});

describe('UsersScreen: narrow screens', () => {
  it('collapses the actions into one menu per row, right after the name', async () => {
    vi.stubGlobal('matchMedia', (query: string) => ({
      matches: query === NARROW_QUERY,
      media: query,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
    }));
    render();
    const row = await screen.findByRole('row', { name: /Ana Souza/ });
    expect(within(row).queryByRole('button', { name: 'Editar Ana Souza' })).toBeNull();
    const headers = screen.getAllByRole('columnheader').map((h) => h.textContent);
    // The selection's checkbox column comes first (its header is the page's checkbox, named by its label).
    expect(headers.slice(0, 4)).toEqual(['', 'Nome', 'Ações', 'Presença']);
    await keys.click(within(row).getByRole('button', { name: 'Ações de Ana Souza' }));
    await keys.click(await screen.findByRole('menuitem', { name: 'Editar' }));
    expect(await screen.findByRole('dialog', { name: 'Editar Ana Souza' })).toBeInTheDocument();
  });
});

describe('UsersScreen: keyboard alone', () => {
  it('reaches search, create and a row menu by keys, and focus comes back when dialogs close', async () => {
    render();
    await screen.findByRole('row', { name: /Ana Souza/ });
    await keys.tab();
    expect(screen.getByRole('searchbox')).toHaveFocus();
    await keys.tab();
    expect(screen.getByRole('button', { name: 'Exportar CSV' })).toHaveFocus();
    await keys.tab();
    const create = screen.getByRole('button', { name: 'Novo usuário' });
    expect(create).toHaveFocus();
    await keys.keyboard('{Enter}');
    const dialog = await screen.findByRole('dialog', { name: 'Novo usuário' });
    await within(dialog).findByRole('textbox', { name: 'Nome' });
    await keys.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    // React Aria gives the focus back in the animation frame after the dialog unmounts (FocusScope's
    // restoreFocus): between the two it is on the body, which a loaded box can catch.
    await waitFor(() => expect(create).toHaveFocus());
    await tabThroughFilters();
    // Past the saved views and the column chooser, into the grid: Tab lands on a cell, arrows walk to the
    // row's menu button.
    await keys.tab();
    expect(screen.getByRole('button', { name: 'Visões' })).toHaveFocus();
    await keys.tab();
    expect(screen.getByRole('button', { name: 'Colunas' })).toHaveFocus();
    await keys.tab();
    const more = within(screen.getByRole('row', { name: /Ana Souza/ })).getByRole('button', {
      name: 'Ações de Ana Souza',
    });
    for (let i = 0; i < 12 && document.activeElement !== more; i += 1)
      await keys.keyboard(
        document.activeElement?.getAttribute('role') === 'columnheader' ? '{ArrowDown}' : '{ArrowRight}',
      );
    expect(more).toHaveFocus();
    await keys.keyboard('{Enter}');
    const menu = await screen.findByRole('menu');
    expect(within(menu).getAllByRole('menuitem')[0]).toHaveFocus();
    await keys.keyboard('{ArrowDown}{Enter}');
    const email = await screen.findByRole('dialog', { name: 'Alterar e-mail de Ana Souza' });
    expect(within(email).getByRole('textbox', { name: 'Novo e-mail' })).toHaveFocus();
    await keys.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(more).toHaveFocus());
  });
});
