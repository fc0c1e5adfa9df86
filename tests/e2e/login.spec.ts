import { apiLogin } from './support/api';
import { signIn, submitLogin, tenantPath, pageTitle } from './support/app';
import { expect, test } from './support/fixtures';
import { toast } from './support/toast';
import { t } from './support/i18n';
import { createTenant, uniquePrefix } from './support/tenants';
import { createUser } from './support/users';

test.describe('login', () => {
  test('a wrong password shows the failure message and stays on the login page', async ({ page, app }) => {
    await page.goto(`${app.origin}${tenantPath('/login')}`);
    await submitLogin(page, { email: app.admin.email, password: `${app.admin.password}-wrong` });
    await expect(page.getByText(t('auth.login.failed'), { exact: true })).toBeVisible();
    await expect(page).toHaveURL((url) => url.pathname === tenantPath('/login'));
    // Nothing was stored: a reload is still signed out.
    expect(await page.evaluate(() => localStorage.getItem('accessToken'))).toBeNull();
  });

  test('success greets the user and lands on the tenant home', async ({ page, app }) => {
    await page.goto(`${app.origin}${tenantPath('/login')}`);
    await submitLogin(page, app.admin);
    const greeting = toast(page, t('auth.login.successTitle'));
    await expect(greeting).toBeVisible();
    await expect(greeting).toContainText(t('auth.login.successBody'));
    await expect(page).toHaveURL((url) => url.pathname === tenantPath('/'));
    await expect(pageTitle(page)).toHaveText(t('routes.home'));
  });

  test('a signed-out visit to a screen asks to sign in, then goes to that screen (`to`)', async ({ page, app }) => {
    await page.goto(`${app.origin}${tenantPath('/roles/list')}?x=1`);
    await expect(page).toHaveURL((url) => url.pathname === tenantPath('/login'));
    expect(new URL(page.url()).searchParams.get('to')).toBe('/roles/list?x=1');
    await submitLogin(page, app.admin);
    await expect(page).toHaveURL((url) => url.pathname === tenantPath('/roles/list') && url.search === '?x=1');
    await expect(pageTitle(page)).toHaveText(t('routes.roles-list'));
  });

  test('an explicit `to` on the login address is followed after sign-in', async ({ page, app }) => {
    await signIn(page, app.origin, app.admin, '/tenants');
    await expect(pageTitle(page)).toHaveText(t('routes.tenants'));
  });
});

test.describe('login: a closed company', () => {
  test('the right password of a user whose company the provider deleted says the access ended, not that the password is wrong', async ({
    page,
    app,
  }) => {
    const api = await apiLogin(app.origin, app.admin.email, app.admin.password);
    const tenant = await createTenant(api, uniquePrefix('closed'));
    const password = 'Pharm#cy!Blue';
    const user = await createUser(
      await apiLogin(app.origin, app.admin.email, app.admin.password, tenant),
      'closed',
      password,
    );
    const { data } = await api.rest<{ data: { id: number; name: string }[] }>('POST', '/api/tenant/paginated', {
      search: tenant,
      pagination_limit: 10,
    });
    const id = data.find((row) => row.name === tenant)?.id;
    if (id === undefined) throw new Error(`tenant ${tenant} not found`);
    await api.rest('POST', '/api/tenant/delete', { id });

    await page.goto(`${app.origin}${tenantPath('/login')}`);
    await submitLogin(page, { email: user.email, password });
    await expect(page.getByText(t('auth.login.tenantDeleted'), { exact: true })).toBeVisible();
    await expect(page.getByText(t('auth.login.failed'), { exact: true })).toHaveCount(0);
    await expect(page).toHaveURL((url) => url.pathname === tenantPath('/login'));
    expect(await page.evaluate(() => localStorage.getItem('accessToken'))).toBeNull();
    // A wrong password of the same user is the usual failure: the closure is told only to who knows the password.
    await submitLogin(page, { email: user.email, password: `${password}-wrong` });
    await expect(page.getByText(t('auth.login.failed'), { exact: true })).toBeVisible();
    await expect(page.getByText(t('auth.login.tenantDeleted'), { exact: true })).toHaveCount(0);
  });
});
