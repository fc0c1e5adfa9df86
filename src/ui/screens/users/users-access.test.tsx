// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import { gqlData } from '../../../machines/test-support/fake-fetch';
import { appToasts } from '../../components/toast-queue';
import { ADMIN_USER, renderWithServices, type RenderedApp } from '../../test-support/render';
import { fakeUsersApi, user, type FakeUsersApi } from '../../test-support/fake-users-api';
import { keys } from '../../test-support/users-user-event';
import UsersScreen from './users';

let view: RenderedApp | undefined;
afterEach(() => {
  view?.unmount();
  view = undefined;
  appToasts.clear();
});

/** Roles with their routes: a users-only manager holds `users`, the operador a dashboard it lacks. */
const ROLES = [
  {
    id: 1,
    name: 'administrador',
    display_name: 'Administrador',
    has_permission_routes: ['dashboard-analytics', 'users'],
    version: 1,
  },
  { id: 2, name: 'operador', display_name: 'Operador', version: 1, has_permission_routes: ['dashboard-analytics'] },
  { id: 3, name: 'gestor', display_name: 'Gestor de usuários', version: 1, has_permission_routes: ['users'] },
  { id: 4, name: 'atendente', display_name: 'Atendente', version: 1, has_permission_routes: [] },
];
const roleOf = (id: number) => {
  const { has_permission_routes: _routes, ...role } = ROLES.find((r) => r.id === id)!;
  return role;
};

/** The signed-in manager (user 7, staff, role `gestor`): holds only `users`. */
const MANAGER = {
  ...ADMIN_USER,
  id: 7,
  name: 'Mário Gestor',
  email: 'mario@demo.local',
  role: { ...ROLES[2]! },
};
const ana = user(2, { name: 'Ana Souza', role: roleOf(1) });
const olga = user(3, { name: 'Olga Operadora', role: roleOf(2) });
const tiago = user(4, { name: 'Tiago Atendente', role: roleOf(4) });
const mario = user(7, { name: 'Mário Gestor', email: 'mario@demo.local', role: roleOf(3) });

async function render(api: FakeUsersApi) {
  api.override.set('roles', () => gqlData({ roles: ROLES }));
  view = renderWithServices(<UsersScreen />, {
    path: '/users',
    signedIn: { user: MANAGER, permittedRoutes: ['users'] },
    respond: api.respond,
  });
  await screen.findByRole('row', { name: /Ana Souza/ });
  return view;
}

const row = (name: string) => screen.getByRole('row', { name: new RegExp(name) });

describe('UsersScreen: a users-only manager meets no button the server refuses', () => {
  it('disables the actions on an administrador and on a user with permissions it lacks, saying why', async () => {
    await render(fakeUsersApi([ana, olga, tiago, mario]));
    const cases = [
      ['Ana Souza', 'Só um administrador pode alterar um administrador.'],
      ['Olga Operadora', 'Este usuário tem permissões que você não tem.'],
    ] as const;
    for (const [name, why] of cases) {
      const cells = within(row(name));
      const edit = cells.getByRole('button', { name: `Editar ${name}` });
      const more = cells.getByRole('button', { name: `Ações de ${name}` });
      expect(edit).toBeDisabled();
      expect(more).toBeDisabled();
      expect(edit).toHaveAccessibleDescription(why);
      expect(more).toHaveAccessibleDescription(why);
      const lock = cells.getByRole('button', { name: `Por que não posso alterar ${name}?` });
      expect(lock).toHaveAccessibleDescription(why);
      expect(lock).toHaveAttribute('title', why);
      await keys.click(lock);
      await waitFor(() =>
        expect(appToasts.visibleToasts.map((toast) => toast.content)).toContainEqual({
          variant: 'info',
          title: `Você não pode alterar ${name}`,
          description: why,
        }),
      );
    }
    // A user whose role holds nothing the manager lacks, and the manager itself: everything offered.
    for (const name of ['Tiago Atendente', 'Mário Gestor']) {
      const cells = within(row(name));
      expect(cells.getByRole('button', { name: `Editar ${name}` })).toBeEnabled();
      expect(cells.getByRole('button', { name: `Ações de ${name}` })).toBeEnabled();
      expect(cells.queryByRole('button', { name: /Por que não posso/ })).toBeNull();
    }
  });

  it('offers only the roles the manager may give, and says so', async () => {
    await render(fakeUsersApi([ana, tiago]));
    await keys.click(screen.getByRole('button', { name: 'Novo usuário' }));
    const dialog = await screen.findByRole('dialog', { name: 'Novo usuário' });
    const picker = await within(dialog).findByRole('button', { name: /Função/ });
    expect(picker).toHaveAccessibleDescription('Só aparecem as funções cujas permissões você também tem.');
    await keys.click(picker);
    const options = within(await screen.findByRole('listbox')).getAllByRole('option');
    expect(options.map((option) => option.textContent)).toEqual(['Gestor de usuários', 'Atendente']);
  });

  it('editing itself, the role is shown disabled with why; the save keeps it', async () => {
    const api = fakeUsersApi([ana, mario]);
    const { requests } = await render(api);
    await keys.click(within(row('Mário Gestor')).getByRole('button', { name: 'Editar Mário Gestor' }));
    const dialog = await screen.findByRole('dialog', { name: 'Editar Mário Gestor' });
    const picker = await within(dialog).findByRole('button', { name: /Função/ });
    expect(picker).toBeDisabled();
    expect(picker).toHaveTextContent('Gestor de usuários');
    expect(picker).toHaveAccessibleDescription(
      'Você não pode mudar a sua própria função: outro administrador precisa fazer isso.',
    );
    await keys.click(within(dialog).getByRole('button', { name: 'Salvar alterações' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const update = requests.map((r) => r.body as { operationName?: string; variables?: { role_id?: number } });
    expect(update.find((body) => body?.operationName === 'updateUser')?.variables?.role_id).toBe(3);
  });

  const ownNote = 'O seu e-mail e a sua senha mudam, com a senha atual, em Configurações do usuário.';

  it('editing itself, the e-mail is disabled and says where it changes, with a link there; the save keeps it', async () => {
    const api = fakeUsersApi([ana, mario]);
    const { requests } = await render(api);
    await keys.click(within(row('Mário Gestor')).getByRole('button', { name: 'Editar Mário Gestor' }));
    const dialog = await screen.findByRole('dialog', { name: 'Editar Mário Gestor' });
    const email = await within(dialog).findByRole('textbox', { name: 'E-mail' });
    expect(email).toBeDisabled();
    expect(email).toHaveValue('mario@demo.local');
    expect(email).toHaveAccessibleDescription(ownNote);
    expect(within(dialog).getByRole('link', { name: 'Configurações do usuário' })).toHaveAttribute(
      'href',
      '/user-settings',
    );
    // The name still changes here; the e-mail goes out as stored (no current password asked).
    const name = within(dialog).getByRole('textbox', { name: 'Nome' });
    await keys.clear(name);
    await keys.type(name, 'Mário G.');
    await keys.click(within(dialog).getByRole('button', { name: 'Salvar alterações' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const update = requests
      .map((r) => r.body as { operationName?: string; variables?: { name?: string; email?: string } })
      .find((body) => body?.operationName === 'updateUser');
    expect(update?.variables).toMatchObject({ name: 'Mário G.', email: 'mario@demo.local' });
  });

  it('the link in the form leads to the account screen by keyboard', async () => {
    const v = await render(fakeUsersApi([ana, mario]));
    await keys.click(within(row('Mário Gestor')).getByRole('button', { name: 'Editar Mário Gestor' }));
    const dialog = await screen.findByRole('dialog', { name: 'Editar Mário Gestor' });
    const username = await within(dialog).findByRole('textbox', { name: 'Nome de usuário' });
    username.focus();
    // The disabled e-mail is skipped: the next stop is its note's link.
    await keys.tab();
    const link = within(dialog).getByRole('link', { name: 'Configurações do usuário' });
    expect(link).toHaveFocus();
    await keys.keyboard('{Enter}');
    await waitFor(() => expect(v.location()).toBe('/user-settings'));
  });

  it('editing another user, the e-mail is an ordinary field with no note', async () => {
    await render(fakeUsersApi([ana, tiago, mario]));
    await keys.click(within(row('Tiago Atendente')).getByRole('button', { name: 'Editar Tiago Atendente' }));
    const dialog = await screen.findByRole('dialog', { name: 'Editar Tiago Atendente' });
    const email = await within(dialog).findByRole('textbox', { name: 'E-mail' });
    expect(email).toBeEnabled();
    expect(within(dialog).queryByText(/com a senha atual/)).toBeNull();
    expect(within(dialog).queryByRole('link')).toBeNull();
  });
});
