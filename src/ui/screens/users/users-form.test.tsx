// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import { gqlError, json, operationOf } from '../../../machines/test-support/fake-fetch';
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

const ana = user(2, {
  name: 'Ana Souza',
  email: 'ana@demo.local',
  username: 'ana.souza',
  userInstances: [{ id: 40, instance: { id: 1, name: 'WhatsApp Loja 1', activated: true } }],
});

async function render(api: FakeUsersApi) {
  view = renderWithServices(<UsersScreen />, { path: '/users', signedIn: {}, respond: api.respond });
  await screen.findByRole('row', { name: /Ana Souza/ });
  return view;
}

const toasts = () =>
  appToasts.visibleToasts.map(({ content }) => [content.variant, content.title, content.description]);
const named = (name: string) => (r: Parameters<typeof operationOf>[0]) => operationOf(r)?.name === name;

async function choose(dialog: HTMLElement, select: RegExp, option: string) {
  await keys.click(within(dialog).getByRole('button', { name: select }));
  await keys.click(await screen.findByRole('option', { name: option }));
}

describe('UsersScreen: create', () => {
  it('refuses a weak password with its reason and focus on it, then creates with a strong one', async () => {
    const api = fakeUsersApi([ana]);
    const { requests } = await render(api);
    await keys.click(screen.getByRole('button', { name: 'Novo usuário' }));
    const dialog = await screen.findByRole('dialog', { name: 'Novo usuário' });
    await within(dialog).findByRole('textbox', { name: 'Nome' });
    await keys.type(within(dialog).getByRole('textbox', { name: 'Nome' }), 'Bruno Alves');
    await keys.type(within(dialog).getByRole('textbox', { name: 'Nome de usuário' }), 'bruno.alves');
    await keys.type(within(dialog).getByRole('textbox', { name: 'E-mail' }), 'bruno@demo.local');
    await choose(dialog, /Função/, 'Operador');
    await choose(dialog, /Departamento/, 'Financeiro');
    await keys.click(within(dialog).getByRole('button', { name: /Instâncias/ }));
    await keys.click(await screen.findByRole('option', { name: 'WhatsApp Loja 2' }));
    await keys.keyboard('{Escape}');
    const password = within(dialog).getByLabelText(/^Senha/);
    await keys.type(password, 'abc12345');
    expect(within(dialog).getByRole('meter', { name: 'Força da senha' })).toHaveAttribute('aria-valuetext', 'fraca');
    await keys.click(within(dialog).getByRole('button', { name: 'Criar usuário' }));
    await waitFor(() => expect(password).toHaveFocus());
    expect(password).toHaveAttribute('aria-invalid', 'true');
    expect(password).toHaveAccessibleDescription(
      expect.stringContaining('Senha fraca: evite 3 caracteres iguais seguidos e sequências como abc ou 123.'),
    );
    expect(requests.some(named('newUser'))).toBe(false);

    await keys.clear(password);
    await keys.type(password, 'Farmácia#Boa!9');
    expect(within(dialog).getByRole('meter')).toHaveAttribute('aria-valuetext', 'forte');
    expect(password).not.toHaveAttribute('aria-invalid');
    await keys.click(within(dialog).getByRole('button', { name: 'Criar usuário' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(requests.map(operationOf).find((op) => op?.name === 'newUser')?.variables).toEqual({
      username: 'bruno.alves',
      name: 'Bruno Alves',
      email: 'bruno@demo.local',
      password: 'Farmácia#Boa!9',
      role_id: 2,
      user_department_id: 2,
      chosen_instances: [2],
    });
    const created = screen.getByRole('row', { name: /Bruno Alves/ });
    expect(within(created).getByText('Financeiro')).toBeInTheDocument();
    expect(toasts()).toContainEqual(['success', 'Usuário criado', undefined]);
  });

  it('marks every missing field at once, and shows the server refusing a taken username on that field', async () => {
    const api = fakeUsersApi([ana]);
    api.override.set('newUser', () =>
      json(200, {
        data: null,
        errors: [{ message: 'taken', extensions: { code: 'BAD_USER_INPUT', field: 'username' } }],
      }),
    );
    await render(api);
    await keys.click(screen.getByRole('button', { name: 'Novo usuário' }));
    const dialog = await screen.findByRole('dialog', { name: 'Novo usuário' });
    await keys.click(await within(dialog).findByRole('button', { name: 'Criar usuário' }));
    const name = within(dialog).getByRole('textbox', { name: 'Nome' });
    await waitFor(() => expect(name).toHaveFocus());
    for (const label of ['Nome', 'Nome de usuário', 'E-mail'])
      expect(within(dialog).getByRole('textbox', { name: label })).toHaveAccessibleDescription('Campo obrigatório.');
    await keys.type(name, 'Bruno Alves');
    await keys.type(within(dialog).getByRole('textbox', { name: 'Nome de usuário' }), 'ana.souza');
    await keys.type(within(dialog).getByRole('textbox', { name: 'E-mail' }), 'bruno@demo.local');
    await keys.type(within(dialog).getByLabelText(/^Senha/), 'Farmácia#Boa!9');
    await choose(dialog, /Função/, 'Operador');
    await keys.click(within(dialog).getByRole('button', { name: 'Criar usuário' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'Não foi possível criar o usuário. Dados inválidos.',
    );
    expect(within(dialog).getByRole('textbox', { name: 'Nome de usuário' })).toHaveAccessibleDescription(
      'Valor inválido.',
    );
  });

  it('shows the options failing to load, and retries', async () => {
    const api = fakeUsersApi([ana]);
    await render(api);
    // The list read the departments for its filter; the form's own read fails.
    api.override.set('departments', () => gqlError('FORBIDDEN', undefined, 403));
    await keys.click(screen.getByRole('button', { name: 'Novo usuário' }));
    const dialog = await screen.findByRole('dialog', { name: 'Novo usuário' });
    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent('Não foi possível carregar funções, departamentos e instâncias.');
    api.override.delete('departments');
    await keys.click(within(alert).getByRole('button', { name: 'Tentar novamente' }));
    expect(await within(dialog).findByRole('textbox', { name: 'Nome' })).toBeInTheDocument();
  });
});

describe('UsersScreen: edit and instances', () => {
  it('edits a user (no password sent) and keeps the focus trail: Editar → dialog → back to Editar', async () => {
    const api = fakeUsersApi([ana]);
    const { requests } = await render(api);
    const edit = screen.getByRole('button', { name: 'Editar Ana Souza' });
    await keys.click(edit);
    const dialog = await screen.findByRole('dialog', { name: 'Editar Ana Souza' });
    const name = await within(dialog).findByRole('textbox', { name: 'Nome' });
    expect(name).toHaveValue('Ana Souza');
    expect(within(dialog).queryByLabelText(/^Senha/)).toBeNull();
    await keys.clear(name);
    await keys.type(name, 'Ana Lúcia Souza');
    await choose(dialog, /Função/, 'Administrador');
    await keys.click(within(dialog).getByRole('button', { name: 'Salvar alterações' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const variables = requests.map(operationOf).find((op) => op?.name === 'updateUser')?.variables;
    // The version the form loaded goes with the save (docs/lists.md, Conflict notice).
    expect(variables).toEqual({
      id: 2,
      version: 1,
      username: 'ana.souza',
      name: 'Ana Lúcia Souza',
      email: 'ana@demo.local',
      role_id: 1,
      user_department_id: 1,
      chosen_instances: [1],
    });
    expect(within(screen.getByRole('row', { name: /Ana Lúcia Souza/ })).getByText('Administrador')).toBeInTheDocument();
    expect(toasts()).toContainEqual(['success', 'Usuário atualizado', 'Ana Souza']);
    await waitFor(() => expect(screen.getByRole('button', { name: 'Editar Ana Lúcia Souza' })).toHaveFocus());
  });

  it("lists the user's instances, removes a link at once, and adds another with the save", async () => {
    const api = fakeUsersApi([ana]);
    const { requests } = await render(api);
    await keys.click(
      within(screen.getByRole('row', { name: /Ana Souza/ })).getByRole('button', { name: 'Ações de Ana Souza' }),
    );
    await keys.click(await screen.findByRole('menuitem', { name: 'Instâncias' }));
    const dialog = await screen.findByRole('dialog', { name: 'Instâncias de Ana Souza' });
    const links = await within(dialog).findByRole('list');
    expect(
      within(links)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['WhatsApp Loja 1Remover']);
    expect(within(dialog).queryByRole('textbox', { name: 'Nome' })).toBeNull();
    await keys.click(within(links).getByRole('button', { name: 'Remover WhatsApp Loja 1' }));
    expect(await within(dialog).findByText('Nenhuma instância vinculada.')).toBeInTheDocument();
    expect(requests.map(operationOf).find((op) => op?.name === 'deleteUserInstance')?.variables).toEqual({ id: 40 });
    expect(toasts()).toContainEqual(['success', 'Instância removida: WhatsApp Loja 1', undefined]);
    await keys.click(within(dialog).getByRole('button', { name: /Adicionar instâncias/ }));
    await keys.click(await screen.findByRole('option', { name: /^Instagram/ }));
    await keys.keyboard('{Escape}');
    await keys.click(within(dialog).getByRole('button', { name: 'Salvar alterações' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(requests.map(operationOf).find((op) => op?.name === 'updateUser')?.variables).toMatchObject({
      id: 2,
      chosen_instances: [3],
    });
    expect(api.users[0]?.userInstances.map((link) => link.instance.name)).toEqual(['Instagram']);
  });

  it('keeps the link and says why when its removal fails', async () => {
    const api = fakeUsersApi([ana]);
    api.override.set('deleteUserInstance', () => gqlError('NOT_FOUND', 'id'));
    await render(api);
    await keys.click(screen.getByRole('button', { name: 'Editar Ana Souza' }));
    const dialog = await screen.findByRole('dialog', { name: 'Editar Ana Souza' });
    await keys.click(await within(dialog).findByRole('button', { name: 'Remover WhatsApp Loja 1' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'Não foi possível remover a instância do usuário. Registro não encontrado.',
    );
    expect(within(dialog).getByRole('button', { name: 'Remover WhatsApp Loja 1' })).toBeInTheDocument();
    expect(toasts()).toEqual([]);
  });
});
