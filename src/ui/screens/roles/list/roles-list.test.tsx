// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import { setupUser } from '../../../test-support/user-event';
import type { Role } from '../../../../machines/roles/roles.machine';
import { deferred, json, type SeenRequest } from '../../../../machines/test-support/fake-fetch';
import { appToasts } from '../../../components/toast-queue';
import { ADMIN_USER, renderWithServices, type RenderedApp } from '../../../test-support/render';
import RolesListScreen from './roles-list';

const keys = setupUser();

const admin: Role = {
  id: 1,
  name: 'administrador',
  display_name: 'Administrador',
  has_permission_routes: ['roles-list', 'users'],
  version: 1,
};
const operador: Role = {
  id: 2,
  name: 'operador',
  display_name: 'Operador',
  has_permission_routes: ['dashboard-analytics', 'dashboard-report'],
  version: 1,
};

let view: RenderedApp | undefined;
afterEach(() => {
  view?.unmount();
  view = undefined;
  appToasts.clear();
});

function render(respond: (r: SeenRequest) => Response | Promise<Response>) {
  view = renderWithServices(<RolesListScreen />, { path: '/roles/list', signedIn: {}, respond });
  return view;
}

const toasts = () => appToasts.visibleToasts.map((t) => t.content.title);
const rolesApi = (roles: Role[]) => (r: SeenRequest) =>
  r.path === '/api/roles' && r.method === 'GET' ? json(200, roles) : json(404, { message: 'no fake' });

describe('RolesListScreen', () => {
  it('shows a loading state, then every role with its route count, the administrador read-only', async () => {
    const answer = deferred<Response>();
    render((r) => (r.path === '/api/roles' ? answer.promise : json(404, {})));
    expect(screen.getByRole('progressbar', { name: 'Carregando registros…' })).toBeInTheDocument();
    answer.resolve(json(200, [admin, operador]));
    const table = await screen.findByRole('grid', { name: 'Funções cadastradas' });
    const adminRow = within(table).getByRole('row', { name: /Administrador/ });
    expect(within(adminRow).getByText('Somente leitura')).toBeInTheDocument();
    expect(within(adminRow).getByText('Todas')).toBeInTheDocument();
    expect(within(adminRow).queryByRole('button', { name: /Renomear/ })).toBeNull();
    expect(within(adminRow).getByRole('link', { name: 'Ver permissões de Administrador' })).toHaveAttribute(
      'href',
      '/roles/edit/1',
    );
    const operadorRow = within(table).getByRole('row', { name: /Operador/ });
    expect(within(operadorRow).getByText('2')).toBeInTheDocument();
    expect(within(operadorRow).getByText('operador')).toBeInTheDocument();
    expect(within(operadorRow).getByRole('link', { name: 'Editar permissões de Operador' })).toHaveAttribute(
      'href',
      '/roles/edit/2',
    );
  });

  it("opens a role's permissions from its row", async () => {
    const rendered = render(rolesApi([admin, operador]));
    await keys.click(await screen.findByText('operador'));
    await waitFor(() => expect(rendered.location()).toBe('/roles/edit/2'));
  });

  it('shows an empty state that offers to create the first role', async () => {
    render(rolesApi([]));
    expect(await screen.findByText('Nenhuma função cadastrada')).toBeInTheDocument();
    await keys.click(screen.getAllByRole('button', { name: 'Nova função' }).at(-1)!);
    expect(await screen.findByRole('dialog', { name: 'Nova função' })).toBeInTheDocument();
  });

  it('says why the list failed and retries', async () => {
    let fail = true;
    render((r) =>
      r.path === '/api/roles'
        ? fail
          ? json(503, { status: 'unavailable', message: 'down' })
          : json(200, [operador])
        : json(404, {}),
    );
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Não foi possível carregar as funções.');
    expect(alert).toHaveTextContent('Serviço indisponível. Tente mais tarde.');
    fail = false;
    await keys.click(within(alert).getByRole('button', { name: 'Tentar novamente' }));
    expect(await screen.findByRole('row', { name: /Operador/ })).toBeInTheDocument();
  });

  it('creates a role with the identifier suggested from its name, closes the dialog and toasts', async () => {
    const user = setupUser();
    const seen = render((r) => {
      if (r.path === '/api/roles' && r.method === 'POST')
        return json(201, { id: 3, ...(r.body as object), has_permission_routes: [] });
      return rolesApi([admin, operador])(r);
    }).requests;
    await screen.findByRole('row', { name: /Operador/ });
    await user.click(screen.getByRole('button', { name: 'Nova função' }));
    const dialog = await screen.findByRole('dialog', { name: 'Nova função' });
    await user.type(within(dialog).getByRole('textbox', { name: /^Nome/ }), 'Gerente de Loja');
    expect(within(dialog).getByRole('textbox', { name: /Identificador/ })).toHaveValue('gerente-de-loja');
    await user.click(within(dialog).getByRole('button', { name: 'Criar função' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(seen.find((r) => r.method === 'POST' && r.path === '/api/roles')?.body).toEqual({
      name: 'gerente-de-loja',
      display_name: 'Gerente de Loja',
    });
    expect(screen.getByRole('row', { name: /Gerente de Loja/ })).toBeInTheDocument();
    expect(toasts()).toEqual(['Função criada.']);
  });

  it('refuses a bad identifier locally and shows the server refusing a duplicate, keeping the dialog open', async () => {
    const user = setupUser();
    const seen = render((r) =>
      r.method === 'POST' && r.path === '/api/roles'
        ? json(409, { message: 'A role with this name already exists', field: 'name' })
        : rolesApi([admin, operador])(r),
    ).requests;
    await screen.findByRole('row', { name: /Operador/ });
    await user.click(screen.getByRole('button', { name: 'Nova função' }));
    const dialog = await screen.findByRole('dialog', { name: 'Nova função' });
    await user.type(within(dialog).getByRole('textbox', { name: /^Nome/ }), 'Operador');
    const identifier = within(dialog).getByRole('textbox', { name: /Identificador/ });
    await user.clear(identifier);
    await user.type(identifier, 'Op Erador');
    await user.click(within(dialog).getByRole('button', { name: 'Criar função' }));
    expect(
      await within(dialog).findByText('Use de 2 a 40 letras minúsculas, números, hífen ou sublinhado.'),
    ).toBeInTheDocument();
    expect(seen.some((r) => r.method === 'POST' && r.path === '/api/roles')).toBe(false);
    await user.clear(identifier);
    await user.type(identifier, 'operador');
    await user.click(within(dialog).getByRole('button', { name: 'Criar função' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'Não foi possível criar a função. A alteração conflita com o estado atual',
    );
    expect(within(dialog).getByText('Já está em uso.')).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Nova função' })).toBeInTheDocument();
    expect(toasts()).toEqual([]);
  });

  it('renames a role from its row and shows the new name', async () => {
    const user = setupUser();
    const rendered = render((r) =>
      r.method === 'PUT'
        ? json(200, { ...operador, display_name: (r.body as { display_name: string }).display_name })
        : rolesApi([admin, operador])(r),
    );
    const seen = rendered.requests;
    await user.click(await screen.findByRole('button', { name: 'Renomear Operador' }));
    const dialog = await screen.findByRole('dialog', { name: 'Renomear função' });
    expect(rendered.location()).toBe('/roles/list');
    const field = within(dialog).getByRole('textbox', { name: /Nome/ });
    expect(field).toHaveValue('Operador');
    await user.clear(field);
    await user.click(within(dialog).getByRole('button', { name: 'Salvar nome' }));
    expect(await within(dialog).findByText('Informe um nome de até 80 caracteres.')).toBeInTheDocument();
    await user.type(field, 'Operador de loja');
    await user.click(within(dialog).getByRole('button', { name: 'Salvar nome' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(seen.filter((r) => r.method === 'PUT').map((r) => [r.path, r.body])).toEqual([
      ['/api/roles/2', { display_name: 'Operador de loja' }],
    ]);
    expect(screen.getByRole('row', { name: /Operador de loja/ })).toBeInTheDocument();
    expect(toasts()).toEqual(['Função renomeada.']);
  });
});

describe('RolesListScreen: deleting a role', () => {
  it('asks first, says why a refused delete failed and keeps the row; deletes an unused role', async () => {
    const caixa: Role = { id: 3, name: 'caixa', display_name: 'Caixa', version: 1, has_permission_routes: [] };
    render((r) => {
      if (r.path === '/api/roles' && r.method === 'GET') return json(200, [admin, operador, caixa]);
      if (r.path === '/api/roles/2') return json(409, { message: '1 user(s) hold this role', field: 'id' });
      if (r.path === '/api/roles/3') return json(200, { message: 'Deleted' });
      return json(404, { message: 'no fake' });
    });
    const table = await screen.findByRole('grid', { name: 'Funções cadastradas' });
    expect(within(table).queryByRole('button', { name: 'Excluir Administrador' })).toBeNull();

    await keys.click(within(table).getByRole('button', { name: 'Excluir Operador' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Excluir função' });
    expect(within(confirm).getByRole('button', { name: 'Cancelar' })).toHaveFocus();
    await keys.click(within(confirm).getByRole('button', { name: 'Excluir' }));
    expect(await within(confirm).findByRole('alert')).toHaveTextContent(
      'Não foi possível excluir a função. Há usuários com esta função (inclusive usuários excluídos). Dê outra função a eles antes de excluí-la.',
    );
    await keys.click(within(confirm).getByRole('button', { name: 'Cancelar' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(within(table).getByRole('row', { name: /Operador/ })).toBeInTheDocument();

    await keys.click(within(table).getByRole('button', { name: 'Excluir Caixa' }));
    const second = await screen.findByRole('alertdialog', { name: 'Excluir função' });
    expect(within(second).queryByRole('alert')).toBeNull();
    await keys.click(within(second).getByRole('button', { name: 'Excluir' }));
    await waitFor(() => expect(within(table).queryByRole('row', { name: /Caixa/ })).toBeNull());
    expect(toasts()).toContain('Função excluída.');
  });
});

describe('RolesListScreen: anyone but back-office staff', () => {
  it('lists the roles to read, offers no create, rename or delete, and says who changes them', async () => {
    view = renderWithServices(<RolesListScreen />, {
      path: '/roles/list',
      tenant: 'farmacia',
      signedIn: { user: { ...ADMIN_USER, id: 9, tenantName: 'farmacia', origin_backoffice: false } },
      respond: rolesApi([admin, operador]),
    });
    const table = await screen.findByRole('grid', { name: 'Funções cadastradas' });
    expect(
      screen.getByText('Só a equipe do provedor altera funções: elas valem para todas as empresas.'),
    ).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Nova função' })).toBeNull();
    const operadorRow = within(table).getByRole('row', { name: /Operador/ });
    expect(within(operadorRow).queryByRole('button')).toBeNull();
    expect(within(operadorRow).getByRole('link', { name: 'Ver permissões de Operador' })).toHaveAttribute(
      'href',
      '/roles/edit/2',
    );
  });
});
