// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import { setupUser } from '../../../test-support/user-event';
import { Route } from 'wouter';
import type { PermissionCategory } from '../../../../machines/roles/role-permissions.machine';
import type { Role } from '../../../../machines/roles/roles.machine';
import { deferred, json, type SeenRequest } from '../../../../machines/test-support/fake-fetch';
import { Link } from '../../../components/link';
import { appToasts } from '../../../components/toast-queue';
import type { User } from '../../../../machines/session/session-storage';
import { ADMIN_USER, renderWithServices, type RenderedApp } from '../../../test-support/render';
import RolesEditScreen from './roles-edit';

const keys = setupUser();

const categories: PermissionCategory[] = [
  {
    category: 'gestao',
    permissions: [
      { id: 1, route_name: 'users', display_name: 'Usuários', category: 'gestao' },
      { id: 2, route_name: 'tenants', display_name: 'Empresas', category: 'gestao' },
    ],
  },
  {
    category: 'dashboard',
    permissions: [
      { id: 5, route_name: 'dashboard-analytics', display_name: 'Painel analítico', category: 'dashboard' },
    ],
  },
];
const operador: Role = {
  id: 2,
  name: 'operador',
  display_name: 'Operador',
  has_permission_routes: ['dashboard-analytics'],
  version: 1,
};
const admin: Role = {
  id: 1,
  name: 'administrador',
  display_name: 'Administrador',
  version: 1,
  has_permission_routes: [],
};

let view: RenderedApp | undefined;
afterEach(() => {
  view?.unmount();
  view = undefined;
  appToasts.clear();
});

type Answer = (r: SeenRequest) => Response | Promise<Response> | undefined;

function render(
  id: string,
  role: Role | null,
  answer: Answer = () => undefined,
  signedIn: { user?: User; permittedRoutes?: string[] } = {},
  tenant?: string,
) {
  view = renderWithServices(
    <>
      {/* As the shell renders it (src/app/router.tsx): inside a <Route> of its table path. */}
      <Route path="/roles/edit/:id">
        <RolesEditScreen />
      </Route>
      <Link href="/users">Ir para usuários</Link>
    </>,
    {
      path: `/roles/edit/${id}`,
      signedIn,
      ...(tenant ? { tenant } : {}),
      respond: (r) => {
        const custom = answer(r);
        if (custom) return custom;
        if (r.path === `/api/roles/${id}` && r.method === 'GET')
          return role ? json(200, role) : json(404, { message: 'Role not found' });
        if (r.path === '/api/permission/categories') return json(200, categories);
        return json(404, { message: 'no fake' });
      },
    },
  );
  return view;
}

const toasts = () => appToasts.visibleToasts.map((t) => [t.content.variant, t.content.title, t.content.description]);
const box = (name: string) => screen.getByRole('checkbox', { name });

describe('RolesEditScreen', () => {
  it('loads the role and shows its permissions by category with counts', async () => {
    const answer = deferred<Response>();
    render('2', operador, (r) => (r.path === '/api/roles/2' ? answer.promise : undefined));
    expect(screen.getByRole('progressbar', { name: 'Carregando…' })).toBeInTheDocument();
    answer.resolve(json(200, operador));
    expect(await screen.findByRole('heading', { level: 2, name: 'Operador' })).toBeInTheDocument();
    expect(screen.getByText('1 de 3 permissões selecionadas')).toBeInTheDocument();
    const gestao = screen.getByRole('region', { name: 'Gestão' });
    expect(within(gestao).getByText('0 de 2')).toBeInTheDocument();
    expect(within(screen.getByRole('region', { name: 'Painéis' })).getByText('1 de 1')).toBeInTheDocument();
    expect(box('Análises')).toBeChecked();
    expect(box('Usuários')).not.toBeChecked();
    expect(screen.getByRole('status')).toHaveTextContent('Nenhuma alteração pendente.');
    expect(screen.getByRole('button', { name: 'Salvar permissões' })).toBeDisabled();
  });

  it('names each permission as the menu names its page, never by its route name (docs/product.md, Glossary)', async () => {
    const withUnknown: PermissionCategory[] = [
      ...categories,
      {
        category: 'relatorios',
        permissions: [
          { id: 9, route_name: 'dashboard-report-smart', display_name: 'Relatório Smart', category: 'relatorios' },
          { id: 10, route_name: 'report-new', display_name: 'Relatório novo', category: 'relatorios' },
        ],
      },
    ];
    render('2', operador, (r) => (r.path === '/api/permission/categories' ? json(200, withUnknown) : undefined));
    await screen.findByRole('heading', { level: 2, name: 'Operador' });
    // The page titles of src/i18n (routes.*), not the server's display names.
    expect(box('Análises')).toBeChecked();
    expect(box('Empresas')).not.toBeChecked();
    expect(box('Relatório inteligente')).not.toBeChecked();
    // A route the panel does not know keeps the server's display name.
    expect(box('Relatório novo')).not.toBeChecked();
    const main = document.body.textContent ?? '';
    for (const route of withUnknown.flatMap((c) => c.permissions.map((p) => p.route_name))) {
      expect(main).not.toContain(route);
    }
    expect(main).not.toContain('Smart');
  });

  it('toggles one permission and a whole category, saves with a pending state and toasts', async () => {
    const user = setupUser();
    const held = deferred<Response>();
    const { requests } = render('2', operador, (r) => (r.path === '/api/permission/update' ? held.promise : undefined));
    await user.click(await screen.findByRole('checkbox', { name: 'Usuários' }));
    expect(screen.getByRole('checkbox', { name: 'Selecionar todas as permissões de Gestão' })).toBePartiallyChecked();
    await user.click(screen.getByRole('checkbox', { name: 'Selecionar todas as permissões de Gestão' }));
    expect(box('Empresas')).toBeChecked();
    expect(screen.getByRole('status')).toHaveTextContent('Há alterações não salvas.');
    await user.click(screen.getByRole('button', { name: 'Salvar permissões' }));
    expect(screen.getByRole('button', { name: /Salvar permissões/ })).toHaveAttribute('aria-busy', 'true');
    expect(screen.getByRole('progressbar', { name: 'Salvando permissões…' })).toBeInTheDocument();
    expect(box('Usuários')).toHaveAttribute('aria-readonly', 'true');
    const body = requests.find((r) => r.path === '/api/permission/update')?.body;
    expect(body).toEqual({ roleId: 2, permissions: ['dashboard-analytics', 'tenants', 'users'], version: 1 });
    held.resolve(json(200, { ...operador, has_permission_routes: ['dashboard-analytics', 'tenants', 'users'] }));
    await waitFor(() => expect(toasts()).toEqual([['success', 'Permissões salvas.', undefined]]));
    expect(screen.getByRole('status')).toHaveTextContent('Nenhuma alteração pendente.');
    expect(screen.getByText('3 de 3 permissões selecionadas')).toBeInTheDocument();
  });

  it('keeps the edits and says why when the save fails; discard restores the saved set', async () => {
    const user = setupUser();
    render('2', operador, (r) =>
      r.path === '/api/permission/update' ? json(403, { message: 'Forbidden' }) : undefined,
    );
    await user.click(await screen.findByRole('checkbox', { name: 'Análises' }));
    await user.click(screen.getByRole('button', { name: 'Salvar permissões' }));
    await waitFor(() =>
      expect(toasts()).toEqual([
        ['error', 'Não foi possível salvar as permissões.', 'Você não tem permissão para esta ação.'],
      ]),
    );
    expect(box('Análises')).not.toBeChecked();
    expect(screen.getByRole('status')).toHaveTextContent('Há alterações não salvas.');
    await user.click(screen.getByRole('button', { name: 'Descartar alterações' }));
    expect(box('Análises')).toBeChecked();
    expect(screen.getByRole('status')).toHaveTextContent('Nenhuma alteração pendente.');
  });

  it('holds a link click while there are unsaved changes until the user decides, and warns on unload', async () => {
    const user = setupUser();
    const rendered = render('2', operador);
    await user.click(await screen.findByRole('checkbox', { name: 'Usuários' }));
    const unload = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(unload);
    expect(unload.defaultPrevented).toBe(true);
    await user.click(screen.getByRole('link', { name: 'Ir para usuários' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Sair sem salvar?' });
    await user.click(within(dialog).getByRole('button', { name: 'Continuar editando' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(rendered.location()).toBe('/roles/edit/2');
    expect(box('Usuários')).toBeChecked();
    await user.click(screen.getByRole('link', { name: 'Ir para usuários' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Sair sem salvar' }));
    await waitFor(() => expect(rendered.location()).toBe('/users'));
  });

  it('lets links go at once when nothing is unsaved', async () => {
    const user = setupUser();
    const rendered = render('2', operador);
    await screen.findByRole('checkbox', { name: 'Usuários' });
    const unload = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(unload);
    expect(unload.defaultPrevented).toBe(false);
    await user.click(screen.getByRole('link', { name: 'Ir para usuários' }));
    await waitFor(() => expect(rendered.location()).toBe('/users'));
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  it('renames the role from its header', async () => {
    const user = setupUser();
    const { requests } = render('2', operador, (r) =>
      r.method === 'PUT' ? json(200, { ...operador, display_name: 'Operador de loja' }) : undefined,
    );
    await user.click(await screen.findByRole('button', { name: 'Renomear' }));
    const field = within(await screen.findByRole('dialog', { name: 'Renomear função' })).getByRole('textbox', {
      name: /Nome/,
    });
    await user.clear(field);
    await user.type(field, 'Operador de loja');
    await user.click(screen.getByRole('button', { name: 'Salvar nome' }));
    expect(await screen.findByRole('heading', { level: 2, name: 'Operador de loja' })).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(requests.find((r) => r.method === 'PUT')).toMatchObject({
      path: '/api/roles/2',
      body: { display_name: 'Operador de loja' },
    });
    expect(toasts()).toEqual([['success', 'Função renomeada.', undefined]]);
  });

  it('shows the administrador read-only, every permission granted', async () => {
    render('1', admin);
    expect(await screen.findByText('A função administrador sempre tem todas as permissões.')).toBeInTheDocument();
    expect(screen.getByText('Somente leitura')).toBeInTheDocument();
    for (const name of ['Usuários', 'Empresas', 'Análises']) expect(box(name)).toBeChecked();
    expect(box('Usuários')).toHaveAttribute('aria-readonly', 'true');
    expect(screen.queryByRole('button', { name: 'Salvar permissões' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Renomear' })).toBeNull();
  });

  it.each([
    ['an unknown id', '77'],
    ['an id that is not a number', 'abc'],
  ])('says the role does not exist for %s and links back to the list', async (_, id) => {
    const { requests } = render(id, null);
    expect(await screen.findByRole('region', { name: 'Função não encontrada' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Voltar para as funções' })).toHaveAttribute('href', '/roles/list');
    if (id === 'abc') expect(requests.filter((r) => r.path.startsWith('/api/roles'))).toEqual([]);
  });

  it('says why the load failed and retries', async () => {
    let fail = true;
    const user = setupUser();
    render('2', operador, (r) =>
      r.path === '/api/roles/2' && fail ? json(503, { status: 'unavailable', message: 'down' }) : undefined,
    );
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Não foi possível carregar as funções.Serviço indisponível. Tente mais tarde.');
    fail = false;
    await user.click(within(alert).getByRole('button', { name: 'Tentar novamente' }));
    expect(await screen.findByRole('heading', { level: 2, name: 'Operador' })).toBeInTheDocument();
  });
});

describe('RolesEditScreen: who may change what', () => {
  /** Staff holding the user and dashboard permissions and the role editor, not `tenants`. */
  const editor: User = {
    ...ADMIN_USER,
    id: 5,
    role: { id: 4, name: 'editor', display_name: 'Editor', version: 1, has_permission_routes: [] },
  };
  const editorRoutes = ['users', 'dashboard-analytics', 'roles-list', 'roles-edit'];

  const note = 'As permissões que você não tem aparecem desativadas: você não pode dá-las a uma função nem tirá-las.';
  /** The lock drawn beside a permission's box (permission-category.tsx). */
  const hasLock = (routeName: string) => {
    const permission = document.querySelector(`[data-route="${routeName}"]`);
    if (!permission) throw new Error(`no permission ${routeName}`);
    return permission.querySelector(':scope > svg') !== null;
  };

  it('a permission the editor lacks is disabled with why; one it holds can be added, and taken off', async () => {
    const saved: unknown[] = [];
    render(
      '2',
      operador,
      (r) => {
        if (r.path !== '/api/permission/update') return undefined;
        saved.push(r.body);
        return json(200, { ...operador, has_permission_routes: (r.body as { permissions: string[] }).permissions });
      },
      { user: editor, permittedRoutes: editorRoutes },
    );
    await screen.findByRole('heading', { level: 2, name: 'Operador' });
    expect(screen.getByText(note)).toBeInTheDocument();
    expect(box('Empresas')).toBeDisabled();
    expect(box('Empresas')).toHaveAccessibleDescription(note);
    expect(hasLock('tenants')).toBe(true);
    expect(box('Usuários')).toBeEnabled();
    expect(hasLock('users')).toBe(false);
    // Select-all of the category adds only what the editor holds.
    await keys.click(screen.getByRole('checkbox', { name: 'Selecionar todas as permissões de Gestão' }));
    expect(box('Usuários')).toBeChecked();
    expect(box('Empresas')).not.toBeChecked();
    await keys.click(box('Análises'));
    await keys.click(screen.getByRole('button', { name: 'Salvar permissões' }));
    await waitFor(() => expect(saved).toEqual([{ roleId: 2, permissions: ['users'], version: 1 }]));
  });

  it('a permission the editor lacks that the role holds stays checked and locked: select-all and save leave it', async () => {
    const holder: Role = { ...operador, has_permission_routes: ['dashboard-analytics', 'tenants'] };
    const saved: unknown[] = [];
    render(
      '2',
      holder,
      (r) => {
        if (r.path !== '/api/permission/update') return undefined;
        saved.push(r.body);
        return json(200, { ...holder, has_permission_routes: (r.body as { permissions: string[] }).permissions });
      },
      { user: editor, permittedRoutes: editorRoutes },
    );
    await screen.findByRole('heading', { level: 2, name: 'Operador' });
    expect(box('Empresas')).toBeChecked();
    expect(box('Empresas')).toBeDisabled();
    expect(box('Empresas')).toHaveAccessibleDescription(note);
    expect(hasLock('tenants')).toBe(true);
    expect(screen.getByText(note)).toBeInTheDocument();
    const selectAll = () => screen.getByRole('checkbox', { name: 'Selecionar todas as permissões de Gestão' });
    // On: adds `users` (the editor holds it), leaves `tenants` as it is; off: takes `users` away only.
    await keys.click(selectAll());
    expect(box('Usuários')).toBeChecked();
    expect(box('Empresas')).toBeChecked();
    await keys.click(selectAll());
    expect(box('Usuários')).not.toBeChecked();
    expect(box('Empresas')).toBeChecked();
    expect(box('Empresas')).toBeDisabled();
    await keys.click(box('Análises'));
    await keys.click(screen.getByRole('button', { name: 'Salvar permissões' }));
    await waitFor(() => expect(saved).toEqual([{ roleId: 2, permissions: ['tenants'], version: 1 }]));
    expect(box('Empresas')).toBeChecked();
  });

  it("the editor's own role is read-only, saying another administrator must change it", async () => {
    render('4', { ...operador, id: 4, name: 'editor', display_name: 'Editor' }, undefined, {
      user: editor,
      permittedRoutes: editorRoutes,
    });
    await screen.findByRole('heading', { level: 2, name: /Editor/ });
    expect(
      screen.getByText('Esta é a sua função: outro administrador precisa alterar as permissões dela.'),
    ).toBeInTheDocument();
    expect(box('Usuários')).toHaveAttribute('aria-readonly', 'true');
    expect(screen.queryByRole('button', { name: 'Salvar permissões' })).toBeNull();
    // Renaming changes no permission: staff may rename their own role.
    expect(screen.getByRole('button', { name: 'Renomear' })).toBeInTheDocument();
  });

  it('anyone but back-office staff reads roles only: no save, no rename, and a note on who changes them', async () => {
    const customer: User = { ...ADMIN_USER, id: 9, tenantName: 'farmacia', origin_backoffice: false };
    render('2', operador, undefined, { user: customer, permittedRoutes: editorRoutes }, 'farmacia');
    await screen.findByRole('heading', { level: 2, name: /^Operador/ });
    expect(
      screen.getByText('Só a equipe do provedor altera funções: elas valem para todas as empresas.'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Salvar permissões' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Renomear' })).toBeNull();
    expect(screen.queryByRole('checkbox', { name: /Selecionar todas/ })).toBeNull();
  });
});
