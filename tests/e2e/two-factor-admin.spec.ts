import type { Page } from '@playwright/test';
import { apiLogin } from './support/api';
import { credentialsFrom, pageTitle, signIn, submitLogin, tenantPath } from './support/app';
import { startServer, type RunningServer } from './support/server';
import { expect, test } from './support/fixtures';
import { t } from './support/i18n';
import { createTenant, uniquePrefix } from './support/tenants';
import { toast } from './support/toast';
import { createUser } from './support/users';
import {
  JOURNEY_PASSWORD,
  codeField,
  reachEnrolment,
  sendCode,
  totpCode,
  userRequiredToEnrol,
} from './support/two-factor';

/**
 * Two-factor for others (the users row menu), enrolment at sign-in with a real TOTP code, remember me,
 * and the tenant of the address (docs/product.md, Two-factor sign-in, Sessions, Tenants in the address).
 */

/** The seconds a stored token may refresh for: `rxp − iat` of its payload. */
async function storedRefreshWindow(page: Page): Promise<number> {
  const token = await page.evaluate(() => localStorage.getItem('accessToken'));
  const payload = JSON.parse(Buffer.from((token ?? '').split('.')[1] ?? '', 'base64url').toString()) as {
    rxp: number;
    iat: number;
  };
  return payload.rxp - payload.iat;
}

test.describe('two-factor for others', () => {
  test('an administrator requires enrolment from the row menu, which offers only what can succeed, and cancels it', async ({
    page,
    app,
  }) => {
    const api = await apiLogin(app.origin, app.admin.email, app.admin.password);
    const user = await createUser(api, 'req', JOURNEY_PASSWORD);
    await signIn(page, app.origin, app.admin, `/users`);
    await page.getByRole('searchbox').fill(user.name);
    const row = page.getByRole('row', { name: new RegExp(user.name) });
    const more = row.getByRole('button', { name: t('users.actions.more', { name: user.name }) });
    await more.click();
    const menu = page.getByRole('menu');
    await expect(menu.getByRole('menuitem', { name: t('users.actions.twoFactorOn') })).toHaveCount(0);
    await expect(menu.getByRole('menuitem', { name: t('users.actions.twoFactorOff') })).toHaveCount(0);
    await menu.getByRole('menuitem', { name: t('users.actions.twoFactorRequire'), exact: true }).click();
    await expect(toast(page, t('users.notices.twoFactorRequired'))).toBeVisible();
    await expect(row.getByText(t('users.status.twoFactorRequired'), { exact: true })).toBeVisible();
    expect(await api.rest('PATCH', `/api/user-settings/${user.id}`, { two_factor_enrolment_required: true })).toEqual({
      user_id: user.id,
      two_factor_enabled: false,
      two_factor_enrolment_required: true,
    });

    await more.click();
    await page.getByRole('menuitem', { name: t('users.actions.twoFactorWaive'), exact: true }).click();
    await expect(toast(page, t('users.notices.twoFactorWaived'))).toBeVisible();
    await expect(row.getByText(t('users.status.twoFactorRequired'), { exact: true })).toHaveCount(0);
  });

  test('a required user enrols at sign-in with a real code: no session before it, wrong and expired codes change nothing, then the recovery codes and the reset', async ({
    page,
    app,
    browser,
  }) => {
    const api = await apiLogin(app.origin, app.admin.email, app.admin.password);
    const user = await userRequiredToEnrol(api, 'enrol');
    const secret = await reachEnrolment(page, app.origin, user);
    expect(await page.evaluate(() => localStorage.getItem('accessToken'))).toBeNull();

    // A wrong code and an expired one (ten minutes old): said clearly, the same secret still shown, no session.
    await sendCode(page, '000000');
    await expect(page.getByText(t('auth.twoFactor.invalidCode'), { exact: true })).toBeVisible();
    await sendCode(page, totpCode(secret, -20));
    await expect(page.getByText(t('auth.twoFactor.invalidCode'), { exact: true })).toBeVisible();
    await expect(page.locator('code').first()).toHaveText(secret.replace(/(.{4})(?=.)/g, '$1 '));
    expect(await page.evaluate(() => localStorage.getItem('accessToken'))).toBeNull();
    const listed = await api.rest<{ id: number; twoFactorEnabled: boolean; twoFactorEnrolmentRequired: boolean }[]>(
      'GET',
      '/api/users',
    );
    expect(listed.find((u) => u.id === user.id)).toMatchObject({
      twoFactorEnabled: false,
      twoFactorEnrolmentRequired: true,
    });

    await sendCode(page, totpCode(secret));
    const codes = page.getByRole('list', { name: t('twoFactor.codesListLabel') });
    await expect(codes.getByRole('listitem')).toHaveCount(10);
    const done = page.getByRole('button', { name: t('twoFactor.done'), exact: true });
    await expect(done).toBeDisabled();
    await page.getByRole('checkbox', { name: t('twoFactor.savedCheck') }).check();
    await done.click();
    await expect(page).toHaveURL((url) => url.pathname === tenantPath('/'));
    await expect(pageTitle(page)).toHaveText(t('routes.home'));

    // The administrator now sees two-factor on, and the row offers the reset only.
    const admin = await browser.newPage();
    await signIn(admin, app.origin, app.admin, '/users');
    await admin.getByRole('searchbox').fill(user.name);
    const row = admin.getByRole('row', { name: new RegExp(user.name) });
    await expect(row.getByText(t('users.status.twoFactor'), { exact: true })).toBeVisible();
    await row.getByRole('button', { name: t('users.actions.more', { name: user.name }) }).click();
    await expect(admin.getByRole('menuitem', { name: t('users.actions.twoFactorRequire') })).toHaveCount(0);
    await admin.getByRole('menuitem', { name: t('users.actions.twoFactorOff'), exact: true }).click();
    const confirm = admin.getByRole('alertdialog', { name: t('users.confirm.twoFactorOff.title') });
    await confirm.getByRole('button', { name: t('users.actions.twoFactorOff'), exact: true }).click();
    await expect(toast(admin, t('users.notices.twoFactorOff'))).toBeVisible();
    await expect(row.getByText(t('users.status.twoFactor'), { exact: true })).toHaveCount(0);
    await admin.close();
  });
});

// Its own server whose enrolment secrets expire after 3 s (TWO_FACTOR_ENROLMENT_TTL=3).
test.describe('an expired enrolment at sign-in', () => {
  let server: RunningServer;
  test.beforeAll(async () => {
    server = await startServer({ TWO_FACTOR_ENROLMENT_TTL: '3' });
  });
  test.afterAll(async () => {
    await server?.stop();
  });

  test('says so, changes nothing and goes back to the password; signing in again hands out a new secret', async ({
    page,
  }) => {
    const { admin } = credentialsFrom(server.logins, server.password);
    const api = await apiLogin(server.origin, admin.email, admin.password);
    const user = await userRequiredToEnrol(api, 'late');
    const first = await reachEnrolment(page, server.origin, user);
    await page.waitForTimeout(4_000);
    await sendCode(page, totpCode(first));
    await expect(page.getByText(t('auth.twoFactor.enrolmentExpired'), { exact: true })).toBeVisible();
    await expect(codeField(page)).toHaveCount(0);
    await expect(page.getByRole('textbox', { name: t('auth.login.email'), exact: true })).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem('accessToken'))).toBeNull();
    const listed = await api.rest<{ id: number; twoFactorEnabled: boolean; twoFactorEnrolmentRequired: boolean }[]>(
      'GET',
      '/api/users',
    );
    expect(listed.find((u) => u.id === user.id)).toMatchObject({
      twoFactorEnabled: false,
      twoFactorEnrolmentRequired: true,
    });

    const second = await reachEnrolment(page, server.origin, user);
    expect(second).not.toBe(first);
    await sendCode(page, totpCode(second));
    await expect(page.getByRole('list', { name: t('twoFactor.codesListLabel') })).toBeVisible();
  });
});

test.describe('remember me', () => {
  test('the checkbox picks the long refresh window; without it the short one', async ({ page, app }) => {
    await page.goto(`${app.origin}${tenantPath('/login')}`);
    const remember = page.getByRole('checkbox', { name: t('auth.login.remember'), exact: true });
    await expect(remember).not.toBeChecked();
    await remember.check();
    await submitLogin(page, app.operator);
    await expect(pageTitle(page)).toHaveText(t('routes.home'));
    expect(await storedRefreshWindow(page)).toBe(14 * 24 * 3600);

    await page.evaluate(() => localStorage.clear());
    await page.goto(`${app.origin}${tenantPath('/login')}`);
    await submitLogin(page, app.operator);
    await expect(pageTitle(page)).toHaveText(t('routes.home'));
    expect(await storedRefreshWindow(page)).toBe(12 * 3600);
  });
});

test.describe('the tenant of the address', () => {
  test('a user of another tenant who signs in at the back-office address goes to its own tenant, told why', async ({
    page,
    app,
  }) => {
    const admin = await apiLogin(app.origin, app.admin.email, app.admin.password);
    const tenant = await createTenant(admin, uniquePrefix('own'));
    const inTenant = await apiLogin(app.origin, app.admin.email, app.admin.password, tenant);
    const user = await createUser(inTenant, 'own', JOURNEY_PASSWORD);

    await page.goto(`${app.origin}${tenantPath('/login')}?to=${encodeURIComponent('/two-factor')}`);
    await submitLogin(page, { email: user.email, password: JOURNEY_PASSWORD });
    const notice = toast(page, t('shell.tenantRedirect.title', { tenant }));
    await expect(notice).toBeVisible();
    await expect(notice).toContainText(t('shell.tenantRedirect.body', { from: 'backoffice' }));
    await expect(page).toHaveURL((url) => url.pathname === tenantPath('/two-factor', tenant));
    await expect(pageTitle(page)).toHaveText(t('routes.two-factor'));
    // Its calls and socket now work: the socket connects.
    await expect(page.getByRole('banner').getByRole('status')).toHaveText(t('shell.connection.connected'));
    await expect(page.getByRole('banner').getByRole('combobox', { name: t('shell.tenant') })).toHaveCount(0);
  });

  test('back-office staff stay on the tenant they opened, with the tenant switcher', async ({ page, app }) => {
    const admin = await apiLogin(app.origin, app.admin.email, app.admin.password);
    const tenant = await createTenant(admin, uniquePrefix('staff'));
    await page.goto(`${app.origin}${tenantPath('/login', tenant)}`);
    await submitLogin(page, app.admin);
    await expect(pageTitle(page)).toHaveText(t('routes.home'));
    await expect(page).toHaveURL((url) => url.pathname === tenantPath('/', tenant));
    await expect(toast(page, t('shell.tenantRedirect.title', { tenant: 'backoffice' }))).toHaveCount(0);
    await expect(page.getByRole('banner').getByRole('combobox', { name: t('shell.tenant') })).toBeVisible();
  });
});
