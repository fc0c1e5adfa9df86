import { routes, getHref } from '../../src/domain/paths';
import { apiLogin } from './support/api';
import { pageTitle, signIn, tenantPath } from './support/app';
import { expect, test } from './support/fixtures';
import { t } from './support/i18n';

/** A role id to open /roles/edit/:id with, read from the server (the first role of the list). */
async function aRoleId(origin: string, who: { email: string; password: string }): Promise<number> {
  const api = await apiLogin(origin, who.email, who.password);
  const roles = await api.graphql<{ roles: { id: string | number }[] }>('query roles { roles { id } }', {}, 'roles');
  const id = Number(roles.roles[0]?.id);
  expect(id).toBeGreaterThan(0);
  return id;
}

/** The tab title of a route (use-document-title.ts): the page, then the product. */
const documentTitle = (titleKey: string) => `${t(titleKey)} · ${t('app.name')}`;

const mainRoutes = routes.filter((r) => r.layout === 'main');
// The open pages: `blank` ones and the `page` ones (the shell when signed in, docs/panel.md).
const blankRoutes = routes.filter((r) => r.layout !== 'main' && r.name !== 'login');

test.describe('routes', () => {
  test('administrador opens every main-layout route and sees its title', async ({ page, app }) => {
    const roleId = await aRoleId(app.origin, app.admin);
    await signIn(page, app.origin, app.admin);
    for (const route of mainRoutes) {
      const href =
        route.name === 'roles-edit'
          ? getHref('roles-edit', { id: roleId })
          : route.name === 'support-person'
            ? getHref('support-person', { id: 1 })
            : route.path;
      await page.goto(`${app.origin}${tenantPath(href)}`);
      await expect(page, `${route.name} stays on its address`).toHaveURL((url) => url.pathname === tenantPath(href));
      await expect(pageTitle(page), route.name).toHaveText(t(route.titleKey));
      await expect(page).toHaveTitle(documentTitle(route.titleKey));
    }
  });

  test('the blank-layout pages open for anyone, signed out', async ({ page, app }) => {
    for (const route of blankRoutes) {
      await page.goto(`${app.origin}${tenantPath(route.path)}`);
      await expect(page).toHaveURL((url) => url.pathname === tenantPath(route.path));
      await expect(page).toHaveTitle(documentTitle(route.titleKey));
      await expect(page.getByRole('heading', { level: 1 }), route.name).toBeVisible();
    }
  });

  test('an unknown path goes to the 404 page, signed in or not', async ({ page, app }) => {
    await page.goto(`${app.origin}${tenantPath('/no/such/page')}`);
    await expect(page).toHaveURL((url) => url.pathname === tenantPath('/pages/error-404'));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(t('pages.notFound.title'));
    await signIn(page, app.origin, app.admin);
    await page.goto(`${app.origin}${tenantPath('/users/extra')}`);
    await expect(page).toHaveURL((url) => url.pathname === tenantPath('/pages/error-404'));
  });

  test('operador is sent to not-authorized on checked routes it lacks, and opens the ones it has', async ({
    page,
    app,
  }) => {
    // What the operador may open is the server's answer (has_permission_routes), not a copy of it.
    const response = await fetch(`${app.origin}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: app.operator.email, password: app.operator.password, ip: null }),
    });
    const { has_permission_routes: permitted } = (await response.json()) as { has_permission_routes: string[] };
    const checked = mainRoutes.filter((r) => r.rule !== 'all' && r.name !== 'roles-edit');
    const denied = checked.filter((r) => !permitted.includes(r.name));
    const allowed = checked.filter((r) => permitted.includes(r.name));
    // The demo operador is "dashboards and reports only": both lists must be non-empty to prove anything.
    expect(denied.length).toBeGreaterThan(0);
    expect(allowed.length).toBeGreaterThan(0);

    await signIn(page, app.origin, app.operator);
    for (const route of denied) {
      await page.goto(`${app.origin}${tenantPath(route.path)}`);
      await expect(page, `${route.name} is refused`).toHaveURL(
        (url) => url.pathname === tenantPath('/pages/not-authorized'),
      );
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(t('pages.notAuthorized.title'));
    }
    for (const route of allowed) {
      await page.goto(`${app.origin}${tenantPath(route.path)}`);
      await expect(pageTitle(page), route.name).toHaveText(t(route.titleKey));
      await expect(page).toHaveURL((url) => url.pathname === tenantPath(route.path));
    }
    // Routes open to all stay open to the operador too.
    for (const route of mainRoutes.filter((r) => r.rule === 'all')) {
      await page.goto(`${app.origin}${tenantPath(route.path)}`);
      await expect(pageTitle(page), route.name).toHaveText(t(route.titleKey));
    }
    // The menu offers none of the refused screens.
    const nav = page.getByRole('navigation', { name: t('shell.mainNavigation') });
    for (const route of denied)
      await expect(nav.getByRole('link', { name: t(route.titleKey), exact: true })).toHaveCount(0);
  });
});
