import type { Page, WebSocket } from '@playwright/test';
import { apiLogin } from './support/api';
import { connectionStatus, signIn, tenantPath } from './support/app';
import { seriousViolations } from './support/axe';
import { expect, test } from './support/fixtures';
import { t } from './support/i18n';
import { createTenant, uniquePrefix } from './support/tenants';
import { JOURNEY_PASSWORD, totpCode } from './support/two-factor';
import { createRoleWith, createUser, createUserWithRole } from './support/users';

const onLogin = (url: URL) => url.pathname === tenantPath('/login');

function watchSockets(page: Page) {
  const sockets: { ws: WebSocket; closed: boolean }[] = [];
  page.on('websocket', (ws) => {
    const entry = { ws, closed: false };
    sockets.push(entry);
    ws.on('close', () => (entry.closed = true));
  });
  return sockets;
}

async function signOut(page: Page) {
  await page.getByRole('button', { name: new RegExp(`^${t('shell.userMenu')}`) }).click();
  await page.getByRole('menuitem', { name: t('shell.logout'), exact: true }).click();
  await expect(page).toHaveURL(onLogin);
}

test.describe('seams: session seams', () => {
  for (const width of [1366, 390]) {
    test(`@${width} no socket before sign-in, one after, none after sign-out and no reconnect`, async ({
      page,
      app,
    }) => {
      await page.setViewportSize({ width, height: 800 });
      const sockets = watchSockets(page);
      await page.goto(`${app.origin}${tenantPath('/login')}`);
      await page.waitForTimeout(2_000);
      expect(sockets.length, 'no socket on the login page').toBe(0);
      await signIn(page, app.origin, app.admin, '/users');
      if (width >= 1000) await expect(connectionStatus(page)).toHaveText(t('shell.connection.connected'));
      await expect.poll(() => sockets.filter((s) => !s.closed).length).toBe(1);
      await signOut(page);
      await expect.poll(() => sockets.every((s) => s.closed)).toBe(true);
      const count = sockets.length;
      await page.waitForTimeout(3_000);
      expect(sockets.length, 'no new socket after sign-out').toBe(count);

      // The back button after sign-out: the protected screen is not shown again.
      await page.goBack();
      await page.waitForTimeout(1_000);
      await expect(page).toHaveURL(onLogin);
      await expect(page.getByRole('grid', { name: t('users.list.heading') })).toHaveCount(0);
      await page.waitForTimeout(2_000);
      expect(sockets.length, 'no socket after going back').toBe(count);
    });
  }

  test('a role change of a signed-in user: menu and guard follow', async ({ browser, app }) => {
    const admin = await apiLogin(app.origin, app.admin.email, app.admin.password);
    const password = 'Pharm#cy!Blue';
    const withUsers = await createRoleWith(admin, 'a2users', ['users']);
    const user = await createUserWithRole(admin, 'a2role', password, { id: withUsers.id });
    const theirs = await browser.newContext();
    const victim = await theirs.newPage();
    await signIn(victim, app.origin, { email: user.email, password }, '/users');
    await expect(victim.getByRole('grid', { name: t('users.list.heading') })).toBeVisible();
    await expect(connectionStatus(victim)).toHaveText(t('shell.connection.connected'));

    // The administrador moves the user to operador (no users route) through the SPA's API.
    const { roles } = await admin.graphql<{ roles: { id: string; name: string }[] }>(
      'query roles { roles { id name } }',
      {},
      'roles',
    );
    const operador = roles.find((r) => r.name === 'operador')!;
    await admin.rest('PUT', `/api/users/${user.id}`, {
      username: user.name.slice('E2E '.length),
      name: user.name,
      email: user.email,
      role_id: Number(operador.id),
    });
    await expect(victim).toHaveURL((url) => url.pathname === tenantPath('/pages/not-authorized'), { timeout: 20_000 });
    await expect(victim.getByRole('navigation').getByRole('link', { name: t('routes.users') })).toHaveCount(0);
    await theirs.close();
  });

  test('a promotion of a signed-in user: the menu gains the route without a reload', async ({ browser, app }) => {
    const admin = await apiLogin(app.origin, app.admin.email, app.admin.password);
    const password = 'Pharm#cy!Blue';
    const withUsers = await createRoleWith(admin, 'a2up', ['users']);
    const user = await createUser(admin, 'a2up', password);
    const theirs = await browser.newContext();
    const victim = await theirs.newPage();
    let navigations = 0;
    victim.on('framenavigated', (frame) => {
      if (frame === victim.mainFrame()) navigations += 1;
    });
    await signIn(victim, app.origin, { email: user.email, password });
    await expect(connectionStatus(victim)).toHaveText(t('shell.connection.connected'));
    const usersLink = victim.getByRole('navigation').getByRole('link', { name: t('routes.users'), exact: true });
    await expect(usersLink).toHaveCount(0);
    const before = navigations;
    await admin.rest('PUT', `/api/users/${user.id}`, {
      username: user.name.slice('E2E '.length),
      name: user.name,
      email: user.email,
      role_id: withUsers.id,
    });
    await expect(usersLink).toHaveCount(1, { timeout: 20_000 });
    expect(navigations, 'no reload').toBe(before);
    await usersLink.click();
    await expect(victim.getByRole('grid', { name: t('users.list.heading') })).toBeVisible();
    await theirs.close();
  });

  for (const how of ['blocked', 'deleted'] as const) {
    test(`a ${how} user signed in: sent to the login page, the socket ends and stays closed`, async ({
      browser,
      app,
    }) => {
      const admin = await apiLogin(app.origin, app.admin.email, app.admin.password);
      const password = 'Pharm#cy!Blue';
      const user = await createUser(admin, `a2${how}`, password);
      const theirs = await browser.newContext();
      const victim = await theirs.newPage();
      const sockets = watchSockets(victim);
      await signIn(victim, app.origin, { email: user.email, password }, '/');
      await expect(connectionStatus(victim)).toHaveText(t('shell.connection.connected'));
      if (how === 'blocked') await admin.rest('PATCH', `/api/users/${user.id}`, { blocked: true });
      else {
        const res = await fetch(`${app.origin}/api/users/${user.id}`, {
          method: 'DELETE',
          headers: { authorization: `Bearer ${admin.token}` },
        });
        expect(res.status, await res.text()).toBeLessThan(300);
      }
      await expect(victim).toHaveURL(onLogin, { timeout: 20_000 });
      await expect.poll(() => sockets.every((s) => s.closed)).toBe(true);
      const count = sockets.length;
      await victim.waitForTimeout(3_000);
      expect(sockets.length, 'no reconnect after the session ended').toBe(count);
      // Back: never the signed-in home again.
      await victim.goBack();
      await victim.waitForTimeout(1_000);
      await expect(victim.getByRole('navigation', { name: t('shell.mainNavigation') })).toHaveCount(0);
      await theirs.close();
    });
  }
});

test.describe('seams: dialogs and menus', () => {
  test.use({ bypassCSP: true });

  test('row menu by keyboard, the confirm dialog while pending: one request, no close', async ({ page, app }) => {
    const admin = await apiLogin(app.origin, app.admin.email, app.admin.password);
    const user = await createUser(admin, 'a2blk', 'Pharm#cy!Blue');
    await signIn(page, app.origin, app.admin, `/users?q=${encodeURIComponent(user.email)}`);
    const grid = page.getByRole('grid', { name: t('users.list.heading') });
    const row = grid.getByRole('row', { name: user.name });
    const more = row.getByRole('button', { name: t('users.actions.more', { name: user.name }) });
    await more.focus();
    await page.keyboard.press('Enter');
    const menu = page.getByRole('menu');
    await expect(menu).toBeVisible();
    const axeMenu = await seriousViolations(page);
    expect(axeMenu, 'axe with the row menu open').toEqual([]);
    await page.keyboard.press('Escape');
    await expect(menu).toBeHidden();
    await expect(more).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(menu).toBeVisible();
    // arrows to "Bloquear"
    const items = menu.getByRole('menuitem');
    const names = await items.allTextContents();
    const target = names.findIndex((n) => n.trim() === t('users.actions.block'));
    expect(target).toBeGreaterThanOrEqual(0);
    for (let i = 0; i < 12; i += 1) {
      const focused = await page.evaluate(() => document.activeElement?.textContent?.trim() ?? '');
      if (focused === t('users.actions.block')) break;
      await page.keyboard.press('ArrowDown');
    }
    await expect(menu.getByRole('menuitem', { name: t('users.actions.block'), exact: true })).toBeFocused();

    // Slow the block request so the dialog stays pending.
    const blockCalls: string[] = [];
    await page.route(
      (url) => url.pathname.includes('/graphql') || url.pathname.startsWith('/api/'),
      async (route) => {
        const body = route.request().postData() ?? '';
        // The list's read after the action (GraphQL usersPage, whose row has `blocked`) is not a block.
        const listRead = body.includes('"operationName":"usersPage"');
        if (!listRead && (/block/i.test(body) || /block/i.test(route.request().url()))) {
          blockCalls.push(route.request().url());
          await new Promise((r) => setTimeout(r, 2_500));
        }
        await route.continue();
      },
    );
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('alertdialog', { name: t('users.confirm.block.title') });
    await expect(dialog).toBeVisible();
    const axeDialog = await seriousViolations(page);
    expect(axeDialog, 'axe with the confirm dialog open').toEqual([]);
    const confirm = dialog.getByRole('button', { name: t('users.actions.block'), exact: true });
    await confirm.focus();
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    await confirm.click({ force: true }).catch(() => undefined);
    await page.keyboard.press('Escape');
    await expect(dialog, 'a pending dialog does not close on Escape').toBeVisible();
    await expect.poll(() => blockCalls.length, { timeout: 10_000 }).toBeGreaterThan(0);
    await expect(dialog).toBeHidden({ timeout: 15_000 });
    expect(blockCalls.length, `block requests: ${blockCalls.join(', ')}`).toBe(1);
  });
});

test.describe('seams: /two-factor with the shared enrolment', () => {
  test.use({ bypassCSP: true });
  for (const width of [1366, 390]) {
    test(`@${width} enrol on /two-factor by keyboard: axe clean, a wrong code then the right one, codes, done`, async ({
      page,
      app,
    }) => {
      await page.setViewportSize({ width, height: 800 });
      const admin = await apiLogin(app.origin, app.admin.email, app.admin.password);
      const user = await createUser(admin, `a2tf${width}`, JOURNEY_PASSWORD);
      await signIn(page, app.origin, { email: user.email, password: JOURNEY_PASSWORD }, '/two-factor');
      await page.getByRole('button', { name: t('twoFactor.enable'), exact: true }).click();
      await expect(page.getByRole('img', { name: t('twoFactor.qrAlt') })).toBeVisible();
      expect(await seriousViolations(page), 'axe on the enrolment').toEqual([]);
      const secret = (await page.locator('main code').first().textContent())?.replace(/\s+/g, '') ?? '';
      expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
      const field = page.getByRole('textbox', { name: t('twoFactor.code'), exact: true });
      await field.focus();
      await page.keyboard.type('000000');
      await page.keyboard.press('Enter');
      await expect(page.getByText(t('twoFactor.errors.wrongCode'), { exact: true })).toBeVisible();
      await field.fill('');
      await field.focus();
      await page.keyboard.type(totpCode(secret));
      await page.keyboard.press('Enter');
      const codes = page.getByRole('list', { name: t('twoFactor.codesListLabel') });
      await expect(codes.getByRole('listitem')).toHaveCount(10);
      expect(await seriousViolations(page), 'axe on the recovery codes').toEqual([]);
      const done = page.getByRole('button', { name: t('twoFactor.done'), exact: true });
      await expect(done).toBeDisabled();
      await page.getByRole('checkbox', { name: t('twoFactor.savedCheck') }).focus();
      await page.keyboard.press('Space');
      await expect(done).toBeEnabled();
      await done.focus();
      await page.keyboard.press('Enter');
      await expect(codes).toHaveCount(0);
    });
  }
});

test.describe('seams: tenants row menu by keyboard', () => {
  test.use({ bypassCSP: true });
  test('Enter opens on the first item, End/Home, Tab closes back to the button, Space on Excluir opens the confirm, which Escape closes', async ({
    page,
    app,
  }) => {
    const api = await apiLogin(app.origin, app.admin.email, app.admin.password);
    const name = await createTenant(api, uniquePrefix('kbd'));
    await signIn(page, app.origin, app.admin, `/tenants?search=${name}`);
    const more = page
      .getByRole('grid', { name: t('tenants.screen.heading') })
      .getByRole('button', { name: t('tenants.screen.actions.more', { name }) });
    await more.focus();
    await page.keyboard.press('Enter');
    const menu = page.getByRole('menu');
    await expect(menu).toBeVisible();
    const items = menu.getByRole('menuitem');
    await expect(items.first()).toBeFocused();
    await page.keyboard.press('End');
    await expect(items.last()).toBeFocused();
    await page.keyboard.press('Home');
    await expect(items.first()).toBeFocused();
    expect(await seriousViolations(page), 'axe with the tenants row menu open').toEqual([]);
    await page.keyboard.press('Tab');
    await expect(menu).toBeHidden();
    await expect(more).toBeFocused();
    // In the grid ArrowDown moves between rows (grid-navigation.ts, capture phase); Space opens the menu.
    await page.keyboard.press('Space');
    await expect(items.first()).toBeFocused();
    const del = menu.getByRole('menuitem', { name: t('tenants.screen.actions.delete'), exact: true });
    for (let i = 0; i < 10 && !(await del.evaluate((el) => el === document.activeElement)); i += 1)
      await page.keyboard.press('ArrowDown');
    await expect(del).toBeFocused();
    await page.keyboard.press('Space');
    const confirm = page.getByRole('alertdialog', { name: t('tenants.screen.deleteTitle') });
    await expect(confirm).toBeVisible();
    await page.waitForTimeout(500);
    await expect(confirm, 'the Space that chose the item does not act in the dialog').toBeVisible();
    await expect(confirm.getByRole('button', { name: t('common.cancel'), exact: true })).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(confirm).toBeHidden();
    await expect(more).toBeFocused();
  });
});

test.describe('seams: the tenant combo box inside the audit filters', () => {
  test('typing a tenant and pressing Enter (no option reached) does not apply the other, unapplied filters', async ({
    page,
    app,
  }) => {
    const api = await apiLogin(app.origin, app.admin.email, app.admin.password);
    const name = await createTenant(api, uniquePrefix('aud'));
    await signIn(page, app.origin, app.admin, '/audit');
    const filters = page.getByRole('form', { name: t('audit.filters.label') });
    // A draft change not yet applied.
    await filters
      .getByRole('combobox', { name: t('audit.filters.operation'), exact: true })
      .selectOption('department.create');
    const before = page.url();
    const tenant = filters.getByRole('combobox', { name: t('audit.filters.tenant'), exact: true });
    await tenant.fill(name.slice(0, 8));
    await expect(page.getByRole('listbox', { name: t('audit.filters.tenant') })).toBeVisible();
    await tenant.press('Enter');
    await page.waitForTimeout(1_000);
    expect(page.url(), 'Enter in the open combo box submitted the filter form').toBe(before);
  });
});
