// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import ptBR from '../../../i18n/pt-BR.json';
import { json, type Responder } from '../../../machines/test-support/fake-fetch';
import type { User } from '../../../machines/session/session-storage';
import { ADMIN_USER, renderWithServices, type RenderedApp } from '../../test-support/render';
import ComingSoonScreen from './comingsoon';
import NotAuthorizedScreen from './not-authorized';
import ServerErrorScreen from './server-error';

/** The pages inside the shell (docs/panel.md, Navigation and pages inside the shell). */

const fill = (text: string, values: Record<string, string | number>) =>
  Object.entries(values).reduce((out, [key, value]) => out.replace(`{{${key}}}`, String(value)), text);

const GERENTE: User = {
  ...ADMIN_USER,
  id: 5,
  name: 'Gil Gerente',
  email: 'gil@demo.local',
  role: { id: 3, name: 'gerente', display_name: 'Gerente', version: 1, has_permission_routes: ['users'] },
};
const ROLES = [
  { id: 1, name: 'administrador', display_name: 'Administrador', version: 1, has_permission_routes: [] },
  { id: 3, name: 'gerente', display_name: 'Gerente', version: 1, has_permission_routes: ['users'] },
];

function api(): Responder {
  return (request) => {
    const route = `${request.method} ${request.path}`;
    if (route === 'GET /api/roles') return json(200, ROLES);
    if (route === 'GET /api/users/page') {
      // Only the administradores not blocked, a few.
      if (request.query.get('role') !== '1' || request.query.get('blocked') !== 'false')
        return json(400, { message: `unexpected filter ${request.query.toString()}` });
      return json(200, { data: [ADMIN_USER], total: 7, page: 1, limit: 5, last_page: 2 });
    }
    return json(404, { message: `no fake for ${route}` });
  };
}

let view: RenderedApp | undefined;
afterEach(() => {
  view?.unmount();
  view = undefined;
});

describe('not-authorized page', () => {
  it("names the page's permission and, to a caller who may list users, the tenant's administradores", async () => {
    view = renderWithServices(<NotAuthorizedScreen />, {
      path: '/pages/not-authorized?page=tenants',
      respond: api(),
      signedIn: { user: GERENTE, permittedRoutes: ['users'] },
    });
    const page = screen.getByRole('region', { name: ptBR.pages.notAuthorized.title });
    expect(page).toHaveTextContent(
      fill(ptBR.pages.notAuthorized.needsPermission, { page: ptBR.routes.tenants, permission: 'tenants' }),
    );
    const people = await screen.findByRole('list', { name: ptBR.pages.notAuthorized.grantors });
    expect(within(people).getByRole('link', { name: ADMIN_USER.email })).toHaveAttribute(
      'href',
      `mailto:${ADMIN_USER.email}`,
    );
    expect(people).toHaveTextContent(ADMIN_USER.name);
    expect(people).toHaveTextContent(fill(ptBR.pages.notAuthorized.moreGrantors, { count: 6 }));
  });

  it('names nobody to a caller who may not list users, and asks nothing of the server', async () => {
    view = renderWithServices(<NotAuthorizedScreen />, {
      path: '/pages/not-authorized?page=users',
      respond: api(),
      signedIn: { user: { ...GERENTE, role: { ...GERENTE.role, has_permission_routes: [] } }, permittedRoutes: [] },
    });
    const page = screen.getByRole('region', { name: ptBR.pages.notAuthorized.title });
    expect(page).toHaveTextContent(
      fill(ptBR.pages.notAuthorized.needsPermission, { page: ptBR.routes.users, permission: 'users' }),
    );
    expect(page).toHaveTextContent(ptBR.pages.notAuthorized.askAdmin);
    expect(screen.queryByRole('list')).toBeNull();
    expect(view.requests.filter((r) => r.path === '/api/users/page')).toEqual([]);
  });

  it('says a staff-only page is for back-office staff, and the permission a route borrows', () => {
    view = renderWithServices(<NotAuthorizedScreen />, { path: '/pages/not-authorized?page=support' });
    expect(screen.getByRole('region', { name: ptBR.pages.notAuthorized.title })).toHaveTextContent(
      fill(ptBR.pages.notAuthorized.needsStaff, { page: ptBR.routes.support }),
    );
    view.unmount();
    view = renderWithServices(<NotAuthorizedScreen />, { path: '/pages/not-authorized?page=departments' });
    expect(screen.getByRole('region', { name: ptBR.pages.notAuthorized.title })).toHaveTextContent(
      fill(ptBR.pages.notAuthorized.needsPermission, { page: ptBR.routes.departments, permission: 'users' }),
    );
  });

  it('falls back to the plain sentence without a known page', () => {
    view = renderWithServices(<NotAuthorizedScreen />, { path: '/pages/not-authorized?page=nope' });
    expect(screen.getByRole('region', { name: ptBR.pages.notAuthorized.title })).toHaveTextContent(
      ptBR.pages.notAuthorized.body,
    );
  });
});

describe('coming-soon page', () => {
  it('names the section it stands for', () => {
    view = renderWithServices(<ComingSoonScreen />, { path: '/pages/comingsoon?section=blockedContacts' });
    const section = ptBR.menu.sections.blockedContacts;
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(
      fill(ptBR.pages.comingSoon.sectionTitle, { section }),
    );
    expect(screen.getByText(fill(ptBR.pages.comingSoon.sectionBody, { section }))).toBeInTheDocument();
  });
});

describe('500 page', () => {
  it('/pages/error-500 quotes the `?request=` it was sent with', async () => {
    view = renderWithServices(<ServerErrorScreen />, { path: '/pages/error-500?request=abc-123' });
    await waitFor(() => expect(screen.getByText('abc-123')).toBeInTheDocument());
  });
});
