import type { Page } from '@playwright/test';
import { apiLogin } from './support/api';
import { signIn, tenantPath } from './support/app';
import { expect, test } from './support/fixtures';
import { t } from './support/i18n';
import { createTenant, uniquePrefix } from './support/tenants';
import { toast } from './support/toast';

/**
 * Departments and connections (docs/product.md, Departments; Instances and connections): each journey
 * works in a tenant of its own, created empty, so the demo data other journeys read never changes.
 */

interface Department {
  id: number;
  name: string;
  activated: boolean;
}

interface Connection {
  id: number;
  instance_id: number;
  name: string;
  activated: boolean;
}

const grid = (page: Page) => page.getByRole('grid', { name: t('departments.tableLabel') });
const row = (page: Page, name: string) => grid(page).getByRole('row', { name: new RegExp(name) });

test.describe('departments', () => {
  test('a new tenant gets departments from the Departments menu: refusals change nothing; the user form offers the new one', async ({
    page,
    app,
  }) => {
    const api = await apiLogin(app.origin, app.admin.email, app.admin.password);
    const tenant = await createTenant(api, uniquePrefix('dept'));
    const departments = () => api.rest<Department[]>('GET', `/api/departments?tenantName=${tenant}`);

    // The menu entry opens the screen (no longer the coming-soon page).
    await signIn(page, app.origin, app.admin);
    await page
      .getByRole('navigation', { name: t('shell.mainNavigation') })
      .getByRole('link', { name: t('menu.sections.departments'), exact: true })
      .click();
    await expect(page).toHaveURL((url) => url.pathname === tenantPath('/departments'));
    await expect(page.getByRole('main').getByRole('heading', { level: 1 })).toHaveText(t('routes.departments'));

    // The new tenant has none.
    await page.goto(`${app.origin}${tenantPath('/departments', tenant)}`);
    await expect(page.getByText(t('departments.empty'))).toBeVisible();
    expect(await departments()).toEqual([]);

    // Create one.
    const name = 'Compras e estoque';
    await page
      .getByRole('button', { name: t('departments.create'), exact: true })
      .first()
      .click();
    let dialog = page.getByRole('dialog', { name: t('departments.form.createTitle') });
    const field = dialog.getByRole('textbox', { name: t('departments.form.name') });
    await field.fill(name);
    await dialog.getByRole('button', { name: t('departments.form.createSubmit'), exact: true }).click();
    await expect(dialog).toBeHidden();
    await expect(toast(page, t('departments.notices.created', { name }))).toBeVisible();
    await expect(row(page, name)).toContainText(t('departments.activated'));

    // Bad names: blank, over 80 characters, the same name in another case. Each says why and sends nothing.
    await page
      .getByRole('button', { name: t('departments.create'), exact: true })
      .first()
      .click();
    dialog = page.getByRole('dialog', { name: t('departments.form.createTitle') });
    for (const [value, message] of [
      ['   ', t('departments.errors.nameRequired')],
      ['x'.repeat(81), t('departments.errors.nameTooLong')],
      ['COMPRAS E ESTOQUE', t('departments.errors.nameTaken')],
    ] as const) {
      await dialog.getByRole('textbox', { name: t('departments.form.name') }).fill(value);
      await dialog.getByRole('button', { name: t('departments.form.createSubmit'), exact: true }).click();
      await expect(dialog.getByText(message)).toBeVisible();
    }
    // A name another session took meanwhile: the server refuses it (409) and the field says so.
    await api.rest('POST', `/api/departments?tenantName=${tenant}`, { name: 'Financeiro' });
    await dialog.getByRole('textbox', { name: t('departments.form.name') }).fill('financeiro');
    await dialog.getByRole('button', { name: t('departments.form.createSubmit'), exact: true }).click();
    await expect(dialog.getByText(t('departments.errors.nameTaken'))).toBeVisible();
    await expect(dialog).toContainText(t('apiErrors.conflict'));
    await dialog.getByRole('button', { name: t('common.cancel'), exact: true }).click();
    expect((await departments()).map((d) => d.name).sort()).toEqual(['Compras e estoque', 'Financeiro']);

    // Rename, then deactivate and activate again from the row.
    await page.reload();
    await row(page, name)
      .getByRole('button', { name: t('departments.renameLabel', { name }) })
      .click();
    dialog = page.getByRole('dialog', { name: t('departments.form.renameTitle') });
    await expect(dialog.getByRole('textbox', { name: t('departments.form.name') })).toHaveValue(name);
    await dialog.getByRole('textbox', { name: t('departments.form.name') }).fill('Compras');
    await dialog.getByRole('button', { name: t('departments.form.renameSubmit'), exact: true }).click();
    await expect(toast(page, t('departments.notices.renamed', { name: 'Compras' }))).toBeVisible();
    await row(page, 'Compras')
      .getByRole('button', { name: t('departments.deactivateLabel', { name: 'Compras' }) })
      .click();
    await expect(row(page, 'Compras')).toContainText(t('departments.deactivated'));
    await expect(toast(page, t('departments.notices.deactivated', { name: 'Compras' }))).toBeVisible();
    await row(page, 'Financeiro')
      .getByRole('button', { name: t('departments.deactivateLabel', { name: 'Financeiro' }) })
      .click();
    await row(page, 'Financeiro')
      .getByRole('button', { name: t('departments.activateLabel', { name: 'Financeiro' }) })
      .click();
    await expect(row(page, 'Financeiro')).toContainText(t('departments.activated'));
    expect(await departments()).toEqual([
      expect.objectContaining({ name: 'Compras', activated: false }),
      expect.objectContaining({ name: 'Financeiro', activated: true }),
    ]);

    // The user form of that tenant offers them (every department, as it always did).
    await page.goto(`${app.origin}${tenantPath('/users', tenant)}`);
    await page
      .getByRole('button', { name: t('users.actions.create'), exact: true })
      .first()
      .click();
    const form = page.getByRole('dialog', { name: t('users.form.createTitle') });
    await form.getByRole('button', { name: new RegExp(t('users.form.department')) }).click();
    const picker = page.getByRole('listbox', { name: t('users.form.department') });
    await expect(picker.getByRole('option', { name: 'Financeiro', exact: true })).toBeVisible();
    await expect(picker.getByRole('option', { name: 'Compras', exact: true })).toBeVisible();
  });
});

test.describe('connections', () => {
  test('an instance gets connections in the instances panel: create, refused duplicate, rename, deactivate', async ({
    page,
    app,
  }) => {
    const api = await apiLogin(app.origin, app.admin.email, app.admin.password);
    const tenant = await createTenant(api, uniquePrefix('conn'));
    const instance = await api.rest<{ id: number; name: string }>('POST', '/api/instance', {
      name: 'WhatsApp Balcão',
      tenantName: tenant,
      isOfficial: false,
      isUnlimited: false,
    });
    const connections = () => api.rest<Connection[]>('GET', `/api/connection?tenantName=${tenant}`);

    await signIn(page, app.origin, app.admin, `/tenants?panel=instances&tenant=${tenant}`);
    await expect(page.getByText(t('instances.connections.empty'))).toBeVisible();
    const card = page.getByRole('listitem', { name: instance.name });
    const create = async (name: string) => {
      await card.getByRole('button', { name: t('instances.connections.createLabel', { name: instance.name }) }).click();
      const dialog = page.getByRole('dialog', {
        name: t('instances.connections.form.createTitle', { instance: instance.name }),
      });
      await dialog.getByRole('textbox', { name: t('instances.connections.form.name') }).fill(name);
      await dialog.getByRole('button', { name: t('instances.connections.form.createSubmit'), exact: true }).click();
      return dialog;
    };

    let dialog = await create('Atendimento 1');
    await expect(dialog).toBeHidden();
    await expect(toast(page, t('instances.connections.notices.created', { name: 'Atendimento 1' }))).toBeVisible();
    const list = page.getByRole('list', { name: t('instances.connections.listLabel', { tenant }) });
    const item = (name: string) => list.getByRole('listitem').filter({ hasText: name });
    await expect(item('Atendimento 1')).toContainText(t('instances.connections.status.disconnected'));
    await expect(item('Atendimento 1')).toContainText(t('instances.connections.activated'));

    // The same name in another case, and a blank one: refused on the field, nothing created.
    dialog = await create('ATENDIMENTO 1');
    await expect(dialog.getByText(t('instances.connections.errors.nameTaken'))).toBeVisible();
    await dialog.getByRole('textbox', { name: t('instances.connections.form.name') }).fill('  ');
    await dialog.getByRole('button', { name: t('instances.connections.form.createSubmit'), exact: true }).click();
    await expect(dialog.getByText(t('instances.connections.errors.nameRequired'))).toBeVisible();
    await dialog.getByRole('button', { name: t('common.cancel'), exact: true }).click();
    expect((await connections()).map((c) => c.name)).toEqual(['Atendimento 1']);

    // Rename and deactivate from the row.
    await item('Atendimento 1')
      .getByRole('button', { name: t('instances.connections.renameLabel', { name: 'Atendimento 1' }) })
      .click();
    dialog = page.getByRole('dialog', { name: t('instances.connections.form.renameTitle') });
    await dialog.getByRole('textbox', { name: t('instances.connections.form.name') }).fill('Balcão principal');
    await dialog.getByRole('button', { name: t('instances.connections.form.renameSubmit'), exact: true }).click();
    await expect(dialog).toBeHidden();
    await item('Balcão principal')
      .getByRole('button', { name: t('instances.connections.deactivateLabel', { name: 'Balcão principal' }) })
      .click();
    await expect(item('Balcão principal')).toContainText(t('instances.connections.deactivated'));
    await expect(
      toast(page, t('instances.connections.notices.deactivated', { name: 'Balcão principal' })),
    ).toBeVisible();
    expect(await connections()).toEqual([
      expect.objectContaining({ instance_id: instance.id, name: 'Balcão principal', activated: false }),
    ]);
  });
});
