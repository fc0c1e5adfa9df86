// @vitest-environment jsdom
import { screen, waitFor } from '@testing-library/react';
import { json, type Responder } from '../../machines/test-support/fake-fetch';
import type { User } from '../../machines/session/session-storage';
import { appToasts } from '../components/toast-queue';
import { ADMIN_USER, renderApp, type RenderedApp } from '../test-support/render';

/** A signed-in user on another tenant's address (docs/product.md, Tenants in the address). */
const CUSTOMER: User = {
  ...ADMIN_USER,
  id: 7,
  name: 'Carla Cliente',
  email: 'carla@farmacia.test',
  tenantName: 'farmacia-central',
  origin_backoffice: false,
};

const api =
  (me: User): Responder =>
  (request) => {
    const route = `${request.method} ${request.path}`;
    if (route === 'GET /api/auth/userInfo')
      return json(200, { user: me, has_permission_routes: me.role.has_permission_routes });
    if (route === 'GET /api/permission/email') return json(200, []);
    if (route === 'GET /api/tenant/false') return json(200, [{ id: 1, name: 'backoffice' }]);
    return json(404, { message: `no fake for ${route}` });
  };

let view: RenderedApp | undefined;
afterEach(() => {
  view?.unmount();
  view = undefined;
  appToasts.clear();
});

describe('useOwnTenant (main layout)', () => {
  it('moves a user who is not staff to the same page of its own tenant, says why, and sends GraphQL there', async () => {
    view = renderApp({
      tenant: 'backoffice',
      path: '/two-factor',
      signedIn: { user: CUSTOMER },
      respond: api(CUSTOMER),
    });
    await waitFor(() => expect(view?.location()).toBe('/farmacia-central/two-factor'));
    expect(appToasts.visibleToasts.map((toast) => toast.content)).toContainEqual({
      variant: 'info',
      title: 'Você foi levado ao seu ambiente: farmacia-central',
      description: 'O endereço aberto (backoffice) é de outra empresa; seu acesso é só ao seu ambiente.',
    });
    await screen.findByRole('heading', { level: 1 });
    const graphql = view.requests.filter((r) => r.path.endsWith('/graphql')).map((r) => r.path);
    expect(graphql.every((path) => path === '/farmacia-central/graphql')).toBe(true);
  });

  it('leaves back-office staff on the tenant they opened', async () => {
    view = renderApp({
      tenant: 'farmacia-central',
      path: '/two-factor',
      signedIn: { user: ADMIN_USER },
      respond: api(ADMIN_USER),
    });
    await screen.findByRole('heading', { level: 1 });
    expect(view.location()).toBe('/farmacia-central/two-factor');
    expect(appToasts.visibleToasts).toEqual([]);
  });
});
