import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Browser, Page } from '@playwright/test';
import { getHref } from '../../src/domain/paths';
import { apiLogin, type Api } from './support/api';
import { connectionStatus, signIn, type Credentials } from './support/app';
import { seriousViolations, useTheme } from './support/axe';
import { expect, test } from './support/fixtures';
import { t } from './support/i18n';
import { createTenant, uniquePrefix } from './support/tenants';
import { createRoleWith, createUser, createUserWithRole } from './support/users';

/**
 * No lost update on the role editor (docs/lists.md, Conflict notice): two people in two browser contexts
 * edit the same role. The second save is refused with the first person's change shown beside the second
 * person's own, and reapplying keeps both; a person who reads the audit log sees the other change at once,
 * before saving. Each test makes the roles and users it edits, so no other journey's role changes.
 */

const PASSWORD = 'Pharm#cy!Blue';
const SHOTS = resolve(import.meta.dirname, '../../screenshots');
const VIEWPORTS = [
  { width: 1366, height: 768 },
  { width: 390, height: 844 },
] as const;

test.use({ bypassCSP: true });

interface Role {
  id: number;
  has_permission_routes: string[];
  version?: number;
}

/** A permission's display name, as the editor labels its checkbox. */
async function permissionNames(api: Api): Promise<Map<string, string>> {
  const categories = await api.rest<{ permissions: { route_name: string; display_name: string }[] }[]>(
    'GET',
    '/api/permission/categories',
  );
  return new Map(categories.flatMap((c) => c.permissions.map((p) => [p.route_name, p.display_name] as const)));
}

/** A staff member of the back office whose role edits roles but does not read the audit log. */
async function editorWithoutAudit(api: Api): Promise<Credentials> {
  const role = await createRoleWith(api, 'noaudit', [
    'roles-list',
    'roles-edit',
    'dashboard-analytics',
    'dashboard-report',
  ]);
  const user = await createUserWithRole(api, 'noaudit', PASSWORD, { id: role.id });
  return { email: user.email, password: PASSWORD };
}

async function openEditor(
  browser: Browser,
  origin: string,
  who: Credentials,
  roleId: number,
  theme: 'light' | 'dark' = 'light',
) {
  const context = await browser.newContext({ locale: 'pt-BR', timezoneId: 'America/Sao_Paulo', bypassCSP: true });
  const page = await context.newPage();
  await useTheme(page, theme);
  await signIn(page, origin, who, getHref('roles-edit', { id: roleId }));
  return { context, page };
}

/** Ticks a permission by keyboard (the styled box covers the input) and checks it changed. */
async function toggle(page: Page, name: string, on: boolean) {
  const box = page.getByRole('checkbox', { name, exact: true });
  await box.focus();
  await page.keyboard.press('Space');
  await (on ? expect(box).toBeChecked() : expect(box).not.toBeChecked());
}

async function save(page: Page): Promise<number> {
  const answer = page.waitForResponse(
    (response) => response.url().endsWith('/api/permission/update') && response.request().method() === 'POST',
  );
  const button = page.getByRole('button', { name: t('roles.edit.save'), exact: true });
  await button.focus();
  await page.keyboard.press('Enter');
  return (await answer).status();
}

const notice = (page: Page) => page.getByRole('region', { name: t('conflict.title') });

async function shoot(page: Page, name: string, serious: string[]) {
  serious.push(...(await seriousViolations(page)).map((v) => `${name}: ${v}`));
  mkdirSync(SHOTS, { recursive: true });
  for (const viewport of VIEWPORTS) {
    await page.setViewportSize(viewport);
    await notice(page).scrollIntoViewIfNeeded();
    await page.screenshot({
      path: resolve(SHOTS, `${name}-${viewport.width}x${viewport.height}.png`),
      animations: 'disabled',
      caret: 'hide',
    });
  }
  await page.setViewportSize(VIEWPORTS[0]);
}

test.describe('conflict notice on the role editor', () => {
  test("two contexts edit one role: the second save is refused with the first person's change shown, and reapplying keeps both", async ({
    browser,
    app,
  }) => {
    test.setTimeout(120_000);
    const api = await apiLogin(app.origin, app.admin.email, app.admin.password);
    const names = await permissionNames(api);
    const adminName = (await api.rest<{ user: { name: string } }>('GET', '/api/auth/userInfo')).user.name;
    const role = await createRoleWith(api, 'shared', ['dashboard-analytics']);
    const second = await editorWithoutAudit(api);
    const report = names.get('dashboard-report') ?? 'dashboard-report';
    const analytics = names.get('dashboard-analytics') ?? 'dashboard-analytics';
    const rolesList = names.get('roles-list') ?? 'roles-list';

    const first = await openEditor(browser, app.origin, app.admin, role.id);
    const other = await openEditor(browser, app.origin, second, role.id);

    // Both open the same version. The second person (who holds each route they change, as the server
    // requires) adds the roles list and takes the analytics away; the first adds the report and saves.
    await toggle(other.page, rolesList, true);
    await toggle(other.page, analytics, false);
    await toggle(first.page, report, true);
    expect(await save(first.page)).toBe(200);

    // The second person's save is refused (409 stale): nothing of theirs is written, nothing of the first's lost.
    expect(await save(other.page)).toBe(409);
    const shown = notice(other.page);
    await expect(shown).toBeVisible();
    const theirs = shown.getByRole('region', { name: t('conflict.theirs') });
    await expect(theirs).toContainText(t('conflict.added', { item: report }));
    // Who made it: the first person's name, as the audit log records it.
    await expect(theirs).toContainText(adminName);
    const mine = shown.getByRole('region', { name: t('conflict.mine') });
    await expect(mine).toContainText(t('conflict.added', { item: rolesList }));
    await expect(mine).toContainText(t('conflict.removed', { item: analytics }));
    // The heading takes focus: the keyboard user is at the notice that answers their save.
    await expect(shown.getByRole('heading', { name: t('conflict.title') })).toBeFocused();
    let stored = await api.rest<Role>('GET', `/api/roles/${role.id}`);
    expect([...stored.has_permission_routes].sort()).toEqual(['dashboard-analytics', 'dashboard-report']);

    const serious: string[] = [];
    await shoot(other.page, 'conflict-refused-light', serious);

    // Reapplying lays the second person's changes over the first's and saves with the new version.
    const reapplied = other.page.waitForResponse(
      (response) => response.url().endsWith('/api/permission/update') && response.request().method() === 'POST',
    );
    await shown.getByRole('button', { name: t('conflict.reapply'), exact: true }).click();
    expect((await reapplied).status()).toBe(200);
    await expect(notice(other.page)).toHaveCount(0);
    stored = await api.rest<Role>('GET', `/api/roles/${role.id}`);
    expect([...stored.has_permission_routes].sort()).toEqual(['dashboard-report', 'roles-list']);
    await expect(other.page.getByRole('checkbox', { name: report, exact: true })).toBeChecked();
    await expect(other.page.getByRole('checkbox', { name: rolesList, exact: true })).toBeChecked();
    await expect(other.page.getByRole('checkbox', { name: analytics, exact: true })).not.toBeChecked();
    expect(serious).toEqual([]);
    await first.context.close();
    await other.context.close();
  });

  for (const theme of ['light', 'dark'] as const) {
    test(`${theme}: a change saved elsewhere shows at once to an editor holding the audit log, who discards theirs`, async ({
      browser,
      app,
    }) => {
      test.setTimeout(120_000);
      const api = await apiLogin(app.origin, app.admin.email, app.admin.password);
      const names = await permissionNames(api);
      const role = await createRoleWith(api, 'live', ['dashboard-analytics']);
      const users = names.get('users') ?? 'users';
      const report = names.get('dashboard-report') ?? 'dashboard-report';

      const watcher = await openEditor(browser, app.origin, app.admin, role.id, theme);
      await expect(connectionStatus(watcher.page)).toHaveText(t('shell.connection.connected'));
      await toggle(watcher.page, report, true);

      // Someone else (here through the API, as another administrador's tab would) adds `users`.
      await api.rest('POST', '/api/permission/update', {
        roleId: role.id,
        permissions: ['dashboard-analytics', 'users'],
      });
      const shown = notice(watcher.page);
      await expect(shown).toBeVisible({ timeout: 5000 });
      await expect(shown.getByRole('region', { name: t('conflict.theirs') })).toContainText(
        t('conflict.added', { item: users }),
      );
      await expect(shown.getByRole('region', { name: t('conflict.mine') })).toContainText(
        t('conflict.added', { item: report }),
      );
      // The checklist waits for the choice: no save is offered meanwhile.
      await expect(watcher.page.getByRole('button', { name: t('roles.edit.save'), exact: true })).toHaveCount(0);
      const serious: string[] = [];
      await shoot(watcher.page, `conflict-live-${theme}`, serious);
      expect(serious).toEqual([]);

      await shown.getByRole('button', { name: t('conflict.discard'), exact: true }).click();
      await expect(notice(watcher.page)).toHaveCount(0);
      await expect(watcher.page.getByRole('checkbox', { name: users, exact: true })).toBeChecked();
      await expect(watcher.page.getByRole('checkbox', { name: report, exact: true })).not.toBeChecked();
      const stored = await api.rest<Role>('GET', `/api/roles/${role.id}`);
      expect([...stored.has_permission_routes].sort()).toEqual(['dashboard-analytics', 'users']);
      await watcher.context.close();
    });
  }
});

test.describe('conflict notice on the user form', () => {
  test("a change to the user saved elsewhere shows in the open edit form at once; reapply keeps theirs and the admin's", async ({
    page,
    app,
  }) => {
    test.setTimeout(120_000);
    const api = await apiLogin(app.origin, app.admin.email, app.admin.password);
    const user = await createUser(api, 'conflict', PASSWORD);
    await signIn(page, app.origin, app.admin, `/users?q=${encodeURIComponent(user.name)}`);
    await expect(connectionStatus(page)).toHaveText(t('shell.connection.connected'));
    await page
      .getByRole('grid', { name: t('users.list.heading') })
      .getByRole('row', { name: user.name })
      .getByRole('button', { name: t('users.actions.editNamed', { name: user.name }) })
      .click();
    const dialog = page.getByRole('dialog', { name: t('users.form.editTitle', { name: user.name }) });
    const name = dialog.getByRole('textbox', { name: t('users.form.name'), exact: true });
    await name.fill(`${user.name} Lima`);

    // Someone else changes the user's e-mail (here through the API, as another administrador would).
    const email = `novo.${user.email}`;
    await api.rest('PUT', `/api/users/${user.id}`, { email });
    const shown = dialog.getByRole('region', { name: t('conflict.title') });
    await expect(shown).toBeVisible({ timeout: 5000 });
    await expect(shown.getByRole('region', { name: t('conflict.theirs') })).toContainText(email);
    await expect(shown.getByRole('region', { name: t('conflict.mine') })).toContainText(`${user.name} Lima`);
    // The fields hold the values the notice shows until the choice is made.
    await expect(name).toBeDisabled();
    const serious: string[] = [];
    serious.push(...(await seriousViolations(page)));
    mkdirSync(SHOTS, { recursive: true });
    for (const viewport of VIEWPORTS) {
      await page.setViewportSize(viewport);
      await page.screenshot({ path: resolve(SHOTS, `conflict-user-form-${viewport.width}x${viewport.height}.png`) });
    }
    await page.setViewportSize(VIEWPORTS[0]);
    expect(serious).toEqual([]);

    await shown.getByRole('button', { name: t('conflict.reapply'), exact: true }).click();
    // Saved with the new version: the dialog closes on the save, and the row shows both changes.
    await expect(dialog).toBeHidden();
    await expect(
      page.getByRole('grid', { name: t('users.list.heading') }).getByRole('row', { name: `${user.name} Lima` }),
    ).toContainText(email);
    const stored = await api.rest<{ id: number; name: string; email: string }[]>('GET', '/api/users');
    expect(stored.find((u) => u.id === user.id)).toMatchObject({ name: `${user.name} Lima`, email });
  });
});

test.describe('conflict notice on the tenant edit dialog', () => {
  for (const theme of ['light', 'dark'] as const) {
    test(`${theme}: a change to the tenant saved elsewhere shows in the open edit dialog at once; reapply keeps theirs and the admin's`, async ({
      page,
      app,
    }) => {
      test.setTimeout(120_000);
      const api = await apiLogin(app.origin, app.admin.email, app.admin.password);
      const prefix = uniquePrefix('conflict');
      const name = await createTenant(api, `${prefix}-a`);
      const stored = async () =>
        (
          await api.rest<{
            data: { id: number; name: string; cnpj: string; template: string; pool: string; version: number }[];
          }>('POST', '/api/tenant/paginated', { search: prefix, pagination_limit: 10 })
        ).data[0]!;
      const before = await stored();
      await useTheme(page, theme);
      await signIn(page, app.origin, app.admin, `/tenants?search=${prefix}`);
      await expect(connectionStatus(page)).toHaveText(t('shell.connection.connected'));
      const grid = page.getByRole('grid', { name: t('tenants.screen.heading') });
      await grid.getByRole('button', { name: t('tenants.screen.actions.more', { name }) }).click();
      await page.getByRole('menuitem', { name: t('tenants.screen.actions.edit'), exact: true }).click();
      const dialog = page.getByRole('dialog', { name: t('tenants.screen.form.editTitle', { name }) });
      const template = dialog.getByRole('textbox', { name: t('tenants.screen.form.template') });
      await template.fill('clinica');

      // Someone else changes the tenant's pool (here through the API, as another staff member would).
      await api.rest('POST', '/api/tenant/update', {
        id: before.id,
        name: before.name,
        cnpj: before.cnpj,
        template: before.template,
        pool: 'pool-z',
      });
      const shown = dialog.getByRole('region', { name: t('conflict.title') });
      await expect(shown).toBeVisible({ timeout: 5000 });
      await expect(shown.getByRole('region', { name: t('conflict.theirs') })).toContainText('pool-z');
      await expect(shown.getByRole('region', { name: t('conflict.mine') })).toContainText('clinica');
      // The fields hold the values the notice shows until the choice is made.
      await expect(template).toBeDisabled();
      const serious: string[] = [...(await seriousViolations(page))];
      mkdirSync(SHOTS, { recursive: true });
      for (const viewport of VIEWPORTS) {
        await page.setViewportSize(viewport);
        await page.screenshot({
          path: resolve(SHOTS, `conflict-tenant-edit-${theme}-${viewport.width}x${viewport.height}.png`),
        });
      }
      await page.setViewportSize(VIEWPORTS[0]);
      expect(serious).toEqual([]);

      await shown.getByRole('button', { name: t('conflict.reapply'), exact: true }).click();
      // Saved with the new version: the dialog closes on the save, and the tenant holds both changes.
      await expect(dialog).toBeHidden();
      expect(await stored()).toMatchObject({ template: 'clinica', pool: 'pool-z', version: before.version + 2 });
    });
  }
});
