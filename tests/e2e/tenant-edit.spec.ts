import type { Page } from '@playwright/test';
import { apiLogin } from './support/api';
import { signIn } from './support/app';
import { expect, test } from './support/fixtures';
import { t } from './support/i18n';
import { createTenant, freshCnpj, uniquePrefix } from './support/tenants';
import { toast } from './support/toast';

/** Editing a tenant's name, CNPJ, template and pool (POST /api/tenant/update) from the list. */

const grid = (page: Page) => page.getByRole('grid', { name: t('tenants.screen.heading') });

interface TenantRow {
  id: number;
  name: string;
  cnpj: string;
  template: string;
  pool: string;
}

test.describe('tenant edit', () => {
  test('an invalid CNPJ is refused on its field and changes nothing; a valid edit shows in the list', async ({
    page,
    app,
  }) => {
    const api = await apiLogin(app.origin, app.admin.email, app.admin.password);
    const prefix = uniquePrefix('edit');
    const name = await createTenant(api, `${prefix}-a`);
    const stored = async () =>
      (await api.rest<{ data: TenantRow[] }>('POST', '/api/tenant/paginated', { search: prefix, pagination_limit: 10 }))
        .data;
    const before = await stored();
    expect(before.map((r) => r.name)).toEqual([name]);

    await signIn(page, app.origin, app.admin, `/tenants?search=${prefix}`);
    await expect(grid(page).getByRole('rowheader')).toHaveText([name]);
    await grid(page)
      .getByRole('button', { name: t('tenants.screen.actions.more', { name }) })
      .click();
    await page.getByRole('menuitem', { name: t('tenants.screen.actions.edit'), exact: true }).click();
    const dialog = page.getByRole('dialog', { name: t('tenants.screen.form.editTitle', { name }) });
    const nameField = dialog.getByRole('textbox', { name: t('tenants.screen.form.name') });
    const cnpjField = dialog.getByRole('textbox', { name: t('tenants.screen.form.cnpj') });
    await expect(nameField).toHaveValue(name);
    await expect(cnpjField).toHaveValue(before[0]?.cnpj ?? '');

    // Wrong check digits: the field says why, the form does not send, the tenant stays as it was.
    const valid = freshCnpj();
    const wrong = `${valid.slice(0, 12)}${String((Number(valid.slice(12)) + 1) % 100).padStart(2, '0')}`;
    await cnpjField.fill(wrong);
    await dialog.getByRole('textbox', { name: t('tenants.screen.form.pool') }).fill('pool-z');
    await dialog.getByRole('button', { name: t('tenants.screen.form.submitEdit'), exact: true }).click();
    await expect(cnpjField).toHaveAttribute('aria-invalid', 'true');
    await expect(dialog.getByText(t('tenants.errors.cnpj.checkDigits'))).toBeVisible();
    await expect(dialog).toBeVisible();
    expect(await stored()).toEqual(before);

    // A name another tenant has: refused on the name by the server, nothing changes either.
    await cnpjField.fill(valid);
    await nameField.fill('backoffice');
    await dialog.getByRole('button', { name: t('tenants.screen.form.submitEdit'), exact: true }).click();
    await expect(dialog.getByText(t('apiErrors.fieldTaken'))).toBeVisible();
    await expect(nameField).toHaveAttribute('aria-invalid', 'true');
    expect(await stored()).toEqual(before);

    // A valid edit: saved, the dialog closes, the list shows the new name and CNPJ.
    const renamed = `${prefix}-b`;
    await nameField.fill(renamed);
    await dialog.getByRole('button', { name: t('tenants.screen.form.submitEdit'), exact: true }).click();
    await expect(toast(page, t('tenants.notices.edited'))).toBeVisible();
    await expect(dialog).toHaveCount(0);
    await expect(grid(page).getByRole('rowheader')).toHaveText([renamed]);
    const row = grid(page)
      .getByRole('row')
      .filter({ has: page.getByRole('rowheader', { name: renamed }) });
    const after = await stored();
    expect(after).toEqual([expect.objectContaining({ id: before[0]?.id, name: renamed, pool: 'pool-z' })]);
    await expect(row).toContainText(after[0]?.cnpj ?? 'missing');
    // The pool by its label, never the raw slug (docs/product.md, Glossary).
    await expect(row).toContainText(t('tenants.screen.pools.named', { name: 'Z' }));
  });
});
