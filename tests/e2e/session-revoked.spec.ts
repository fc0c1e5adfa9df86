import { apiLogin } from './support/api';
import { pageTitle, signIn, tenantPath } from './support/app';
import { expect, test } from './support/fixtures';
import { t } from './support/i18n';
import { toast } from './support/toast';
import { createUser } from './support/users';

const onLogin = (url: URL) => url.pathname === tenantPath('/login');

test.describe('revoked session', () => {
  test('logging out in another tab sends this tab to the login page', async ({ page, app }) => {
    await signIn(page, app.origin, app.admin, '/users');
    const other = await page.context().newPage();
    await other.goto(`${app.origin}${tenantPath('/')}`);
    await expect(pageTitle(other)).toHaveText(t('routes.home'));
    await other.getByRole('button', { name: new RegExp(`^${t('shell.userMenu')}`) }).click();
    await other.getByRole('menuitem', { name: t('shell.logout'), exact: true }).click();
    await expect(other).toHaveURL(onLogin);
    await expect(page).toHaveURL(onLogin);
    await expect(page.getByText(t('session.ended.remote'))).toBeVisible();
  });

  test('disconnected by an administrador: the user is sent to the login page', async ({ browser, page, app }) => {
    const admin = await apiLogin(app.origin, app.admin.email, app.admin.password);
    const password = 'Pharm#cy!Blue';
    const user = await createUser(admin, 'disc', password);

    const theirs = await browser.newContext();
    const victim = await theirs.newPage();
    await signIn(victim, app.origin, { email: user.email, password });

    await signIn(page, app.origin, app.admin, '/users');
    const row = page.getByRole('grid', { name: t('users.list.heading') }).getByRole('row', { name: user.name });
    await row.getByRole('button', { name: t('users.actions.more', { name: user.name }) }).click();
    await page.getByRole('menuitem', { name: t('users.actions.disconnect'), exact: true }).click();
    await page
      .getByRole('alertdialog', { name: t('users.confirm.disconnect.title') })
      .getByRole('button', { name: t('users.actions.disconnect'), exact: true })
      .click();
    await expect(toast(page, t('users.notices.disconnected'))).toBeVisible();

    // The revoked session's socket is closed by the server (4401): the panel ends the session.
    await expect(victim).toHaveURL(onLogin);
    await theirs.close();
  });

  test('a new password on the account screen ends the other session; this one goes on', async ({
    browser,
    page,
    app,
  }) => {
    const admin = await apiLogin(app.origin, app.admin.email, app.admin.password);
    const password = 'Pharm#cy!Blue';
    const fresh = 'Gr33n#Leaf!Tea';
    const user = await createUser(admin, 'pwd', password);

    const theirs = await browser.newContext();
    const elsewhere = await theirs.newPage();
    await signIn(elsewhere, app.origin, { email: user.email, password });

    await signIn(page, app.origin, { email: user.email, password }, '/user-settings');
    const card = page.getByRole('main');
    const field = (key: string) => card.getByRole('textbox', { name: t(key), exact: true });
    // A wrong current password: refused, said so, and nothing ends.
    await field('settings.password.current').fill(`${password}x`);
    await field('settings.password.new').fill(fresh);
    await field('settings.password.confirm').fill(fresh);
    await card.getByRole('button', { name: t('settings.password.submit'), exact: true }).click();
    await expect(card.getByText(t('settings.errors.currentPasswordWrong'))).toBeVisible();
    await expect(pageTitle(elsewhere)).toBeVisible();
    expect(onLogin(new URL(elsewhere.url()))).toBe(false);

    // Sent from the keyboard: a click right after typing lands beside the button, since the field's
    // earlier error goes away when the field loses focus and the button moves up under the pointer.
    await field('settings.password.current').fill(password);
    await field('settings.password.current').press('Enter');
    await expect(toast(page, t('settings.notices.passwordChanged'))).toBeVisible();
    // The other session's socket is closed by the server (4401): that panel ends its session.
    await expect(elsewhere).toHaveURL(onLogin);
    await theirs.close();
    // This one goes on with the token the change answered, across a reload too.
    await page.reload();
    await expect(pageTitle(page)).toHaveText(t('routes.user-settings'));
    expect(onLogin(new URL(page.url()))).toBe(false);
    // The new password signs in; the old one no longer does.
    await apiLogin(app.origin, user.email, fresh);
    const old = await page.request.post(`${app.origin}/api/auth/login`, {
      data: { email: user.email, password, ip: null },
    });
    expect(old.status()).toBe(401);
  });
});
