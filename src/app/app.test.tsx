// @vitest-environment jsdom
// @test-fresh: the whole app with its toast region (src/ui/components/toast.tsx) and the app-wide toast queue:
// in a module graph an earlier file used, the sign-in's toast once did not render (views lane, shuffled order).
import { act, screen, waitFor, within } from '@testing-library/react';
import { setupUser } from '../ui/test-support/user-event';
import en from '../i18n/en.json';
import ptBR from '../i18n/pt-BR.json';
import { json, type Responder } from '../machines/test-support/fake-fetch';
import type { User } from '../machines/session/session-storage';
import { ADMIN_USER, renderApp, type RenderedApp } from '../ui/test-support/render';

/**
 * The shell over the real machines (session, guard, preferences, socket) and a scripted API:
 * the route redirects, the login messages (docs/product.md, Routes and Errors), the navbar's switches.
 */
const OPERADOR: User = {
  ...ADMIN_USER,
  id: 2,
  name: 'Olívia Operadora',
  email: 'operador@demo.local',
  role: { id: 2, name: 'operador', display_name: 'Operador', version: 1, has_permission_routes: ['dashboard-report'] },
};
const ROLES = [
  { id: 1, name: 'administrador', display_name: 'Administrador', version: 1, has_permission_routes: [] },
  { id: 2, name: 'operador', display_name: 'Operador', version: 1, has_permission_routes: ['dashboard-report'] },
];

function api(login: Responder = () => json(200, loginAnswer(ADMIN_USER)), me: User = ADMIN_USER): Responder {
  return (request) => {
    const route = `${request.method} ${request.path}`;
    if (route === 'POST /api/auth/login') return login(request);
    if (route === 'GET /api/auth/userInfo')
      return json(200, { user: me, has_permission_routes: me.role.has_permission_routes });
    if (route === 'GET /api/permission/email') return json(200, []);
    if (route === 'GET /api/tenant/false')
      return json(200, [
        { id: 1, name: 'backoffice' },
        { id: 2, name: 'farmacia-central' },
      ]);
    if (route === 'GET /api/roles') return json(200, ROLES);
    if (route === 'POST /api/auth/logout') return json(200, { message: 'Logged out' });
    return json(404, { message: `no fake for ${route}` });
  };
}

function loginAnswer(user: User) {
  return {
    access_token: 'T1',
    token_type: 'Bearer',
    expires_in: 900,
    origin_backoffice: user.origin_backoffice,
    has_permission_routes: user.role.has_permission_routes,
    user,
  };
}

let view: RenderedApp | undefined;
afterEach(() => {
  view?.unmount();
  view = undefined;
  document.documentElement.className = '';
});

async function signIn(email = 'admin@demo.local', password = 'Back#Office!Demo') {
  const user = setupUser();
  await user.type(await screen.findByLabelText(ptBR.auth.login.email, { exact: false }), email);
  await user.type(screen.getByLabelText(ptBR.auth.login.password, { exact: false, selector: 'input' }), password);
  await user.click(screen.getByRole('button', { name: ptBR.auth.login.submit }));
  return user;
}

describe('app shell', () => {
  it('sends a signed-out visitor of a protected page to /login?to=…, then back to it after login', async () => {
    view = renderApp({ path: '/roles/list', respond: api() });
    await waitFor(() => expect(view?.location()).toBe('/backoffice/login?to=%2Froles%2Flist'));
    await signIn();
    await waitFor(() => expect(view?.location()).toBe('/backoffice/roles/list'));
    expect(await screen.findByRole('heading', { level: 1, name: ptBR.routes['roles-list'] })).toBeInTheDocument();
    expect(await screen.findByText(ptBR.auth.login.successTitle)).toBeInTheDocument();
    const login = view.requests.find((r) => r.path === '/api/auth/login');
    expect(login?.body).toMatchObject({ email: 'admin@demo.local', password: 'Back#Office!Demo' });
  });

  it('shows the one message for a failed login and stays on the form', async () => {
    view = renderApp({ path: '/login', respond: api(() => json(401, { error: 'invalid_credentials', message: 'x' })) });
    await signIn('admin@demo.local', 'wrong');
    expect(await screen.findByText(ptBR.auth.login.failed)).toBeInTheDocument();
    expect(view.location()).toBe('/backoffice/login');
  });

  it("says a closed company's access has ended, not that the password is wrong, and stays on the form", async () => {
    view = renderApp({
      path: '/login',
      respond: api(() => json(401, { error: 'tenant_deleted', message: 'O acesso desta empresa foi encerrado.' })),
    });
    await signIn();
    expect(await screen.findByText(ptBR.auth.login.tenantDeleted)).toBeInTheDocument();
    expect(screen.queryByText(ptBR.auth.login.failed)).toBeNull();
    expect(view.location()).toBe('/backoffice/login');
    expect(screen.getByRole('button', { name: ptBR.auth.login.submit })).toBeEnabled();
  });

  it('asks for the two-factor code when the server wants it, then signs in', async () => {
    view = renderApp({
      path: '/login',
      respond: api((request) => {
        const otp = (request.body as { otp?: string }).otp;
        if (!otp) return json(401, { error: 'two_factor_required', message: 'code' });
        return otp === '123456'
          ? json(200, loginAnswer(ADMIN_USER))
          : json(401, { error: 'invalid_two_factor_code', message: 'bad' });
      }),
    });
    const user = await signIn();
    const code = await screen.findByLabelText(ptBR.auth.twoFactor.code, { exact: false });
    await user.type(code, '000000');
    await user.click(screen.getByRole('button', { name: ptBR.auth.twoFactor.submit }));
    expect(await screen.findByText(ptBR.auth.twoFactor.invalidCode)).toBeInTheDocument();
    await user.type(screen.getByLabelText(ptBR.auth.twoFactor.code, { exact: false }), '123456');
    await user.click(screen.getByRole('button', { name: ptBR.auth.twoFactor.submit }));
    await waitFor(() => expect(view?.location()).toBe('/backoffice/'));
    expect(await screen.findByRole('heading', { level: 1, name: ptBR.routes.home })).toBeInTheDocument();
  });

  it('says how long to wait when sign-in is throttled', async () => {
    view = renderApp({ path: '/login', respond: api(() => json(429, { message: 'Too many', retry_after: 840 })) });
    await signIn();
    expect(await screen.findByText(ptBR.auth.login.throttled.replace('{{minutes}}', '14'))).toBeInTheDocument();
  });

  it('sends operador to not-authorized on /roles/list and shows it no users, roles or tenants in the menu', async () => {
    view = renderApp({
      path: '/roles/list',
      respond: api(undefined, OPERADOR),
      signedIn: { user: OPERADOR, permittedRoutes: ['dashboard-report'] },
    });
    await waitFor(() => expect(view?.location()).toBe('/backoffice/pages/not-authorized?page=roles-list'));
    expect(await screen.findByRole('heading', { level: 1, name: ptBR.pages.notAuthorized.title })).toBeInTheDocument();
  });

  it('sends unknown paths to the 404 page', async () => {
    view = renderApp({ path: '/no/such/page', respond: api(), signedIn: {} });
    await waitFor(() => expect(view?.location()).toBe('/backoffice/pages/error-404'));
    expect(await screen.findByRole('heading', { level: 1, name: ptBR.pages.notFound.title })).toBeInTheDocument();
  });

  it('shows only the sections the user may open', async () => {
    view = renderApp({
      path: '/',
      respond: api(undefined, OPERADOR),
      signedIn: { user: OPERADOR, permittedRoutes: ['dashboard-report'] },
    });
    const nav = await screen.findByRole('navigation', { name: ptBR.shell.mainNavigation });
    // The sidebar's sections mount after the screen's first paint (src/ui/layouts/main-layout.tsx).
    expect(await within(nav).findByRole('link', { name: ptBR.menu.items.loginFailures })).toBeInTheDocument();
    for (const hidden of [ptBR.routes.users, ptBR.routes['roles-list'], ptBR.routes.tenants])
      expect(within(nav).queryByRole('link', { name: hidden })).toBeNull();
    // Sections without a screen are open to all and go to coming-soon.
    expect(within(nav).getByRole('link', { name: ptBR.menu.sections.campaigns })).toHaveAttribute(
      'href',
      '/backoffice/pages/comingsoon?section=campaigns',
    );
  });

  it('switches language (texts and <html lang>) and theme, and keeps both across a reload', async () => {
    view = renderApp({ path: '/', respond: api(), signedIn: {} });
    const user = setupUser();
    await screen.findByRole('heading', { level: 1, name: ptBR.routes.home });
    // The navbar's switchers mount after the screen's first paint (src/ui/shell/navbar.tsx).
    await user.selectOptions((await screen.findAllByLabelText(ptBR.shell.language))[0] as HTMLElement, 'en');
    expect(await screen.findByRole('heading', { level: 1, name: en.routes.home })).toBeInTheDocument();
    expect(document.documentElement.lang).toBe('en');
    const before = document.documentElement.className;
    await user.click(screen.getByRole('button', { name: en.shell.toggleTheme }));
    await waitFor(() => expect(document.documentElement.className).not.toBe(before));
    expect(JSON.parse(window.localStorage.getItem('preferences') ?? '{}')).toMatchObject({
      locale: 'en',
      theme: 'dark',
    });
  });

  it('stars the current page into the navbar and un-stars it', async () => {
    view = renderApp({ path: '/roles/list', respond: api(), signedIn: {} });
    const user = setupUser();
    await user.click(await screen.findByRole('button', { name: ptBR.shell.starPage }));
    const starred = await screen.findByRole('button', { name: `${ptBR.shell.starred.title} (1/10)` });
    await user.click(starred);
    expect(await screen.findByRole('menuitem', { name: ptBR.routes['roles-list'] })).toBeInTheDocument();
    await act(async () => {
      await user.keyboard('{Escape}');
    });
    await user.click(screen.getByRole('button', { name: ptBR.shell.unstarPage }));
    await waitFor(() =>
      expect(screen.queryByRole('button', { name: `${ptBR.shell.starred.title} (1/10)` })).toBeNull(),
    );
  });

  it('logs out from the user menu and lands on the plain login page (no way back to where it was)', async () => {
    view = renderApp({ path: '/', respond: api(), signedIn: {} });
    const user = setupUser();
    await user.click(await screen.findByRole('button', { name: `${ptBR.shell.userMenu}: ${ADMIN_USER.name}` }));
    await user.click(await screen.findByRole('menuitem', { name: ptBR.shell.logout }));
    await waitFor(() => expect(view?.location()).toBe('/backoffice/login'));
    expect(view.requests.some((r) => r.path === '/api/auth/logout')).toBe(true);
    expect(window.localStorage.getItem('accessToken')).toBeNull();
  });

  it('lists live socket events in the activity feed, with an unread count that opening clears', async () => {
    view = renderApp({ path: '/', respond: api(), signedIn: {} });
    const user = setupUser();
    await screen.findByRole('button', { name: ptBR.activity.title });
    act(() => {
      view?.services.bus.publish({
        name: 'instanceUpdated',
        data: {
          id: 4,
          name: 'WhatsApp Loja 1',
          activated: true,
          tenantName: 'backoffice',
          isOfficial: true,
          isUnlimited: false,
          status: 'syncing',
          syncProgress: 40,
          syncedMessages: 40,
          totalMessages: 100,
          created_at: '2026-01-01T00:00:00Z',
          version: 1,
        },
        tenantName: 'backoffice',
        sentAt: new Date().toISOString(),
      });
    });
    await user.click(
      await screen.findByRole('button', { name: ptBR.activity.openUnread_one.replace('{{count}}', '1') }),
    );
    const feed = await screen.findByRole('dialog', { name: ptBR.activity.title });
    expect(within(feed).getByText(ptBR.activity.events.instanceUpdated)).toBeInTheDocument();
    expect(within(feed).getByText('WhatsApp Loja 1: sincronizando (40%)')).toBeInTheDocument();
    await user.keyboard('{Escape}');
    expect(await screen.findByRole('button', { name: ptBR.activity.title })).toBeInTheDocument();
  });

  it('tells the server about presence: connected when the socket opens, disconnected before logging out', async () => {
    view = renderApp({ path: '/', respond: api(), signedIn: {} });
    const user = setupUser();
    await screen.findByRole('heading', { level: 1, name: ptBR.routes.home });
    const operations = () =>
      (view?.requests ?? []).map((r) =>
        r.path.endsWith('/graphql')
          ? `gql ${(r.body as { operationName?: string }).operationName}`
          : `${r.method} ${r.path}`,
      );
    await waitFor(() => expect(view?.sockets.all.length).toBeGreaterThan(0));
    act(() => view?.sockets.last().open());
    await waitFor(() => expect(operations()).toContain('gql connected'));
    await user.click(await screen.findByRole('button', { name: `${ptBR.shell.userMenu}: ${ADMIN_USER.name}` }));
    await user.click(await screen.findByRole('menuitem', { name: ptBR.shell.logout }));
    await waitFor(() => expect(operations()).toContain('POST /api/auth/logout'));
    const sequence = operations();
    expect(sequence.indexOf('gql disconnected')).toBeGreaterThan(-1);
    expect(sequence.indexOf('gql disconnected')).toBeLessThan(sequence.indexOf('POST /api/auth/logout'));
  });

  it('gives screens their route params through wouter (useParams)', async () => {
    view = renderApp({
      path: '/roles/edit/2',
      signedIn: {},
      respond: (request) => {
        if (request.path === '/api/roles/2') return json(200, ROLES[1]);
        if (request.path === '/api/permission/categories') return json(200, []);
        return api()(request);
      },
    });
    expect(await screen.findByRole('heading', { level: 1, name: ptBR.routes['roles-edit'] })).toBeInTheDocument();
    await waitFor(() => expect(view?.requests.some((r) => r.path === '/api/roles/2')).toBe(true));
  });
});
