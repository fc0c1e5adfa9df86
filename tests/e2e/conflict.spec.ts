import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Browser, Page } from '@playwright/test';
import { getHref, routes } from '../../src/domain/paths';
import { apiLogin, type Api } from './support/api';
import { connectionStatus, signIn, TENANT, type Credentials } from './support/app';
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

/** A permission's label, as the editor labels its checkbox: its page's title (docs/product.md, Glossary). */
async function permissionNames(api: Api): Promise<Map<string, string>> {
  const categories = await api.rest<{ permissions: { route_name: string; display_name: string }[] }[]>(
    'GET',
    '/api/permission/categories',
  );
  const titles = new Map<string, string>(routes.map((route) => [route.name, t(route.titleKey)]));
  return new Map(
    categories.flatMap((c) =>
      c.permissions.map((p) => [p.route_name, titles.get(p.route_name) ?? p.display_name] as const),
    ),
  );
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
      await expect(shown.getByRole('region', { name: t('conflict.theirs') })).toContainText(
        t('tenants.screen.pools.named', { name: 'Z' }),
      );
      await expect(shown.getByRole('region', { name: t('conflict.mine') })).toContainText('Clinica'); // the slug read as words (docs/product.md, Glossary)
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

/** A back-office staff member who may use `routes` but does not read the audit log (learns of a change on save). */
async function staffWithoutAudit(api: Api, tag: string, routes: string[]): Promise<Credentials> {
  const role = await createRoleWith(api, tag, [...routes, 'dashboard-analytics', 'dashboard-report']);
  const user = await createUserWithRole(api, tag, PASSWORD, { id: role.id });
  return { email: user.email, password: PASSWORD };
}

async function openAt(browser: Browser, origin: string, who: Credentials, path: string, theme: 'light' | 'dark') {
  const context = await browser.newContext({ locale: 'pt-BR', timezoneId: 'America/Sao_Paulo', bypassCSP: true });
  const page = await context.newPage();
  await useTheme(page, theme);
  await signIn(page, origin, who, path);
  return { context, page };
}

/** axe on the page with the notice shown, and its screenshots at 1366 and 390 wide. */
async function shootNotice(page: Page, scope: ReturnType<Page['getByRole']>, name: string): Promise<string[]> {
  const serious = (await seriousViolations(page)).map((v) => `${name}: ${v}`);
  mkdirSync(SHOTS, { recursive: true });
  for (const viewport of VIEWPORTS) {
    await page.setViewportSize(viewport);
    await scope.scrollIntoViewIfNeeded();
    await page.screenshot({
      path: resolve(SHOTS, `${name}-${viewport.width}x${viewport.height}.png`),
      animations: 'disabled',
      caret: 'hide',
    });
  }
  await page.setViewportSize(VIEWPORTS[0]);
  return serious;
}

interface FeatureRow {
  option: string;
  enabled: boolean;
  version?: number;
}

test.describe('conflict notice on the features editor', () => {
  for (const theme of ['light', 'dark'] as const) {
    test(`${theme}: two contexts edit one tenant's features: the second save is refused with the first person's change shown, and reapplying loses nothing`, async ({
      browser,
      app,
    }) => {
      test.setTimeout(120_000);
      const api = await apiLogin(app.origin, app.admin.email, app.admin.password);
      const name = await createTenant(api, `${uniquePrefix('conflict')}-f`);
      const features = async () =>
        api.rest<FeatureRow[]>('GET', `/api/tenant/feature?tenantName=${encodeURIComponent(name)}`);
      const before = await features();
      const [theirs, mine1, mine2] = before.map((f) => f.option);
      if (!theirs || !mine1 || !mine2) throw new Error('not enough features');
      const second = await staffWithoutAudit(api, 'featnoaudit', ['tenants']);
      const path = `/tenants?panel=features&tenant=${name}`;
      const first = await openAt(browser, app.origin, app.admin, path, 'light');
      const other = await openAt(browser, app.origin, second, path, theme);
      const panel = (page: Page) => page.getByRole('dialog', { name: t('tenants.panel.title', { name }) });
      const group = (page: Page) => panel(page).getByRole('group', { name: t('features.editor.listLabel', { name }) });
      const label = (option: string) => t(`features.options.${option}` as 'features.options.chat');
      const saveFeatures = (page: Page) => panel(page).getByRole('button', { name: t('features.save'), exact: true });

      // Both load the same feature set. The second person ticks two features; the first one, and saves.
      for (const option of [mine1, mine2]) await group(other.page).getByText(label(option), { exact: true }).click();
      await group(first.page).getByText(label(theirs), { exact: true }).click();
      await saveFeatures(first.page).click();
      await expect(panel(first.page).getByText(t('features.editor.outcome.success'))).toBeVisible();

      // The second save is refused (409 stale) at its first POST: nothing of theirs is written.
      const refused = other.page.waitForResponse(
        (r) => new URL(r.url()).pathname === '/api/tenant/feature' && r.request().method() === 'POST',
      );
      await saveFeatures(other.page).click();
      expect((await refused).status()).toBe(409);
      const shown = panel(other.page).getByRole('region', { name: t('conflict.title') });
      await expect(shown).toBeVisible();
      await expect(shown.getByRole('heading', { name: t('conflict.title') })).toBeFocused();
      await expect(shown.getByRole('region', { name: t('conflict.theirs') })).toContainText(label(theirs));
      const mineRegion = shown.getByRole('region', { name: t('conflict.mine') });
      await expect(mineRegion).toContainText(label(mine1));
      await expect(mineRegion).toContainText(label(mine2));
      await expect(saveFeatures(other.page)).toHaveCount(0);
      const serious = await shootNotice(other.page, shown, `conflict-features-${theme}`);
      expect(serious).toEqual([]);

      // Reapplying reloads, lays the two ticks over the first person's change and saves them one POST at a time.
      await shown.getByRole('button', { name: t('conflict.reapply'), exact: true }).click();
      await expect(panel(other.page).getByText(t('features.editor.outcome.success'))).toBeVisible();
      await expect(panel(other.page).getByRole('region', { name: t('conflict.title') })).toHaveCount(0);
      const after = new Map((await features()).map((f) => [f.option, f.enabled]));
      for (const option of [theirs, mine1, mine2])
        expect(after.get(option), option).toBe(!before.find((f) => f.option === option)?.enabled);
      await first.context.close();
      await other.context.close();
    });
  }
});

interface DepartmentRow {
  id: number;
  name: string;
  version: number;
}

test.describe('conflict notice on the department form', () => {
  for (const theme of ['light', 'dark'] as const) {
    test(`${theme}: two contexts rename one department: the second rename is refused with the first person's shown, and reapplying keeps the typed name`, async ({
      browser,
      app,
    }) => {
      test.setTimeout(120_000);
      const api = await apiLogin(app.origin, app.admin.email, app.admin.password);
      const prefix = uniquePrefix('dept');
      const department = await api.rest<DepartmentRow>('POST', `/api/departments?tenantName=${TENANT}`, {
        name: `${prefix} Compras`,
      });
      const second = await staffWithoutAudit(api, 'deptnoaudit', ['users']);
      const first = await openAt(browser, app.origin, app.admin, '/departments', 'light');
      const other = await openAt(browser, app.origin, second, '/departments', theme);
      const renameDialog = (page: Page) => page.getByRole('dialog', { name: t('departments.form.renameTitle') });
      const openRename = async (page: Page, current: string) => {
        await page
          .getByRole('grid', { name: t('departments.tableLabel') })
          .getByRole('button', { name: t('departments.renameLabel', { name: current }), exact: true })
          .click();
        return renameDialog(page).getByRole('textbox', { name: t('departments.form.name') });
      };
      const submit = (page: Page) =>
        renameDialog(page).getByRole('button', { name: t('departments.form.renameSubmit'), exact: true });

      // Both open the rename dialog on the same version; the first renames and saves.
      const otherField = await openRename(other.page, department.name);
      await otherField.fill(`${prefix} Suprimentos`);
      const firstField = await openRename(first.page, department.name);
      await firstField.fill(`${prefix} Compras e estoque`);
      await submit(first.page).click();
      await expect(renameDialog(first.page)).toBeHidden();

      // The second rename is refused (409 stale): the first person's rename is shown beside the typed name.
      const refused = other.page.waitForResponse(
        (r) => new URL(r.url()).pathname === `/api/departments/${department.id}` && r.request().method() === 'PATCH',
      );
      await submit(other.page).click();
      expect((await refused).status()).toBe(409);
      const shown = renameDialog(other.page).getByRole('region', { name: t('conflict.title') });
      await expect(shown).toBeVisible();
      await expect(shown.getByRole('heading', { name: t('conflict.title') })).toBeFocused();
      await expect(shown.getByRole('region', { name: t('conflict.theirs') })).toContainText(
        `${prefix} Compras e estoque`,
      );
      await expect(shown.getByRole('region', { name: t('conflict.mine') })).toContainText(`${prefix} Suprimentos`);
      await expect(submit(other.page)).toHaveCount(0);
      let stored = (await api.rest<DepartmentRow[]>('GET', `/api/departments?tenantName=${TENANT}`)).find(
        (d) => d.id === department.id,
      );
      expect(stored).toMatchObject({ name: `${prefix} Compras e estoque`, version: 2 });
      const serious = await shootNotice(other.page, shown, `conflict-department-${theme}`);
      expect(serious).toEqual([]);

      // Reapplying saves the typed name with the new version: nothing typed is lost.
      await shown.getByRole('button', { name: t('conflict.reapply'), exact: true }).click();
      await expect(renameDialog(other.page)).toBeHidden();
      await expect(
        other.page
          .getByRole('grid', { name: t('departments.tableLabel') })
          .getByRole('row', { name: new RegExp(`${prefix} Suprimentos`) }),
      ).toBeVisible();
      stored = (await api.rest<DepartmentRow[]>('GET', `/api/departments?tenantName=${TENANT}`)).find(
        (d) => d.id === department.id,
      );
      expect(stored).toMatchObject({ name: `${prefix} Suprimentos`, version: 3 });
      await first.context.close();
      await other.context.close();
    });
  }
});

test.describe('conflict notice on the instance and connection forms', () => {
  for (const theme of ['light', 'dark'] as const) {
    test(`${theme}: a change saved elsewhere shows in the open instance and connection dialogs at once; reapply keeps theirs and the admin's`, async ({
      page,
      app,
    }) => {
      test.setTimeout(120_000);
      const api = await apiLogin(app.origin, app.admin.email, app.admin.password);
      const tenant = await createTenant(api, `${uniquePrefix('conflict')}-i`);
      const instance = await api.rest<{ id: number; name: string }>('POST', '/api/instance', {
        name: 'WhatsApp Balcão',
        tenantName: tenant,
        isOfficial: false,
        isUnlimited: false,
      });
      const connection = await api.rest<{ id: number; name: string }>('POST', '/api/connection', {
        instance_id: instance.id,
        name: 'Atendimento 1',
        tenantName: tenant,
      });
      await useTheme(page, theme);
      await signIn(page, app.origin, app.admin, `/tenants?panel=instances&tenant=${tenant}`);
      await expect(connectionStatus(page)).toHaveText(t('shell.connection.connected'));
      const card = page.getByRole('listitem', { name: instance.name });
      const serious: string[] = [];

      // The instance: the admin renames it while someone else deactivates it.
      await card.getByRole('button', { name: t('instances.actions.editLabel', { name: instance.name }) }).click();
      let dialog = page.getByRole('dialog', { name: t('instances.form.updateTitle', { name: instance.name }) });
      await dialog.getByRole('textbox', { name: t('instances.form.name') }).fill('WhatsApp Balcão 2');
      await api.rest('POST', '/api/instance/update', { id: instance.id, tenantName: tenant, activated: false });
      let shown = dialog.getByRole('region', { name: t('conflict.title') });
      await expect(shown).toBeVisible({ timeout: 5000 });
      await expect(shown.getByRole('region', { name: t('conflict.mine') })).toContainText('WhatsApp Balcão 2');
      await expect(dialog.getByRole('button', { name: t('instances.form.updateSubmit'), exact: true })).toHaveCount(0);
      serious.push(...(await shootNotice(page, shown, `conflict-instance-${theme}`)));
      await shown.getByRole('button', { name: t('conflict.reapply'), exact: true }).click();
      await expect(dialog).toBeHidden();
      const instances = await api.rest<{ id: number; name: string; activated: boolean }[]>(
        'GET',
        `/api/instance?tenantName=${tenant}`,
      );
      expect(instances.find((i) => i.id === instance.id)).toMatchObject({
        name: 'WhatsApp Balcão 2',
        activated: false,
      });

      // The connection: the admin renames it while someone else deactivates it.
      const list = page.getByRole('list', { name: t('instances.connections.listLabel', { tenant }) });
      await list
        .getByRole('listitem')
        .filter({ hasText: connection.name })
        .getByRole('button', { name: t('instances.connections.renameLabel', { name: connection.name }) })
        .click();
      dialog = page.getByRole('dialog', { name: t('instances.connections.form.renameTitle') });
      await dialog.getByRole('textbox', { name: t('instances.connections.form.name') }).fill('Balcão principal');
      await api.rest('POST', '/api/connection/update', { id: connection.id, tenantName: tenant, activated: false });
      shown = dialog.getByRole('region', { name: t('conflict.title') });
      await expect(shown).toBeVisible({ timeout: 5000 });
      await expect(shown.getByRole('region', { name: t('conflict.mine') })).toContainText('Balcão principal');
      serious.push(...(await shootNotice(page, shown, `conflict-connection-${theme}`)));
      await shown.getByRole('button', { name: t('conflict.reapply'), exact: true }).click();
      await expect(dialog).toBeHidden();
      const connections = await api.rest<{ id: number; name: string; activated: boolean }[]>(
        'GET',
        `/api/connection?tenantName=${tenant}`,
      );
      expect(connections.find((c) => c.id === connection.id)).toMatchObject({
        name: 'Balcão principal',
        activated: false,
      });
      expect(serious).toEqual([]);
    });
  }
});
