import { mkdirSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { apiLogin, type Api } from './support/api';
import { signIn, tenantPath } from './support/app';
import { seriousViolations, useTheme } from './support/axe';
import { expect, test } from './support/fixtures';
import { t } from './support/i18n';
import { createTenant, uniquePrefix } from './support/tenants';
import { createRoleWith, createUserWithRole } from './support/users';

/**
 * The home (docs/panel.md, Home): what needs attention, each item linking to where it is fixed, the
 * starred pages as tiles, and the empty state when nothing needs attention. axe light and dark.
 */
test.use({ bypassCSP: true });

async function tenantId(api: Api, name: string): Promise<number> {
  const page = await api.rest<{ data: { id: number; name: string }[] }>('POST', '/api/tenant/paginated', {
    search: name,
    pagination_limit: 10,
  });
  const found = page.data.find((x) => x.name === name);
  if (!found) throw new Error(`tenant ${name} not found`);
  return found.id;
}

/** A tenant of the test's own with `users` users and then a user limit of `limit`. */
async function tenantWithUsers(
  api: Api,
  origin: string,
  admin: { email: string; password: string },
  users: number,
  limit: number,
) {
  const name = await createTenant(api, uniquePrefix('home'));
  const inTenant = await apiLogin(origin, admin.email, admin.password, name);
  for (let i = 0; i < users; i++) await createUserWithRole(inTenant, 'home', admin.password, { name: 'operador' });
  await api.rest('POST', '/api/tenant/set-plan', {
    id: await tenantId(api, name),
    plan: 'starter',
    user: limit,
    ticket: 1000,
  });
  return name;
}

function attentionCard(page: Page) {
  return page
    .getByRole('main')
    .locator('section')
    .filter({ has: page.getByRole('heading', { name: t('home.attention.title') }) });
}

test('the administrador sees a tenant over its user limit and follows the link to it', async ({ page, app }) => {
  const api = await apiLogin(app.origin, app.admin.email, app.admin.password);
  // Four users over a limit of one: more over than any other tenant, so among the first ten.
  const tenant = await tenantWithUsers(api, app.origin, app.admin, 4, 1);
  await signIn(page, app.origin, app.admin);
  const kind = page.getByRole('region', { name: new RegExp(`^${t('home.attention.kinds.tenantsOverUserLimit')}`) });
  const link = kind.getByRole('link', { name: new RegExp(tenant) });
  await expect(link).toBeVisible();
  await expect(link).toContainText(t('home.attention.users', { count: 4, limit: 1 }));
  await link.click();
  await expect(page).toHaveURL(
    (url) => url.pathname === tenantPath('/tenants') && url.searchParams.get('search') === tenant,
  );
  await expect(page.getByRole('main').getByText(tenant, { exact: true }).first()).toBeVisible();
});

test('starred pages are the home’s tiles', async ({ page, app }) => {
  await signIn(page, app.origin, app.admin, '/audit');
  await page.getByRole('button', { name: t('shell.starPage') }).click();
  await expect(page.getByRole('button', { name: t('shell.unstarPage') })).toBeVisible();
  await page.goto(`${app.origin}${tenantPath('/')}`);
  const starred = page
    .getByRole('main')
    .locator('section')
    .filter({ has: page.getByRole('heading', { name: t('home.starred') }) });
  const tile = starred.getByRole('link', { name: t('routes.audit') });
  await expect(tile).toBeVisible();
  // The menu's sections are not repeated as tiles.
  await expect(page.getByRole('main').getByRole('link', { name: t('routes.users'), exact: true })).toHaveCount(0);
  await tile.click();
  await expect(page).toHaveURL((url) => url.pathname === tenantPath('/audit'));
});

test('a customer whose tenant needs nothing sees the empty state', async ({ page, app }) => {
  const api = await apiLogin(app.origin, app.admin.email, app.admin.password);
  const tenant = await createTenant(api, uniquePrefix('homeok'));
  const role = await createRoleWith(api, 'home', ['tenants']);
  const inTenant = await apiLogin(app.origin, app.admin.email, app.admin.password, tenant);
  const user = await createUserWithRole(inTenant, 'homeok', app.admin.password, { id: role.id });
  await page.goto(`${app.origin}${tenantPath('/login', tenant)}`);
  await page.getByRole('textbox', { name: t('auth.login.email'), exact: true }).fill(user.email);
  await page.getByRole('textbox', { name: t('auth.login.password'), exact: true }).fill(app.admin.password);
  await page.getByRole('button', { name: t('auth.login.submit'), exact: true }).click();
  await expect(page).toHaveURL((url) => url.pathname === tenantPath('/', tenant));
  await expect(attentionCard(page).getByText(t('home.attention.empty'))).toBeVisible();
});

for (const theme of ['light', 'dark'] as const) {
  test(`home with items, ${theme}: axe finds no serious or critical violation; screenshots`, async ({ page, app }) => {
    await useTheme(page, theme);
    const api = await apiLogin(app.origin, app.admin.email, app.admin.password);
    await tenantWithUsers(api, app.origin, app.admin, 2, 1);
    await signIn(page, app.origin, app.admin);
    await expect(
      page.getByRole('region', { name: new RegExp(`^${t('home.attention.kinds.tenantsOverUserLimit')}`) }),
    ).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    if (process.env.HOME_SHOTS) {
      mkdirSync(process.env.HOME_SHOTS, { recursive: true });
      for (const width of [1366, 390]) {
        await page.setViewportSize({ width, height: width === 390 ? 844 : 768 });
        await page
          .getByRole('alert')
          .filter({ hasText: t('auth.login.successTitle') })
          .waitFor({ state: 'detached' })
          .catch(() => undefined);
        await page.screenshot({ path: `${process.env.HOME_SHOTS}/home-after-${width}-${theme}.png`, fullPage: true });
      }
    }
  });
}
