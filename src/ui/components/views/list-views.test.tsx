// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import type { SavedView } from '../../../domain/views';
import { deferred, flush, json, operationOf, type SeenRequest } from '../../../machines/test-support/fake-fetch';
import { selectHiddenColumns } from '../../../machines/preferences/preferences.machine';
import UsersScreen from '../../screens/users/users';
import { fakeUsersApi, user } from '../../test-support/fake-users-api';
import { renderWithServices, type RenderedApp } from '../../test-support/render';
import { keys } from '../../test-support/users-user-event';
import { appToasts } from '../toast-queue';

// The "Visões" menu and the column chooser on the users list, over the real services and a scripted
// server: the default view opens with a bare address, a chosen view puts its query in the address and
// hides its columns, the chooser hides a column (kept in the preferences without a view), and
// "Salvar visão atual…" sends the list as it is.

let view: RenderedApp | undefined;
afterEach(() => {
  view?.unmount();
  view = undefined;
  appToasts.clear();
});

const saved = (id: number, name: string, query: string, columns: string[], isDefault = false): SavedView => ({
  id,
  list: 'users',
  name,
  state: { query, columns },
  is_default: isDefault,
  created_at: '2026-11-27T12:00:00.000Z',
  updated_at: '2026-11-27T12:00:00.000Z',
});

/** `viewsAnswered`: the views are answered once it resolves (a slow `GET /api/views`). */
function render(
  views: readonly SavedView[] | 'failing',
  path = '/users',
  viewsAnswered: Promise<void> = Promise.resolve(),
) {
  const api = fakeUsersApi([
    user(2, { name: 'Ana Souza', email: 'ana@demo.local' }),
    user(3, { name: 'João Lima', email: 'joao@demo.local' }),
  ]);
  const posted: SeenRequest[] = [];
  view = renderWithServices(<UsersScreen />, {
    path,
    signedIn: {},
    respond: (request) => {
      if (request.path === '/api/views' && request.method === 'GET')
        return viewsAnswered.then(() =>
          views === 'failing' ? json(503, { message: 'unavailable' }) : json(200, { data: views }),
        );
      if (request.path === '/api/views' && request.method === 'POST') {
        posted.push(request);
        const body = request.body as { name: string; state: SavedView['state']; is_default: boolean };
        return json(201, saved(90, body.name, body.state.query, body.state.columns, body.is_default));
      }
      return api.respond(request);
    },
  });
  return { posted };
}

/** The `usersPage` variables asked for, in order. */
const pagesAsked = () =>
  (view?.requests ?? []).flatMap((r) => {
    const op = operationOf(r);
    return op?.name === 'usersPage' ? [op.variables] : [];
  });

const headers = () =>
  within(screen.getByRole('grid', { name: 'Lista de usuários' }))
    .getAllByRole('columnheader')
    .map((h) => h.textContent);

describe('saved views on the users list', () => {
  it('opens the default view when the address has no query: its query in the address, its columns hidden', async () => {
    render([
      saved(1, 'Por e-mail', 'sort=email&dir=desc', ['department', 'presence'], true),
      saved(2, 'Todos', '', []),
    ]);
    await waitFor(() => expect(view?.location()).toBe('/users?sort=email&dir=desc'));
    await screen.findByRole('row', { name: /Ana Souza/ });
    await waitFor(() => expect(headers()).not.toContain('Departamento'));
    expect(headers()).not.toContain('Presença');
    expect(screen.getByRole('button', { name: 'Visões: Por e-mail' })).toBeInTheDocument();
  });

  it("a bare address asks for no page until the views are known, then for the default view's page only", async () => {
    const views = deferred<void>();
    render([saved(1, 'Os Lima por e-mail', 'q=lima&sort=email&dir=desc', [], true)], '/users', views.promise);
    await flush();
    expect(pagesAsked()).toEqual([]);
    expect(screen.getByRole('progressbar', { name: 'Carregando registros…' })).toBeInTheDocument();
    views.resolve();
    await waitFor(() => expect(view?.location()).toBe('/users?q=lima&sort=email&dir=desc'));
    await screen.findByRole('row', { name: /João Lima/ });
    expect(screen.queryByRole('row', { name: /Ana Souza/ })).toBeNull();
    await flush();
    // One page asked for, the view's: never the list by name first.
    expect(pagesAsked()).toEqual([
      expect.objectContaining({
        filter: expect.objectContaining({ q: 'lima' }),
        sort: { field: 'email', direction: 'desc' },
      }),
    ]);
  });

  it('a bare address without a default view, or with the views failing, asks for the first page by name once', async () => {
    for (const views of [[saved(1, 'Por e-mail', 'sort=email&dir=desc', [])], 'failing'] as const) {
      render(views);
      await screen.findByRole('row', { name: /Ana Souza/ });
      await flush();
      expect(pagesAsked(), JSON.stringify(views)).toEqual([
        expect.objectContaining({ sort: { field: 'name', direction: 'asc' }, page: 1 }),
      ]);
      expect(view?.location()).toBe('/users');
      view?.unmount();
      view = undefined;
    }
  });

  it('leaves a linked address alone, and applies a view chosen from the menu by keyboard', async () => {
    render([saved(1, 'Por e-mail', 'sort=email&dir=desc', ['role'], true)], '/users?q=ana');
    await screen.findByRole('row', { name: /Ana Souza/ });
    expect(view?.location()).toBe('/users?q=ana');
    expect(headers()).toContain('Função');
    screen.getByRole('button', { name: 'Visões' }).focus();
    await keys.keyboard('{Enter}');
    const menu = await screen.findByRole('menu', { name: 'Visões salvas desta lista' });
    expect(within(menu).getByRole('menuitem', { name: 'Por e-mail (padrão)' })).toHaveFocus();
    await keys.keyboard('{Enter}');
    await waitFor(() => expect(view?.location()).toBe('/users?sort=email&dir=desc'));
    await waitFor(() => expect(headers()).not.toContain('Função'));
  });

  it('hides a column from the chooser (kept in the preferences without a view); name and actions cannot be', async () => {
    render([], '/users?q=');
    await screen.findByRole('row', { name: /Ana Souza/ });
    await keys.click(screen.getByRole('button', { name: 'Colunas' }));
    const chooser = await screen.findByRole('dialog', { name: 'Colunas visíveis' });
    expect(within(chooser).getByRole('checkbox', { name: 'Nome (sempre visível)' })).toBeDisabled();
    expect(within(chooser).getByRole('checkbox', { name: 'Ações (sempre visível)' })).toBeDisabled();
    await keys.click(within(chooser).getByRole('checkbox', { name: 'E-mail' }));
    await waitFor(() => expect(headers()).not.toContain('E-mail'));
    expect(selectHiddenColumns(view!.services.preferences.getSnapshot(), 'users')).toEqual(['email']);
  });

  it('saves the current view: the address query and the hidden columns, as the default when asked', async () => {
    const { posted } = render([], '/users?q=jo&sort=email');
    await screen.findByRole('row', { name: /João Lima/ });
    await keys.click(screen.getByRole('button', { name: 'Colunas' }));
    const chooser = await screen.findByRole('dialog', { name: 'Colunas visíveis' });
    await keys.click(within(chooser).getByRole('checkbox', { name: 'Situação' }));
    await keys.keyboard('{Escape}');
    await keys.click(screen.getByRole('button', { name: 'Visões' }));
    await keys.click(await screen.findByRole('menuitem', { name: 'Salvar visão atual…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Salvar visão atual' });
    await keys.type(within(dialog).getByRole('textbox', { name: /Nome da visão/ }), 'Joões');
    await keys.click(within(dialog).getByRole('checkbox', { name: 'Abrir esta lista com esta visão' }));
    await keys.click(within(dialog).getByRole('button', { name: 'Salvar visão' }));
    await waitFor(() => expect(posted).toHaveLength(1));
    expect(posted[0]?.body).toEqual({
      list: 'users',
      name: 'Joões',
      state: { query: 'q=jo&sort=email', columns: ['status'] },
      is_default: true,
    });
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Salvar visão atual' })).toBeNull());
    expect(await screen.findByRole('button', { name: 'Visões: Joões' })).toBeInTheDocument();
  });
});
