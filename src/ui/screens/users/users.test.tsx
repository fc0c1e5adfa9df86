// @vitest-environment jsdom
import { act, screen, waitFor, within } from '@testing-library/react';
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
  vi.useRealTimers();
});

function render(api: FakeUsersApi, path = '/users') {
  view = renderWithServices(<UsersScreen />, { path, signedIn: {}, respond: api.respond });
  return view;
}

const ana = user(2, {
  name: 'Ana Souza',
  email: 'ana@demo.local',
  isConnected: true,
  role: { id: 1, name: 'administrador', display_name: 'Administrador' },
});
const joao = user(3, {
  name: 'João Lima',
  email: 'joao@demo.local',
  userDepartment: { id: 2, name: 'Financeiro', activated: true },
  blocked: true,
  twoFactorEnabled: true,
});
const bia = user(4, { name: 'Beatriz Rocha', email: 'bia@demo.local', userDepartment: null });

const grid = () => screen.getByRole('grid', { name: 'Lista de usuários' });
const rowNames = () =>
  within(grid())
    .getAllByRole('rowheader')
    .map((cell) => cell.textContent);

describe('UsersScreen: states', () => {
  it('shows loading, then each user with email, role, department, presence and status', async () => {
    const api = fakeUsersApi([ana, joao, bia]);
    const gate = deferred<void>();
    api.override.set('usersPage', async (request) => {
      await gate.promise;
      api.override.delete('usersPage');
      return api.respond(request);
    });
    render(api);
    expect(screen.getByRole('progressbar', { name: 'Carregando registros…' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Novo usuário' })).toBeDisabled();
    gate.resolve();
    const anaRow = await screen.findByRole('row', { name: /Ana Souza/ });
    expect(within(anaRow).getByText('ana@demo.local')).toBeInTheDocument();
    expect(within(anaRow).getByText('Administrador')).toBeInTheDocument();
    expect(within(anaRow).getByText('Atendimento')).toBeInTheDocument();
    expect(within(anaRow).getByText('Online')).toBeInTheDocument();
    expect(within(anaRow).getByText('Ativo')).toBeInTheDocument();
    const joaoRow = screen.getByRole('row', { name: /João Lima/ });
    expect(within(joaoRow).getByText('Financeiro')).toBeInTheDocument();
    expect(within(joaoRow).getByText('Offline')).toBeInTheDocument();
    expect(within(joaoRow).getByText('Bloqueado')).toBeInTheDocument();
    expect(within(joaoRow).getByText('Dois fatores ativos')).toBeInTheDocument();
    expect(
      within(screen.getByRole('row', { name: /Beatriz Rocha/ })).getByText('Sem departamento'),
    ).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('3 usuários');
    // Sorted by name by default, and the header says so.
    expect(rowNames()).toEqual(['Ana Souza', 'Beatriz Rocha', 'João Lima']);
    expect(within(grid()).getByRole('columnheader', { name: /Nome/ })).toHaveAttribute('aria-sort', 'ascending');
  });

  it('offers to create the first user when there is none', async () => {
    render(fakeUsersApi([]));
    expect(await screen.findByText('Nenhum usuário cadastrado')).toBeInTheDocument();
    const create = within(grid()).getByRole('button', { name: 'Novo usuário' });
    await keys.click(create);
    expect(await screen.findByRole('dialog', { name: 'Novo usuário' })).toBeInTheDocument();
  });

  it('says why the list failed and retries', async () => {
    const api = fakeUsersApi([ana]);
    api.override.set('usersPage', () => json(503, { status: 'unavailable', message: 'down' }));
    render(api);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Não foi possível carregar os usuários.');
    expect(alert).toHaveTextContent('Serviço indisponível. Tente mais tarde.');
    api.override.delete('usersPage');
    await keys.click(within(alert).getByRole('button', { name: 'Tentar novamente' }));
    expect(await screen.findByRole('row', { name: /Ana Souza/ })).toBeInTheDocument();
  });
});

describe('UsersScreen: search and sort', () => {
  it('filters by name or email ignoring accents and case, mirrors it in the address, and can be cleared', async () => {
    const { location } = render(fakeUsersApi([ana, joao, bia]));
    await screen.findByRole('row', { name: /Ana Souza/ });
    const search = screen.getByRole('searchbox', { name: 'Buscar por nome ou e-mail' });
    await keys.type(search, 'JOAO');
    await waitFor(() => expect(rowNames()).toEqual(['João Lima']));
    expect(screen.getByRole('status')).toHaveTextContent('1 usuário');
    await waitFor(() => expect(location()).toBe('/users?q=JOAO'));
    await keys.clear(search);
    await keys.type(search, 'bia@');
    await waitFor(() => expect(rowNames()).toEqual(['Beatriz Rocha']));
    await keys.type(search, 'zzz');
    expect(await screen.findByText('Nenhum usuário corresponde a “bia@zzz”')).toBeInTheDocument();
    await keys.click(screen.getByRole('button', { name: 'Mostrar todos os usuários' }));
    await waitFor(() => expect(rowNames()).toHaveLength(3));
  });

  it('sorts by a column header, both ways, and starts from the address', async () => {
    const { location } = render(fakeUsersApi([ana, joao, bia]), '/users?sort=email&dir=desc');
    await screen.findByRole('row', { name: /Ana Souza/ });
    expect(rowNames()).toEqual(['João Lima', 'Beatriz Rocha', 'Ana Souza']);
    const department = within(grid()).getByRole('columnheader', { name: /Departamento/ });
    await keys.click(department);
    // Empty departments first ("Sem departamento"), then Atendimento, Financeiro.
    expect(rowNames()).toEqual(['Beatriz Rocha', 'Ana Souza', 'João Lima']);
    expect(department).toHaveAttribute('aria-sort', 'ascending');
    await waitFor(() => expect(location()).toBe('/users?sort=department'));
    await keys.click(department);
    expect(rowNames()).toEqual(['João Lima', 'Ana Souza', 'Beatriz Rocha']);
    expect(department).toHaveAttribute('aria-sort', 'descending');
    await keys.click(within(grid()).getByRole('columnheader', { name: /Presença/ }));
    expect(rowNames()[0]).toBe('Ana Souza');
  });
});

describe('UsersScreen: a page at a time', () => {
  it('keeps the rows shown and marks the table busy while the next page is asked for; a failure offers a retry', async () => {
    const api = fakeUsersApi([ana, joao, bia]);
    render(api);
    await screen.findByRole('row', { name: /Ana Souza/ });
    const gate = deferred<void>();
    api.override.set('usersPage', async () => {
      await gate.promise;
      return json(503, { status: 'unavailable', message: 'down' });
    });
    await keys.selectOptions(screen.getByRole('combobox', { name: 'Bloqueio' }), 'true');
    await waitFor(() => expect(grid().closest('[aria-busy]')).toHaveAttribute('aria-busy', 'true'));
    expect(rowNames()).toEqual(['Ana Souza', 'Beatriz Rocha', 'João Lima']);
    gate.resolve();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Não foi possível carregar os usuários.');
    api.override.delete('usersPage');
    await keys.click(within(alert).getByRole('button', { name: 'Tentar novamente' }));
    // The retry asks for the query shown: only the blocked.
    await waitFor(() => expect(rowNames()).toEqual(['João Lima']));
    expect(screen.getByRole('status')).toHaveTextContent('1 usuário');
  });
});

describe('UsersScreen: live presence', () => {
  it('updates a row from the onlineUsers poll, without reloading the list', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const api = fakeUsersApi([ana, bia]);
    const { requests } = render(api);
    const biaRow = await screen.findByRole('row', { name: /Beatriz Rocha/ });
    expect(within(biaRow).getByText('Offline')).toBeInTheDocument();
    api.users = api.users.map((u) => ({ ...u, isConnected: u.id === bia.id }));
    act(() => vi.advanceTimersByTime(15_000));
    await waitFor(() =>
      expect(within(screen.getByRole('row', { name: /Beatriz Rocha/ })).getByText('Online')).toBeInTheDocument(),
    );
    expect(within(screen.getByRole('row', { name: /Ana Souza/ })).getByText('Offline')).toBeInTheDocument();
    expect(requests.filter((r) => operationOf(r)?.name === 'usersPage')).toHaveLength(1);
    expect(requests.filter((r) => operationOf(r)?.name === 'onlineUsers')).toHaveLength(1);
  });
});
