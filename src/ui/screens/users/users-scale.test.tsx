// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import { appToasts } from '../../components/toast-queue';
import { renderWithServices, type RenderedApp } from '../../test-support/render';
import { fakeUsersApi, user } from '../../test-support/fake-users-api';
import { NARROW_QUERY } from './use-narrow';
import { keys } from '../../test-support/users-user-event';
import UsersScreen from './users';

/*
 * jsdom has no layout; the windowed grid would fall back to the window's height. Give elements a
 * 1000×600 box, as virtualized-table.test.tsx does, so only the rows in that view render.
 */
beforeAll(() => {
  Object.defineProperty(HTMLElement.prototype, 'clientWidth', { configurable: true, get: () => 1000 });
  Object.defineProperty(HTMLElement.prototype, 'clientHeight', { configurable: true, get: () => 600 });
});
afterAll(() => {
  Reflect.deleteProperty(HTMLElement.prototype, 'clientWidth');
  Reflect.deleteProperty(HTMLElement.prototype, 'clientHeight');
});

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
const FILTERS = ['Perfil', 'Departamento', 'Bloqueio', 'Presença', 'Dois fatores'];

/** Tabs through the filters, each in its turn (the stops between the toolbar and the grid). */
async function tabThroughFilters() {
  for (const name of FILTERS) {
    await keys.tab();
    expect(screen.getByRole('combobox', { name })).toHaveFocus();
  }
}

describe('UsersScreen: 10,000 users', () => {
  it('keeps at most 150 rows in the DOM, announces the full count, and searches the whole list', async () => {
    const many = Array.from({ length: 10_000 }, (_, i) =>
      user(i + 2, { name: `Usuário ${String(i + 1).padStart(5, '0')}` }),
    );
    render(many);
    // The loading table is the plain one; the list swaps it for the virtualized one.
    await screen.findByText('Usuário 00001', undefined, { timeout: 60_000 });
    const grid = screen.getByRole('grid', { name: 'Lista de usuários' });
    expect(grid).toHaveAttribute('aria-rowcount', '10001');
    expect(within(grid).getAllByRole('row').length).toBeLessThanOrEqual(150);
    expect(screen.getByRole('status')).toHaveTextContent('Mostrando 10.000 de 10.000');
    // Typed: each keystroke filters the 10,000 and renders only the rows in view.
    await keys.type(screen.getByRole('searchbox'), '09999');
    await waitFor(
      () =>
        expect(
          within(grid)
            .getAllByRole('rowheader')
            .map((c) => c.textContent),
        ).toEqual(['Usuário 09999']),
      { timeout: 60_000 },
    );
    expect(screen.getByRole('status')).toHaveTextContent('Mostrando 1 de 10.000');
    // A ceiling, not a budget (bench/ holds those): generous for a loaded 2-core box.
  }, 120_000);

  it('reaches the last of 10,000 users by keys, opens its menu, and focus comes back from it', async () => {
    const many = Array.from({ length: 10_000 }, (_, i) =>
      user(i + 2, { name: `Usuário ${String(i + 1).padStart(5, '0')}` }),
    );
    render(many);
    await screen.findByText('Usuário 00001', undefined, { timeout: 60_000 });
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
    expect(document.activeElement).toBe(within(grid).getByRole('row', { name: 'Usuário 00001' }));
    await keys.keyboard('{Control>}{End}{/Control}');
    const last = within(grid).getByRole('row', { name: 'Usuário 10000' });
    expect(last).toHaveFocus();
    expect(last).toHaveAttribute('aria-rowindex', '10001');
    // Left of a row is its last cell, the actions: its last control, the menu button.
    await keys.keyboard('{ArrowLeft}');
    const more = within(last).getByRole('button', { name: 'Ações de Usuário 10000' });
    expect(more).toHaveFocus();
    await keys.keyboard('{Enter}');
    const menu = await screen.findByRole('menu', { name: 'Ações de Usuário 10000' });
    await waitFor(() => expect(within(menu).getAllByRole('menuitem')[0]).toHaveFocus());
    await keys.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('menu')).toBeNull());
    await waitFor(() => expect(more).toHaveFocus());
    expect(within(grid).getAllByRole('row').length).toBeLessThanOrEqual(150);
  }, 120_000);
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
    const email = await screen.findByRole('dialog', { name: 'Alterar email de Ana Souza' });
    expect(within(email).getByRole('textbox', { name: 'Novo email' })).toHaveFocus();
    await keys.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(more).toHaveFocus());
  });
});
