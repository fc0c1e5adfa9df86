// @vitest-environment jsdom
import { act, screen, waitFor, within } from '@testing-library/react';
import ptBR from '../../../i18n/pt-BR.json';
import { formatDateTime } from '../../../domain/format';
import { json, type Responder } from '../../../machines/test-support/fake-fetch';
import { supportUser } from '../../../machines/test-support/support-fixtures';
import type { User } from '../../../machines/session/session-storage';
import { ADMIN_USER, renderApp, renderWithServices, type RenderedApp } from '../../test-support/render';
import { setupUser } from '../../test-support/user-event';
import SupportScreen from './support';

const keys = setupUser();

let view: RenderedApp | undefined;
afterEach(() => {
  view?.unmount();
  view = undefined;
});

const joana = supportUser({
  id: 12,
  lastSignInAt: new Date(Date.now() - 3 * 3600_000).toISOString(),
  isConnected: true,
  twoFactorEnabled: true,
});
const pedro = supportUser({
  id: 13,
  name: 'Pedro Lima',
  username: 'pedro',
  email: 'pedro@drogaria.test',
  tenantName: 'drogaria-sul',
  tenantDeleted: true,
  role: { id: 3, name: 'gerente', display_name: 'Gerente' },
  blocked: true,
  twoFactorEnrolmentRequired: true,
  lastSignInAt: null,
  deletedAt: '2026-11-20T15:00:00.000Z',
});

/** The desk's search as a fake server: every query answered with the people whose name or e-mail holds it. */
function searchApi(people = [joana, pedro], status = 200): Responder {
  return (request) => {
    if (request.method === 'GET' && request.path === '/api/support/users') {
      if (status !== 200) return json(status, { message: 'Server error' });
      const q = (request.query.get('q') ?? '').toLowerCase();
      return json(200, {
        data: people.filter((p) => p.name.toLowerCase().includes(q) || p.email.includes(q)),
        limit: Number(request.query.get('limit')),
      });
    }
    return json(404, { message: `no fake for ${request.method} ${request.path}` });
  };
}

function render(path = '/support', respond = searchApi()) {
  view = renderWithServices(<SupportScreen />, { path, signedIn: {}, respond });
  return view;
}

const searches = () => view?.requests.filter((r) => r.path === '/api/support/users') ?? [];

describe('SupportScreen', () => {
  it('starts with the box focused and says what to type', () => {
    render();
    expect(screen.getByRole('searchbox', { name: ptBR.support.search.label })).toHaveFocus();
    expect(screen.getByText(ptBR.support.search.emptyTitle)).toBeInTheDocument();
    expect(searches()).toHaveLength(0);
  });

  it('searches as one types, once after the pause, keeps the query in the address and lists every fact', async () => {
    render();
    await keys.type(screen.getByRole('searchbox', { name: ptBR.support.search.label }), 'a');
    const grid = await screen.findByRole('grid', { name: ptBR.support.search.tableLabel });
    await waitFor(() => expect(within(grid).getAllByRole('row')).toHaveLength(3));
    expect(searches().map((r) => r.query.get('q'))).toEqual(['a']);
    expect(view?.location()).toBe('/support?q=a');
    const [, first, second] = within(grid).getAllByRole('row');
    expect(within(first!).getByRole('link', { name: 'Abrir Joana Silva' })).toHaveAttribute(
      'href',
      '/support/users/12?q=a',
    );
    for (const text of [
      'joana@farmacia.test',
      'joana.silva',
      'farmacia-central',
      'Operador',
      'Ativa',
      'Online',
      'há 3 horas',
    ])
      expect(first).toHaveTextContent(text);
    expect(first).toHaveTextContent(formatDateTime(joana.lastSignInAt ?? '', 'pt-BR'));
    for (const text of [
      'Pedro Lima',
      'drogaria-sul',
      ptBR.support.values.tenantDeleted,
      'Gerente',
      ptBR.support.values.blocked,
      ptBR.support.values.twoFactorRequired,
      ptBR.support.values.never,
      'Excluído em 20/11/2026 12:00',
    ])
      expect(second).toHaveTextContent(text);
    expect(screen.getByRole('status')).toHaveTextContent('2 pessoas encontradas para “a”.');
  });

  it('opens the person page with Enter on a row, remembering the search', async () => {
    render('/support?q=joana');
    const grid = await screen.findByRole('grid', { name: ptBR.support.search.tableLabel });
    await waitFor(() => expect(within(grid).getAllByRole('row')).toHaveLength(2));
    act(() => within(grid).getAllByRole('row')[1]?.focus());
    await keys.keyboard('{Enter}');
    expect(view?.location()).toBe('/support/users/12?q=joana');
  });

  it('searches the query of the address on arrival, and shows its own state when nobody matches', async () => {
    render('/support?q=ninguem');
    expect(
      await screen.findByText(ptBR.support.search.noMatchHint.replace('{{query}}', 'ninguem')),
    ).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent(ptBR.support.search.noMatchTitle);
    expect(screen.getByRole('searchbox', { name: ptBR.support.search.label })).toHaveValue('ninguem');
  });

  it('shows why a search failed, and tries again', async () => {
    let status = 500;
    render('/support?q=jo', (request) => searchApi([joana], status)(request));
    expect(await screen.findByText(ptBR.support.errors.search)).toBeInTheDocument();
    expect(screen.getByText(ptBR.apiErrors.server)).toBeInTheDocument();
    status = 200;
    await keys.click(screen.getByRole('button', { name: ptBR.common.retry }));
    expect(await screen.findByRole('link', { name: 'Abrir Joana Silva' })).toBeInTheDocument();
  });

  it('on a phone, stacks the facts into three columns: who, how they stand, last sign-in', async () => {
    vi.stubGlobal('matchMedia', (query: string) => ({
      matches: query === '(max-width: 47.99rem)',
      media: query,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
    }));
    try {
      render('/support?q=pedro');
      const grid = await screen.findByRole('grid', { name: ptBR.support.search.tableLabel });
      await waitFor(() => expect(within(grid).getAllByRole('row')).toHaveLength(2));
      expect(
        within(grid)
          .getAllByRole('columnheader')
          .map((h) => h.textContent),
      ).toEqual([ptBR.support.columns.name, ptBR.support.columns.status, ptBR.support.columns.lastSignIn]);
      const row = within(grid).getAllByRole('row')[1];
      for (const text of [
        'pedro@drogaria.test',
        'pedro',
        `drogaria-sul (${ptBR.support.values.tenantDeleted}) · Gerente`,
        ptBR.support.values.blocked,
        ptBR.support.values.twoFactorRequired,
        ptBR.support.values.offline,
        'Excluído em 20/11/2026 12:00',
        ptBR.support.values.never,
      ])
        expect(row).toHaveTextContent(text);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('clearing the box goes back to the empty state and drops the query from the address', async () => {
    render('/support?q=joana');
    await screen.findByRole('link', { name: 'Abrir Joana Silva' });
    await keys.clear(screen.getByRole('searchbox', { name: ptBR.support.search.label }));
    expect(await screen.findByText(ptBR.support.search.emptyTitle)).toBeInTheDocument();
    expect(view?.location()).toBe('/support');
  });
});

const CUSTOMER_ADMIN: User = { ...ADMIN_USER, id: 5, tenantName: 'farmacia-central', origin_backoffice: false };
const STAFF_AGENT: User = {
  ...ADMIN_USER,
  id: 6,
  role: { id: 4, name: 'suporte', display_name: 'Suporte', version: 1, has_permission_routes: ['users'] },
};

function shellApi(me: User): Responder {
  return (request) => {
    const route = `${request.method} ${request.path}`;
    if (route === 'GET /api/auth/userInfo')
      return json(200, { user: me, has_permission_routes: me.role.has_permission_routes });
    if (route === 'GET /api/permission/email') return json(200, []);
    if (route === 'GET /api/tenant/false') return json(200, [{ id: 1, name: me.tenantName }]);
    return searchApi()(request);
  };
}

describe('who may open the desk: the guard and the menu ask the same rule', () => {
  it('back-office staff holding `users` see "Atendimento" in the menu and open it', async () => {
    view = renderApp({
      path: '/support',
      respond: shellApi(STAFF_AGENT),
      signedIn: { user: STAFF_AGENT, permittedRoutes: ['users'] },
    });
    expect(await screen.findByRole('searchbox', { name: ptBR.support.search.label })).toBeInTheDocument();
    const nav = await screen.findByRole('navigation', { name: ptBR.shell.mainNavigation });
    expect(await within(nav).findByRole('link', { name: ptBR.menu.sections.support })).toHaveAttribute(
      'href',
      '/backoffice/support',
    );
  });

  it("a customer tenant's administrador (every permission, not staff) is refused and offered no menu entry", async () => {
    view = renderApp({
      path: '/support/users/12',
      tenant: 'farmacia-central',
      respond: shellApi(CUSTOMER_ADMIN),
      signedIn: { user: CUSTOMER_ADMIN, permittedRoutes: ['users'] },
    });
    await waitFor(() => expect(view?.location()).toBe('/farmacia-central/pages/not-authorized?page=support-person'));
    expect(await screen.findByRole('heading', { level: 1, name: ptBR.pages.notAuthorized.title })).toBeInTheDocument();
    expect(searches()).toHaveLength(0);
  });

  it('staff without `users` see no entry', async () => {
    const noUsers: User = { ...STAFF_AGENT, role: { ...STAFF_AGENT.role, has_permission_routes: ['audit'] } };
    view = renderApp({
      path: '/',
      respond: shellApi(noUsers),
      signedIn: { user: noUsers, permittedRoutes: ['audit'] },
    });
    const nav = await screen.findByRole('navigation', { name: ptBR.shell.mainNavigation });
    expect(await within(nav).findByRole('link', { name: ptBR.menu.sections.audit })).toBeInTheDocument();
    expect(within(nav).queryByRole('link', { name: ptBR.menu.sections.support })).toBeNull();
  });
});
