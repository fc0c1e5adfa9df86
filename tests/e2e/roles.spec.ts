import type { Page } from '@playwright/test';
import { getHref } from '../../src/domain/paths';
import { apiLogin, type Api } from './support/api';
import { connectionStatus, signIn, submitLogin, tenantPath } from './support/app';
import { expect, test } from './support/fixtures';
import { t } from './support/i18n';
import { toast } from './support/toast';

/**
 * Roles: live permissions (contracts/socket.md §4.6) and deleting a role. Each test makes roles and
 * users of its own, so the demo operador's permissions, which other journeys read, never change.
 */

const PASSWORD = 'Pharm#cy!Blue';

interface Role {
  id: number;
  name: string;
  display_name: string;
}

function stamp(): string {
  return `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4).toString(36)}`;
}

async function createRole(api: Api, tag: string, routes: string[]): Promise<Role> {
  const unique = stamp();
  const role = await api.rest<Role>('POST', '/api/roles', {
    name: `pw_${tag}_${unique}`,
    display_name: `PW ${tag} ${unique}`,
  });
  if (routes.length) await api.rest('POST', '/api/permission/update', { roleId: role.id, permissions: routes });
  return role;
}

async function createHolder(api: Api, role: Role): Promise<{ email: string }> {
  const unique = `live${stamp()}`;
  const email = `${unique}@e2e.local`;
  await api.graphql(
    'mutation newUser($username: String!, $name: String!, $email: String!, $password: String!, $role_id: Int!) { newUser(username: $username, name: $name, email: $email, password: $password, role_id: $role_id) { id } }',
    { username: unique, name: `E2E ${unique}`, email, password: PASSWORD, role_id: role.id },
    'newUser',
  );
  return { email };
}

const nav = (page: Page) => page.getByRole('navigation', { name: t('shell.mainNavigation') });

test.describe('roles', () => {
  test("removing a route from a role updates every signed-in holder's menu live, and a holder on that page lands on not-authorized", async ({
    browser,
    page,
    app,
  }) => {
    const api = await apiLogin(app.origin, app.admin.email, app.admin.password);
    const role = await createRole(api, 'live', ['users', 'dashboard-analytics']);
    const holder = await createHolder(api, role);

    // The holder, in a browser context of its own, on the page it is about to lose; a second tab of
    // the same session on a page it keeps.
    const holderContext = await browser.newContext();
    const onUsers = await holderContext.newPage();
    await onUsers.goto(`${app.origin}${tenantPath('/login')}?to=${encodeURIComponent('/users')}`);
    await submitLogin(onUsers, { email: holder.email, password: PASSWORD });
    await expect(onUsers).toHaveURL((url) => url.pathname === tenantPath('/users'));
    await expect(nav(onUsers).getByRole('link', { name: t('routes.users'), exact: true })).toBeVisible();
    const onDashboard = await holderContext.newPage();
    await onDashboard.goto(`${app.origin}${tenantPath('/dashboard/analytics')}`);
    await expect(onDashboard.getByRole('main').getByRole('heading', { level: 1 })).toHaveText(
      t('routes.dashboard-analytics'),
    );
    await expect(nav(onDashboard).getByRole('link', { name: t('routes.users'), exact: true })).toBeVisible();
    // Both tabs' sockets are open (the event reaches open connections only).
    for (const tab of [onUsers, onDashboard])
      await expect(connectionStatus(tab)).toHaveText(t('shell.connection.connected'));

    // The administrador takes `users` away from the role in the role editor.
    await signIn(page, app.origin, app.admin, getHref('roles-edit', { id: role.id }));
    const usersBox = page.getByRole('checkbox', { name: 'Usuários', exact: true });
    // By keyboard, as a keyboard user would (the styled box covers the input).
    await usersBox.focus();
    await page.keyboard.press('Space');
    await expect(usersBox).not.toBeChecked();
    const saved = page.waitForResponse(
      (response) => response.url().endsWith('/api/permission/update') && response.request().method() === 'POST',
    );
    // By keyboard too: the sign-in toast may still cover the sticky save bar.
    const save = page.getByRole('button', { name: t('roles.edit.save'), exact: true });
    await save.focus();
    await page.keyboard.press('Enter');
    expect((await saved).status()).toBe(200);

    // Without a reload: the menus lose the link, the forbidden page is replaced. How soon (within a
    // second) is the bench's to measure (bench/live.ts): these waits poll in steps of up to 500 ms.
    let reloads = 0;
    onUsers.on('load', () => (reloads += 1));
    onDashboard.on('load', () => (reloads += 1));
    await expect(nav(onDashboard).getByRole('link', { name: t('routes.users'), exact: true })).toHaveCount(0, {
      timeout: 5000,
    });
    await expect(onUsers).toHaveURL((url) => url.pathname === tenantPath('/pages/not-authorized'), { timeout: 5000 });
    await expect(onUsers.getByRole('heading', { level: 1 })).toHaveText(t('pages.notAuthorized.title'));
    // The route it keeps is still there, and the page it is on stays.
    await expect(
      nav(onDashboard).getByRole('link', { name: t('routes.dashboard-analytics'), exact: true }),
    ).toBeVisible();
    await expect(onDashboard).toHaveURL((url) => url.pathname === tenantPath('/dashboard/analytics'));
    expect(reloads, 'no page reload').toBe(0);

    // Given back: the link comes back, live as well.
    await usersBox.focus();
    await page.keyboard.press('Space');
    await expect(usersBox).toBeChecked();
    const givenBack = page.waitForResponse(
      (response) => response.url().endsWith('/api/permission/update') && response.request().method() === 'POST',
    );
    await save.focus();
    await page.keyboard.press('Enter');
    expect((await givenBack).status()).toBe(200);
    // As for the removal: how soon is bench/live.ts's to measure, not a 1 s wait that a busy box misses.
    await expect(nav(onDashboard).getByRole('link', { name: t('routes.users'), exact: true })).toBeVisible({
      timeout: 5000,
    });
    await holderContext.close();
  });

  test('deleting a role users hold is refused with a clear message and changes nothing; an unused role is deleted', async ({
    page,
    app,
  }) => {
    const api = await apiLogin(app.origin, app.admin.email, app.admin.password);
    const used = await createRole(api, 'used', ['dashboard-analytics']);
    await createHolder(api, used);
    const unused = await createRole(api, 'unused', []);

    await signIn(page, app.origin, app.admin, '/roles/list');
    const table = page.getByRole('grid', { name: t('roles.list.tableLabel') });
    await expect(table.getByRole('rowheader', { name: used.display_name })).toBeVisible();

    await page.getByRole('button', { name: t('roles.list.deleteLabel', { name: used.display_name }) }).click();
    const confirm = page.getByRole('alertdialog', { name: t('roles.form.deleteTitle') });
    await expect(confirm).toContainText(used.display_name);
    await confirm.getByRole('button', { name: t('roles.list.delete'), exact: true }).click();
    // The dialog's own alert: the toast region sits in the open dialog's layer too (dialog-layer.ts).
    await expect(confirm.getByRole('alert').filter({ hasText: t('roles.errors.inUse') })).toHaveText(
      t('roles.form.failure', { what: t('roles.errors.delete'), why: t('roles.errors.inUse') }),
    );
    // Nothing changed: the dialog says why and stays, the row stays, the role is still there.
    await confirm.getByRole('button', { name: t('common.cancel'), exact: true }).click();
    await expect(confirm).toHaveCount(0);
    await expect(table.getByRole('rowheader', { name: used.display_name })).toBeVisible();
    expect((await api.rest<Role>('GET', `/api/roles/${used.id}`)).id).toBe(used.id);

    await page.getByRole('button', { name: t('roles.list.deleteLabel', { name: unused.display_name }) }).click();
    await confirm.getByRole('button', { name: t('roles.list.delete'), exact: true }).click();
    await expect(toast(page, t('roles.notices.deleted'))).toBeVisible();
    await expect(confirm).toHaveCount(0);
    await expect(table.getByRole('rowheader', { name: unused.display_name })).toHaveCount(0);
    const roles = await api.rest<Role[]>('GET', '/api/roles');
    expect(roles.map((r) => r.id)).not.toContain(unused.id);
    expect(roles.map((r) => r.id)).toContain(used.id);
  });
});
