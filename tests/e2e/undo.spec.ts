import { resolve } from 'node:path';
import type { Page } from '@playwright/test';
import { apiLogin } from './support/api';
import { signIn, tenantPath } from './support/app';
import { seriousViolations, useTheme } from './support/axe';
import { expect, test } from './support/fixtures';
import { escapeRegExp, t } from './support/i18n';
import { createTenant, uniquePrefix } from './support/tenants';
import { toast } from './support/toast';
import { createUser, createUserWithRole } from './support/users';

/**
 * Undo on the server (docs/lists.md, Undo on the server) in Chromium over the real server: a user's block
 * undone from its toast; a user's edit saved over GraphQL undone from its toast; a tenant's plan change undone from the audit log, after a reload, by another
 * administrador. axe on the toast and on the detail, light and dark; screenshots of the detail's outcome.
 */

test.use({ bypassCSP: true });

const SHOTS = resolve(import.meta.dirname, '../../screenshots');
const detailName = new RegExp(`^${escapeRegExp(t('audit.detail.title', { id: '§' })).replace('§', '\\d+')}$`);

function userRow(page: Page, name: string) {
  return page.getByRole('grid', { name: t('users.list.heading') }).getByRole('row', { name });
}

test.describe('undo', () => {
  for (const theme of ['light', 'dark'] as const) {
    test(`${theme}: a user blocked, undone from the toast; the undo's toast offers to undo it again`, async ({
      page,
      app,
    }) => {
      await useTheme(page, theme);
      const api = await apiLogin(app.origin, app.admin.email, app.admin.password);
      const user = await createUser(api, 'undo', 'Pharm#cy!Blue');
      // The user's own search: its row is on the first page however many users the journeys made, and an
      // address with a list part opens no saved default view (views.spec.ts saves one for this admin).
      await signIn(page, app.origin, app.admin, `/users?q=${encodeURIComponent(user.email)}`);
      const row = userRow(page, user.name);
      await row.getByRole('button', { name: t('users.actions.more', { name: user.name }) }).click();
      await page.getByRole('menuitem', { name: t('users.actions.block'), exact: true }).click();
      const confirm = page.getByRole('alertdialog', { name: t('users.confirm.block.title') });
      await confirm.getByRole('button', { name: t('users.actions.block'), exact: true }).click();
      const blocked = toast(page, t('users.notices.blocked'));
      await expect(blocked).toBeVisible();
      const undo = blocked.getByRole('button', { name: t('undo.action'), exact: true });
      await expect(undo).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
      await page.setViewportSize({ width: 1366, height: 768 });
      await page.screenshot({ path: `${SHOTS}/undo-toast-${theme}-1366x768.png` });

      const answered = page.waitForResponse((r) => /\/api\/audit\/\d+\/undo$/.test(r.url()));
      await undo.click();
      expect((await answered).status()).toBe(200);
      const undone = toast(page, t('undo.toast.undone'));
      await expect(undone).toBeVisible();
      // The server agrees: the user is no longer blocked.
      const users = await api.rest<{ id: number; blocked: boolean }[]>('GET', '/api/users');
      expect(users.find((u) => u.id === user.id)?.blocked).toBe(false);
      // The undo is itself undoable from its toast.
      await expect(undone.getByRole('button', { name: t('undo.action'), exact: true })).toBeVisible();
    });
  }

  test('a user edited through the form (GraphQL), undone from the toast; after a reload the audit record says it was undone', async ({
    page,
    app,
  }) => {
    const api = await apiLogin(app.origin, app.admin.email, app.admin.password);
    const user = await createUser(api, 'undoform', 'Pharm#cy!Blue');
    await signIn(page, app.origin, app.admin, `/users?q=${encodeURIComponent(user.name)}`);
    await userRow(page, user.name)
      .getByRole('button', { name: t('users.actions.editNamed', { name: user.name }) })
      .click();
    const dialog = page.getByRole('dialog', { name: t('users.form.editTitle', { name: user.name }) });
    await dialog.getByRole('textbox', { name: t('users.form.name'), exact: true }).fill(`${user.name} Lima`);
    // The save goes over GraphQL (src/machines/users/users-actors.ts `updateUser`), whose answer names its record.
    // (Chromium hands Playwright no body of the client's fetch: the answer is told by its header.)
    const saved = page.waitForResponse((r) => r.url().endsWith('/graphql') && 'x-audit-record' in r.headers());
    await dialog.getByRole('button', { name: t('users.form.submitSave'), exact: true }).click();
    const record = Number((await saved).headers()['x-audit-record']);
    expect(Number.isInteger(record) && record > 0).toBe(true);
    const updated = toast(page, t('users.notices.updated'));
    await expect(updated).toBeVisible();
    const answered = page.waitForResponse((r) => r.url().endsWith(`/api/audit/${record}/undo`));
    await updated.getByRole('button', { name: t('undo.action'), exact: true }).click();
    expect((await answered).status()).toBe(200);
    await expect(toast(page, t('undo.toast.undone'))).toBeVisible();
    // The old name is back, on the server and in the list.
    const users = await api.rest<{ id: number; name: string }[]>('GET', '/api/users');
    expect(users.find((u) => u.id === user.id)?.name).toBe(user.name);
    await expect(userRow(page, user.name)).toBeVisible();

    // After a reload the record of the edit says it was undone and offers nothing more.
    await page.goto(`${app.origin}${tenantPath('/audit?operation=user.update')}`);
    await page.reload();
    // Newest first: the undo's record (itself a user.update), then the edit's.
    const rows = page
      .getByRole('grid', { name: t('audit.tableLabel') })
      .getByRole('row')
      .filter({ hasText: user.name });
    await expect(rows).toHaveCount(2);
    await rows.last().getByRole('button').click();
    const detail = page.getByRole('region', { name: detailName });
    await expect(detail).toContainText(t('undo.detail.undoneBy', { id: '§' }).split('§')[0]!);
    await expect(detail.getByRole('button', { name: t('undo.action'), exact: true })).toHaveCount(0);
  });

  for (const theme of ['light', 'dark'] as const) {
    test(`${theme}: a tenant's plan changed, reload, undone from the audit log by another administrador`, async ({
      page,
      app,
    }) => {
      await useTheme(page, theme);
      const api = await apiLogin(app.origin, app.admin.email, app.admin.password);
      const name = await createTenant(api, uniquePrefix('undo'));
      const tenants = await api.rest<{ data: { id: number; name: string }[] }>('POST', '/api/tenant/paginated', {
        search: name,
        pagination_limit: 10,
      });
      const tenant = tenants.data.find((x) => x.name === name);
      if (!tenant) throw new Error(`tenant ${name} not listed`);
      await api.rest('POST', '/api/tenant/set-plan', { id: tenant.id, plan: 'enterprise', user: 90, ticket: 900 });
      const password = 'Pharm#cy!Blue';
      const second = await createUserWithRole(api, 'undoadmin', password, { name: 'administrador' });

      await signIn(page, app.origin, { email: second.email, password }, `/audit?operation=tenant.plan`);
      await page.reload();
      const planRow = page
        .getByRole('grid', { name: t('audit.tableLabel') })
        .getByRole('row')
        .filter({ hasText: name })
        .filter({ hasText: t('audit.operation.tenant.plan') });
      await expect(planRow).toHaveCount(1);
      await planRow.getByRole('button').click();
      const detail = page.getByRole('region', { name: detailName });
      const undo = detail.getByRole('button', { name: t('undo.action'), exact: true });
      await expect(undo).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
      await undo.click();
      await expect(
        detail.getByRole('status').filter({ hasText: t('undo.detail.undone', { id: '§' }).split('§')[0]! }),
      ).toBeVisible();
      await expect(undo).toHaveCount(0);
      expect(await seriousViolations(page)).toEqual([]);
      for (const [width, height] of [
        [1366, 768],
        [390, 844],
      ] as const) {
        await page.setViewportSize({ width, height });
        await page.screenshot({ path: `${SHOTS}/undo-audit-detail-${theme}-${width}x${height}.png` });
      }
      const after = await api.rest<{ data: { id: number; plan: string; user_limit: number }[] }>(
        'POST',
        '/api/tenant/paginated',
        { search: name, pagination_limit: 10 },
      );
      expect(after.data.find((x) => x.id === tenant.id)).toMatchObject({ plan: 'starter' });

      // After a reload the list holds the undo too (newest first, itself undoable); the change, below it,
      // says who undid it and offers nothing more.
      await page.reload();
      await expect(planRow).toHaveCount(2);
      await planRow.first().getByRole('button').click();
      await expect(detail).toContainText(t('undo.detail.undoOf', { id: '§' }).split('§')[0]!);
      await expect(detail.getByRole('button', { name: t('undo.action'), exact: true })).toBeVisible();
      // Another row's details take the place of these (one record's details show at a time).
      await planRow.last().getByRole('button').click();
      await expect(detail).toContainText(t('undo.detail.undoneBy', { id: '§' }).split('§')[0]!);
      await expect(detail.getByRole('button', { name: t('undo.action'), exact: true })).toHaveCount(0);
    });
  }
});
