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
});
