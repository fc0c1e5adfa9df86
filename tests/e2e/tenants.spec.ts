import { resolve } from 'node:path';
import type { Page } from '@playwright/test';
import { apiLogin } from './support/api';
import { credentialsFrom, signIn, submitLogin, tenantPath } from './support/app';
import { seriousViolations, useTheme } from './support/axe';
import { expect, test } from './support/fixtures';
import { t } from './support/i18n';
import { createTenant, uniquePrefix } from './support/tenants';
import { toast } from './support/toast';
import { startServer, type RunningServer } from './support/server';
import { createUserWithRole } from './support/users';

const grid = (page: Page) => page.getByRole('grid', { name: t('tenants.screen.heading') });
/** Tenant names in the order the table shows them (row headers). */
const shownNames = (page: Page) => grid(page).getByRole('rowheader');
const query = (page: Page) => new URL(page.url()).searchParams;
const SHOTS = resolve(import.meta.dirname, '../../screenshots');

test.describe('tenants', () => {
  test('paging, search, sort and the address that restores them', async ({ page, app }) => {
    const api = await apiLogin(app.origin, app.admin.email, app.admin.password);
    const prefix = uniquePrefix('list');
    // Created out of order, so "newest first" (the default) and "by name" differ.
    const created: string[] = [];
    for (const suffix of ['c', 'a', 'e', 'b', 'd']) created.push(await createTenant(api, `${prefix}-${suffix}`));
    const newestFirst = [...created].reverse();
    const byName = [...created].sort();

    await signIn(page, app.origin, app.admin, '/tenants');
    // Default page size (4 per page).
    await expect(shownNames(page)).toHaveCount(4);
    await page.getByRole('searchbox', { name: t('tenants.screen.searchLabel') }).fill(prefix);
    await expect.poll(() => query(page).get('search')).toBe(prefix);
    await expect(shownNames(page)).toHaveText(newestFirst.slice(0, 4));

    await page.getByRole('button', { name: t('ui.pagination.next') }).click();
    await expect.poll(() => query(page).get('page')).toBe('2');
    await expect(shownNames(page)).toHaveText(newestFirst.slice(4));

    await grid(page)
      .getByRole('columnheader', { name: t('tenants.screen.columns.name') })
      .click();
    await expect.poll(() => query(page).get('sort')).toMatch(/name/);
    await expect(shownNames(page)).toHaveText(byName.slice(0, 4));
    await page.getByRole('button', { name: t('ui.pagination.next') }).click();
    await expect(shownNames(page)).toHaveText(byName.slice(4));

    // The address alone restores the view: reload, and open it in a fresh page.
    const address = page.url();
    await page.reload();
    await expect(shownNames(page)).toHaveText(byName.slice(4));
    await expect(page.getByRole('searchbox', { name: t('tenants.screen.searchLabel') })).toHaveValue(prefix);
    const other = await page.context().newPage();
    await other.goto(address);
    await expect(shownNames(other)).toHaveText(byName.slice(4));
    await other.close();

    // Sorting again reverses the order.
    await grid(page)
      .getByRole('columnheader', { name: t('tenants.screen.columns.name') })
      .click();
    await expect(shownNames(page)).toHaveText([...byName].reverse().slice(0, 4));
  });

  test('an alphanumeric CNPJ typed in lower case without punctuation: created masked in upper case, listed, found by part of it', async ({
    page,
    app,
  }) => {
    const name = uniquePrefix('cnpj');
    await signIn(page, app.origin, app.admin, '/tenants');
    await page.getByRole('button', { name: t('tenants.screen.create'), exact: true }).click();
    const dialog = page.getByRole('dialog', { name: t('tenants.screen.form.createTitle') });
    await dialog.getByRole('textbox', { name: t('tenants.screen.form.name'), exact: true }).fill(name);
    const cnpj = dialog.getByRole('textbox', { name: t('tenants.screen.form.cnpj'), exact: true });
    // Key by key, as a person types it: the mask and the capitals appear as it goes.
    await cnpj.pressSequentially('12abc34501de35');
    await expect(cnpj).toHaveValue('12.ABC.345/01DE-35');
    await expect(cnpj).not.toHaveAttribute('aria-invalid', 'true');
    await dialog.getByRole('textbox', { name: t('tenants.screen.form.template'), exact: true }).fill('farmacia');
    await dialog.getByRole('textbox', { name: t('tenants.screen.form.pool'), exact: true }).fill('pool-a');
    await dialog.getByRole('button', { name: t('tenants.screen.form.submitCreate'), exact: true }).click();
    await expect(toast(page, t('tenants.notices.created'))).toBeVisible();
    await expect(dialog).toBeHidden();

    // In the list, with its CNPJ as stored.
    const search = page.getByRole('searchbox', { name: t('tenants.screen.searchLabel') });
    const row = grid(page)
      .getByRole('row')
      .filter({ has: page.getByRole('rowheader', { name, exact: true }) });
    await search.fill(name);
    await expect.poll(() => query(page).get('search')).toBe(name);
    await expect(shownNames(page)).toHaveText([name]);
    await expect(row).toContainText('12.ABC.345/01DE-35');

    // Found by a bare, lower-case part of it; newest first, so on the first page whatever else holds it.
    await search.fill('abc345');
    await expect.poll(() => query(page).get('search')).toBe('abc345');
    await expect(row).toContainText('12.ABC.345/01DE-35');
  });

  test('delete hides the tenant, the deleted view lists it, restore brings it back', async ({ page, app }) => {
    const api = await apiLogin(app.origin, app.admin.email, app.admin.password);
    const name = await createTenant(api, uniquePrefix('del'));
    await signIn(page, app.origin, app.admin, `/tenants?search=${name}`);
    await expect(shownNames(page)).toHaveText([name]);

    await grid(page)
      .getByRole('button', { name: t('tenants.screen.actions.more', { name }) })
      .click();
    await page.getByRole('menuitem', { name: t('tenants.screen.actions.delete'), exact: true }).click();
    const confirm = page.getByRole('alertdialog', { name: t('tenants.screen.deleteTitle') });
    await expect(confirm).toContainText(t('tenants.confirmDelete', { name }));
    await confirm.getByRole('button', { name: t('tenants.screen.actions.delete'), exact: true }).click();
    await expect(toast(page, t('tenants.notices.deleted'))).toBeVisible();
    await expect(grid(page).getByRole('rowheader', { name, exact: true })).toHaveCount(0);
    await expect(page.getByText(t('tenants.screen.empty.search', { search: name }))).toBeVisible();

    const views = page.getByRole('radiogroup', { name: t('tenants.screen.viewLabel') });
    // React Aria's radio input is visually hidden: a person clicks its label.
    await views.getByText(t('tenants.views.deleted'), { exact: true }).click();
    await expect.poll(() => query(page).get('view')).toBe('deleted');
    await expect(shownNames(page)).toHaveText([name]);
    await grid(page)
      .getByRole('button', { name: t('tenants.screen.actions.restoreNamed', { name }) })
      .click();
    await expect(toast(page, t('tenants.notices.restored'))).toBeVisible();
    await expect(grid(page).getByRole('rowheader', { name, exact: true })).toHaveCount(0);

    await views.getByText(t('tenants.views.active'), { exact: true }).click();
    await expect(shownNames(page)).toHaveText([name]);
    await expect(page).toHaveURL((url) => url.pathname === tenantPath('/tenants'));
  });
});

test.describe('tenants: the all view (staff)', () => {
  // axe is injected as a script (tests/e2e/support/axe.ts).
  test.use({ bypassCSP: true });

  test('the all view lists live and deleted tenants, the deleted marked with their Restaurar, and stays in the address', async ({
    page,
    app,
  }) => {
    const api = await apiLogin(app.origin, app.admin.email, app.admin.password);
    const prefix = uniquePrefix('all');
    const live = await createTenant(api, `${prefix}-a`);
    const gone = await createTenant(api, `${prefix}-b`);
    const listed = await api.rest<{ data: { id: number; name: string }[] }>('POST', '/api/tenant/paginated', {
      search: gone,
      pagination_limit: 10,
    });
    const goneId = listed.data.find((x) => x.name === gone)?.id;
    await api.rest('POST', '/api/tenant/delete', { id: goneId });
    await signIn(page, app.origin, app.admin, `/tenants?search=${prefix}&sort=name`);
    await expect(shownNames(page)).toHaveText([live]);

    const views = page.getByRole('radiogroup', { name: t('tenants.screen.viewLabel') });
    await views.getByText(t('tenants.views.all'), { exact: true }).click();
    await expect.poll(() => query(page).get('view')).toBe('all');
    await expect(shownNames(page)).toHaveCount(2);
    // "Excluída em <date>" marks a deleted row's name in the all view.
    const deletedMark = t('tenants.screen.deletedOn', { date: '' }).trim();
    const goneRow = grid(page).getByRole('row').filter({ hasText: gone });
    await expect(goneRow).toContainText(deletedMark);
    await expect(grid(page).getByRole('row').filter({ hasText: live })).not.toContainText(deletedMark);
    for (const theme of ['light', 'dark'] as const) {
      // The preference is read on load (./support/axe.ts useTheme): reload to see the theme.
      await useTheme(page, theme);
      await page.reload();
      await expect(shownNames(page)).toHaveCount(2);
      await expect.poll(() => page.evaluate(() => document.documentElement.style.colorScheme)).toBe(theme);
      expect(await seriousViolations(page)).toEqual([]);
      for (const [width, height] of [
        [1366, 768],
        [390, 844],
      ] as const) {
        await page.setViewportSize({ width, height });
        await page.screenshot({ path: `${SHOTS}/tenants-all-view-${theme}-${width}x${height}.png` });
      }
    }
    await page.setViewportSize({ width: 1366, height: 768 });
    // A reload keeps the view.
    await page.reload();
    await expect(shownNames(page)).toHaveCount(2);
    await goneRow.getByRole('button', { name: t('tenants.screen.actions.restoreNamed', { name: gone }) }).click();
    await expect(toast(page, t('tenants.notices.restored'))).toBeVisible();
    // Restored, it stays in the list, no longer marked.
    await expect(goneRow).not.toContainText(deletedMark);
    await expect(shownNames(page)).toHaveCount(2);
    expect(query(page).get('view')).toBe('all');
  });
});

test.describe("tenants: a customer's own administrador", () => {
  test('reads its plan, limits and features, with no control the server would refuse', async ({ page, app }) => {
    const api = await apiLogin(app.origin, app.admin.email, app.admin.password);
    const tenant = await createTenant(api, uniquePrefix('cust'), ['chat', 'campaigns']);
    const password = 'Pharm#cy!Blue';
    const customer = await createUserWithRole(
      await apiLogin(app.origin, app.admin.email, app.admin.password, tenant),
      'cust',
      password,
      { name: 'administrador' },
    );

    await page.goto(`${app.origin}${tenantPath('/login', tenant)}?to=${encodeURIComponent('/tenants')}`);
    await submitLogin(page, { email: customer.email, password });
    await expect(page).toHaveURL((url) => url.pathname === tenantPath('/tenants', tenant));
    const row = grid(page).getByRole('row', { name: new RegExp(tenant) });
    // The plan and the limits of createTenant (starter, 5 users, 1,000 tickets), shown, with who sets them.
    await expect(row).toContainText(t('tenants.screen.plans.starter'));
    await expect(row).toContainText('1.000');
    await expect(page.getByText(t('tenants.screen.readOnlyNote'), { exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: t('tenants.screen.create'), exact: true })).toHaveCount(0);
    await expect(page.getByRole('radiogroup', { name: t('tenants.screen.viewLabel') })).toHaveCount(0);
    await row.getByRole('button', { name: t('tenants.screen.actions.more', { name: tenant }) }).click();
    const menu = page.getByRole('menu');
    await expect(menu.getByRole('menuitem')).toHaveText(
      ['features', 'webhooks', 'analytics', 'instances'].map((id) => t(`tenants.screen.actions.${id}`)),
    );
    await menu.getByRole('menuitem', { name: t('tenants.screen.actions.features'), exact: true }).click();

    const dialog = page.getByRole('dialog', { name: t('tenants.panel.title', { name: tenant }) });
    const list = dialog.getByRole('list', { name: t('features.editor.listLabel', { name: tenant }) });
    const feature = (option: string) =>
      list.getByRole('listitem').filter({ has: page.getByText(t(`features.options.${option}`), { exact: true }) });
    await expect(feature('chat')).toContainText(t('features.editor.on'));
    await expect(feature('campaigns')).toContainText(t('features.editor.on'));
    await expect(feature('chatbot')).toContainText(t('features.editor.off'));
    await expect(dialog.getByText(t('features.editor.readOnly'), { exact: true })).toBeVisible();
    await expect(dialog.getByRole('checkbox')).toHaveCount(0);
    await expect(dialog.getByRole('button', { name: t('features.save'), exact: true })).toHaveCount(0);

    // The server agrees: the customer's own call to change a feature is refused as staff's.
    const own = await apiLogin(app.origin, customer.email, password, tenant);
    await expect(
      own.rest('POST', '/api/tenant/feature', { tenantName: tenant, option: 'chatbot', enabled: true }),
    ).rejects.toThrow(/HTTP 403/);
  });
});

/**
 * A count that stops at its bound (docs/lists.md, Counts): a server of its own counting up to 5
 * (`TENANT_COUNT_BOUND`), so a dozen tenants are "more than": the range says "mais de", "next" walks
 * past the bound, and the last page's count is exact.
 */
test.describe('tenants: a bounded count', () => {
  let server: RunningServer;
  test.beforeAll(async () => {
    server = await startServer({ TENANT_COUNT_BOUND: '5' });
  });
  test.afterAll(async () => {
    await server?.stop();
  });

  test('"mais de 5" while the count is bounded, forward past it page by page, exact on the last page', async ({
    page,
  }) => {
    const { admin } = credentialsFrom(server.logins, server.password);
    const api = await apiLogin(server.origin, admin.email, admin.password);
    const prefix = uniquePrefix('bound');
    const names: string[] = [];
    for (let i = 0; i < 10; i += 1) names.push(await createTenant(api, `${prefix}-${String(i).padStart(2, '0')}`));

    await signIn(page, server.origin, admin, `/tenants?search=${prefix}&sort=name`);
    const nav = page.getByRole('navigation', { name: t('ui.pagination.label') });
    await expect(shownNames(page)).toHaveText(names.slice(0, 4));
    await expect(nav).toContainText('1–4 de mais de 5');
    await nav.getByRole('button', { name: t('ui.pagination.next') }).click();
    await expect(shownNames(page)).toHaveText(names.slice(4, 8));
    await expect(nav).toContainText('5–8 de mais de 8');
    await nav.getByRole('button', { name: t('ui.pagination.next') }).click();
    await expect(shownNames(page)).toHaveText(names.slice(8));
    await expect(nav).toContainText('9–10 de 10');
    await expect(nav.getByRole('button', { name: t('ui.pagination.next') })).toBeDisabled();
  });
});
