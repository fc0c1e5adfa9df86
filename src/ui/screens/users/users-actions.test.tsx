// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import { deferred, json, operationOf } from '../../../machines/test-support/fake-fetch';
import { appToasts } from '../../components/toast-queue';
import { renderWithServices, type RenderedApp } from '../../test-support/render';
import { fakeUsersApi, user, type FakeUsersApi } from '../../test-support/fake-users-api';
import { keys } from '../../test-support/users-user-event';
import UsersScreen from './users';

let view: RenderedApp | undefined;
afterEach(() => {
  view?.unmount();
  view = undefined;
  appToasts.clear();
});

const ana = user(2, { name: 'Ana Souza', email: 'ana@demo.local', isConnected: true });
const joao = user(3, { name: 'João Lima', email: 'joao@demo.local', blocked: true, twoFactorEnabled: true });

async function render(api: FakeUsersApi) {
  view = renderWithServices(<UsersScreen />, { path: '/users', signedIn: {}, respond: api.respond });
  await screen.findByRole('row', { name: /Ana Souza/ });
  return view;
}

const row = (name: string) => screen.getByRole('row', { name: new RegExp(name) });
const toasts = () =>
  appToasts.visibleToasts.map(({ content }) => [content.variant, content.title, content.description]);

/** Opens the row's "more" menu and picks an item. */
async function act(name: string, item: string) {
  await keys.click(within(row(name)).getByRole('button', { name: `Ações de ${name}` }));
  await keys.click(await screen.findByRole('menuitem', { name: item }));
}

describe('UsersScreen: row actions', () => {
  it('offers only what applies: unblock for the blocked, disconnect for the connected, nothing that locks the admin out', async () => {
    await render(fakeUsersApi([user(1, { name: 'Ana Administradora', isConnected: true }), ana, joao]));
    const labels = async (name: string) => {
      await keys.click(within(row(name)).getByRole('button', { name: `Ações de ${name}` }));
      const items = within(await screen.findByRole('menu'))
        .getAllByRole('menuitem')
        .map((item) => item.textContent);
      await keys.keyboard('{Escape}');
      return items;
    };
    expect(await labels('Ana Souza')).toEqual([
      'Alterar nome',
      'Alterar e-mail',
      'Instâncias',
      'Bloquear',
      'Exigir dois fatores',
      'Desconectar',
      'Excluir',
    ]);
    expect(await labels('João Lima')).toEqual([
      'Alterar nome',
      'Alterar e-mail',
      'Instâncias',
      'Desbloquear',
      'Redefinir dois fatores',
      'Excluir',
    ]);
    // One's own row: no two-factor entries (the two-factor screen's, with a code), and the e-mail leads to
    // the account screen, where it changes with the current password.
    expect(await labels('Ana Administradora')).toEqual([
      'Alterar nome',
      'Alterar e-mail ou senha nas configurações',
      'Instâncias',
    ]);
  });

  it("on one's own row the e-mail entry is a link to the account screen, whatever its two-factor", async () => {
    const api = fakeUsersApi([
      user(1, { name: 'Ana Administradora', twoFactorEnabled: true }),
      ana,
      user(4, { name: 'Rui Exigido', twoFactorEnrolmentRequired: true }),
    ]);
    const { requests, location } = await render(api);
    const items = async (name: string) => {
      await keys.click(within(row(name)).getByRole('button', { name: `Ações de ${name}` }));
      const menu = await screen.findByRole('menu');
      const found = within(menu).getAllByRole('menuitem');
      return { menu, found };
    };
    // Another user's two-factor is offered as before: a reset when on, lifting a requirement when required.
    for (const [name, entry] of [
      ['Rui Exigido', 'Deixar de exigir dois fatores'],
      ['Ana Souza', 'Exigir dois fatores'],
    ] as const) {
      const { found } = await items(name);
      expect(found.map((item) => item.textContent)).toContain(entry);
      expect(found.map((item) => item.textContent)).toContain('Alterar e-mail');
      await keys.keyboard('{Escape}');
    }
    const { menu, found } = await items('Ana Administradora');
    expect(found.map((item) => item.textContent)).not.toContain('Redefinir dois fatores');
    const account = within(menu).getByRole('menuitem', { name: 'Alterar e-mail ou senha nas configurações' });
    expect(account).toHaveAttribute('href', '/user-settings');
    const before = requests.length;
    await keys.click(account);
    await waitFor(() => expect(location()).toBe('/user-settings'));
    // Nothing was asked of the server, and no e-mail dialog opened.
    expect(requests.slice(before).filter((r) => r.method !== 'GET' && operationOf(r)?.name !== 'onlineUsers')).toEqual(
      [],
    );
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('deletes only after confirmation, then says so and puts focus on the search', async () => {
    const api = fakeUsersApi([ana, joao]);
    const { requests } = await render(api);
    await act('Ana Souza', 'Excluir');
    const dialog = await screen.findByRole('alertdialog', { name: 'Excluir usuário' });
    expect(dialog).toHaveTextContent('Excluir Ana Souza? Esta ação não pode ser desfeita.');
    // Cancel is focused first (the safe choice) and closes without a call.
    expect(within(dialog).getByRole('button', { name: 'Cancelar' })).toHaveFocus();
    await keys.keyboard('{Enter}');
    await waitFor(() => expect(screen.queryByRole('alertdialog', { name: 'Excluir usuário' })).toBeNull());
    expect(requests.some((r) => operationOf(r)?.name === 'deleteUser')).toBe(false);
    await act('Ana Souza', 'Excluir');
    await keys.click(
      within(await screen.findByRole('alertdialog', { name: 'Excluir usuário' })).getByRole('button', {
        name: 'Excluir',
      }),
    );
    await waitFor(() => expect(screen.queryByRole('row', { name: /Ana Souza/ })).toBeNull());
    expect(requests.map(operationOf).find((op) => op?.name === 'deleteUser')?.variables).toEqual({ id: 2 });
    expect(toasts()).toContainEqual(['success', 'Usuário excluído', 'Ana Souza']);
    await waitFor(() => expect(screen.getByRole('searchbox')).toHaveFocus());
  });

  it('keeps the row when the delete fails, and says why', async () => {
    const api = fakeUsersApi([ana]);
    api.override.set('deleteUser', () =>
      json(200, { data: null, errors: [{ message: 'no', extensions: { code: 'FORBIDDEN' } }] }),
    );
    await render(api);
    await act('Ana Souza', 'Excluir');
    await keys.click(
      within(await screen.findByRole('alertdialog', { name: 'Excluir usuário' })).getByRole('button', {
        name: 'Excluir',
      }),
    );
    await waitFor(() =>
      expect(toasts()).toContainEqual([
        'error',
        'Não foi possível excluir o usuário.',
        'Você não tem permissão para esta ação.',
      ]),
    );
    expect(screen.queryByRole('alertdialog', { name: 'Excluir usuário' })).toBeNull();
    expect(row('Ana Souza')).toBeInTheDocument();
  });

  it('blocks after confirmation with a pending button, and unblocks at once', async () => {
    const api = fakeUsersApi([ana, joao]);
    const gate = deferred<void>();
    api.override.set('PATCH /api/users/2', async (request) => {
      await gate.promise;
      api.override.delete('PATCH /api/users/2');
      return api.respond(request);
    });
    const { requests } = await render(api);
    await act('Ana Souza', 'Bloquear');
    const dialog = await screen.findByRole('alertdialog', { name: 'Bloquear usuário' });
    expect(dialog).toHaveTextContent('as sessões abertas serão encerradas');
    await keys.click(within(dialog).getByRole('button', { name: 'Bloquear' }));
    await waitFor(() =>
      expect(within(dialog).getByRole('button', { name: /Bloquear/ })).toHaveAttribute('aria-busy', 'true'),
    );
    gate.resolve();
    await waitFor(() => expect(within(row('Ana Souza')).getByText('Bloqueado')).toBeInTheDocument());
    expect(screen.queryByRole('alertdialog', { name: 'Bloquear usuário' })).toBeNull();
    expect(toasts()).toContainEqual(['success', 'Usuário bloqueado', 'Ana Souza']);
    await act('João Lima', 'Desbloquear');
    await waitFor(() => expect(within(row('João Lima')).getByText('Ativo')).toBeInTheDocument());
    expect(requests.filter((r) => r.method === 'PATCH').map((r) => [r.path, r.body])).toEqual([
      ['/api/users/2', { blocked: true }],
      ['/api/users/3', { blocked: false }],
    ]);
    expect(toasts()).toContainEqual(['success', 'Usuário desbloqueado', 'João Lima']);
  });

  it('requires two-factor enrolment of a user without it, shows it on the row, and cancels the requirement', async () => {
    const api = fakeUsersApi([ana, joao]);
    const { requests } = await render(api);
    await act('Ana Souza', 'Exigir dois fatores');
    await waitFor(() => expect(within(row('Ana Souza')).getByText('Dois fatores exigidos')).toBeInTheDocument());
    expect(toasts()).toContainEqual([
      'success',
      'A ativação dos dois fatores será pedida no próximo login',
      'Ana Souza',
    ]);
    await act('Ana Souza', 'Deixar de exigir dois fatores');
    await waitFor(() => expect(within(row('Ana Souza')).queryByText('Dois fatores exigidos')).toBeNull());
    expect(toasts()).toContainEqual(['success', 'Os dois fatores não são mais exigidos', 'Ana Souza']);
    expect(requests.filter((r) => r.path === '/api/user-settings/2').map((r) => r.body)).toEqual([
      { two_factor_enrolment_required: true },
      { two_factor_enrolment_required: false },
    ]);
  });

  it('says why a requirement was refused (the user turned two-factor on meanwhile: 409) and changes nothing', async () => {
    const api = fakeUsersApi([ana]);
    await render(api);
    // The list is older than the server: Ana enrolled since it loaded.
    api.users = api.users.map((u) => (u.id === 2 ? { ...u, twoFactorEnabled: true } : u));
    await act('Ana Souza', 'Exigir dois fatores');
    await waitFor(() =>
      expect(toasts()).toContainEqual([
        'error',
        'Não foi possível alterar a autenticação em dois fatores.',
        expect.any(String),
      ]),
    );
    expect(within(row('Ana Souza')).queryByText('Dois fatores exigidos')).toBeNull();
  });

  it('resets two-factor (off) only after a confirmation that says what is erased', async () => {
    const api = fakeUsersApi([ana, joao]);
    const { requests } = await render(api);
    await act('João Lima', 'Redefinir dois fatores');
    const dialog = await screen.findByRole('alertdialog', { name: 'Redefinir autenticação em dois fatores' });
    expect(dialog).toHaveTextContent('os códigos de recuperação serão apagados');
    await keys.click(within(dialog).getByRole('button', { name: 'Redefinir dois fatores' }));
    await waitFor(() => expect(within(row('João Lima')).queryByText('Dois fatores ativos')).toBeNull());
    expect(requests.find((r) => r.path === '/api/user-settings/3')?.body).toEqual({ two_factor_enabled: false });
    expect(toasts()).toContainEqual(['success', 'Autenticação em dois fatores redefinida', 'João Lima']);
  });

  it('disconnects a connected user after confirmation and shows them offline', async () => {
    const api = fakeUsersApi([ana, joao]);
    const { requests } = await render(api);
    await act('Ana Souza', 'Desconectar');
    await keys.click(
      within(await screen.findByRole('alertdialog', { name: 'Desconectar usuário' })).getByRole('button', {
        name: 'Desconectar',
      }),
    );
    await waitFor(() => expect(within(row('Ana Souza')).getByText('Offline')).toBeInTheDocument());
    expect(requests.map(operationOf).find((op) => op?.name === 'disconnectUser')?.variables).toEqual({ user_id: 2 });
    expect(toasts()).toContainEqual(['success', 'Usuário desconectado', 'Ana Souza']);
  });
});

describe('UsersScreen: name-only and email-only changes', () => {
  it('changes the name alone: PUT with exactly {name}', async () => {
    const api = fakeUsersApi([ana, joao]);
    const { requests } = await render(api);
    await act('Ana Souza', 'Alterar nome');
    const dialog = await screen.findByRole('dialog', { name: 'Alterar nome de Ana Souza' });
    const field = within(dialog).getByRole('textbox', { name: 'Novo nome' });
    expect(field).toHaveFocus();
    await keys.clear(field);
    await keys.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    // Empty: refused by the field itself, nothing sent.
    expect(within(dialog).getByText('Campo obrigatório.')).toBeInTheDocument();
    await keys.type(field, 'Ana Paula Souza{Enter}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(row('Ana Paula Souza')).toBeInTheDocument();
    expect(requests.filter((r) => r.method === 'PUT').map((r) => [r.path, r.body])).toEqual([
      ['/api/users/2', { name: 'Ana Paula Souza' }],
    ]);
    expect(toasts()).toContainEqual(['success', 'Nome alterado', 'Ana Souza']);
  });

  it('changes the email alone: PUT with exactly {email}; a taken email shows on the field', async () => {
    const api = fakeUsersApi([ana, joao]);
    const { requests } = await render(api);
    await act('Ana Souza', 'Alterar e-mail');
    const dialog = await screen.findByRole('dialog', { name: 'Alterar e-mail de Ana Souza' });
    const field = within(dialog).getByRole('textbox', { name: 'Novo e-mail' });
    await keys.clear(field);
    await keys.type(field, 'joao@demo.local{Enter}');
    await waitFor(() => expect(field).toHaveAccessibleDescription('Já está em uso.'));
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(toasts()).toEqual([]);
    await keys.clear(field);
    await keys.type(field, 'ana.souza@demo.local{Enter}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(within(row('Ana Souza')).getByText('ana.souza@demo.local')).toBeInTheDocument();
    expect(requests.filter((r) => r.method === 'PUT').map((r) => r.body)).toEqual([
      { email: 'joao@demo.local' },
      { email: 'ana.souza@demo.local' },
    ]);
    expect(toasts()).toContainEqual(['success', 'E-mail alterado', 'Ana Souza']);
  });
});
