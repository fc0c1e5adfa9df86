import type { Locator, Page } from '@playwright/test';
import { apiLogin } from './support/api';
import { signIn } from './support/app';
import { expect, test } from './support/fixtures';
import { escapeRegExp, t } from './support/i18n';
import { createTenant, uniquePrefix } from './support/tenants';
import { toast } from './support/toast';

/**
 * Screen dialogs are modal `<dialog>`s (src/ui/components/dialog.tsx) in a real browser: the page
 * behind is inert and does not scroll, and the React Aria lists, calendars and toasts that open
 * inside one render in its layer, so they show above it and take clicks (Playwright's click checks
 * that the element it aims at is the one that gets the click).
 */

const isModalDialog = (dialog: Locator) =>
  dialog.evaluate((element) => element.tagName === 'DIALOG' && element.matches(':modal'));

/** The dialog's layer (dialog-layer.ts), where React Aria's overlays render while it is open. */
const layer = (dialog: Locator) => dialog.locator('[data-dialog-layer]');

async function openSetPlan(page: Page, name: string): Promise<{ dialog: Locator; actions: Locator }> {
  const actions = page.getByRole('button', { name: t('tenants.screen.actions.more', { name }) });
  await actions.click();
  await page.getByRole('menuitem', { name: t('tenants.screen.actions.setPlan'), exact: true }).click();
  const dialog = page.getByRole('dialog', { name: t('tenants.screen.form.planTitle', { name }) });
  await expect(dialog).toBeVisible();
  return { dialog, actions };
}

test.describe('dialogs', () => {
  test('the plan dialog: its Select opens above it and picks by mouse and by keys; Escape closes the list, then the dialog; Tab stays inside', async ({
    page,
    app,
  }) => {
    const api = await apiLogin(app.origin, app.admin.email, app.admin.password);
    const name = await createTenant(api, uniquePrefix('dlg'));
    await signIn(page, app.origin, app.admin, `/tenants?search=${name}`);
    const { dialog, actions } = await openSetPlan(page, name);

    // A modal <dialog>: the rest of the page is inert and the page does not scroll.
    expect(await isModalDialog(dialog)).toBe(true);
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).overflow)).toBe('hidden');
    // A point of the page behind (the "Nova empresa" button) hits the dialog's backdrop, not the button.
    const create = page.getByRole('button', { name: t('tenants.screen.create'), exact: true });
    const box = await create.boundingBox();
    expect(box).not.toBeNull();
    const hit = await page.evaluate(
      ([x, y]) => document.elementFromPoint(x ?? 0, y ?? 0)?.closest('button, dialog')?.tagName,
      [(box?.x ?? 0) + (box?.width ?? 0) / 2, (box?.y ?? 0) + (box?.height ?? 0) / 2],
    );
    expect(hit).toBe('DIALOG');

    const plan = dialog.getByRole('button', { name: new RegExp(escapeRegExp(t('tenants.screen.form.plan'))) });
    const userLimit = dialog.getByRole('textbox', { name: t('tenants.screen.form.userLimit') });
    await expect(plan).toHaveText(new RegExp(t('tenants.screen.plans.starter')));
    await expect(plan).toBeFocused();

    // The mouse: the list is in the dialog's layer, and the option under the pointer takes the click.
    await plan.click();
    const list = page.getByRole('listbox');
    await expect(list).toBeVisible();
    await expect(layer(dialog).getByRole('listbox')).toBeVisible();
    await list.getByRole('option', { name: t('tenants.screen.plans.professional'), exact: true }).click();
    await expect(list).toHaveCount(0);
    await expect(plan).toHaveText(new RegExp(t('tenants.screen.plans.professional')));
    await expect(userLimit).toHaveValue('25');
    await expect(plan).toBeFocused();

    // The keys: arrows and Enter pick; Escape in the open list closes only the list.
    await page.keyboard.press('ArrowDown');
    await expect(list).toBeVisible();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await expect(list).toHaveCount(0);
    await expect(plan).toHaveText(new RegExp(t('tenants.screen.plans.enterprise')));
    await expect(userLimit).toHaveValue('200');
    await page.keyboard.press('ArrowDown');
    await expect(list).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(list).toHaveCount(0);
    await expect(dialog).toBeVisible();
    await expect(plan).toBeFocused();

    // Tab goes round inside the dialog: from its last control to its first and back.
    const save = dialog.getByRole('button', { name: t('tenants.screen.form.submitPlan'), exact: true });
    const close = dialog.getByRole('button', { name: t('common.close'), exact: true });
    await save.focus();
    await page.keyboard.press('Tab');
    await expect(close).toBeFocused();
    await page.keyboard.press('Shift+Tab');
    await expect(save).toBeFocused();

    // Escape closes the dialog; focus is back on the row's actions button, the page scrolls again.
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
    await expect(actions).toBeFocused();
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).overflow)).not.toBe('hidden');

    // The choice saves: the server has the new plan.
    const again = await openSetPlan(page, name);
    await again.dialog.getByRole('button', { name: new RegExp(escapeRegExp(t('tenants.screen.form.plan'))) }).click();
    await page
      .getByRole('listbox')
      .getByRole('option', { name: t('tenants.screen.plans.enterprise'), exact: true })
      .click();
    const answered = page.waitForResponse((r) => r.url().endsWith('/api/tenant/set-plan'));
    await again.dialog.getByRole('button', { name: t('tenants.screen.form.submitPlan'), exact: true }).click();
    expect((await answered).status()).toBe(200);
    await expect(again.dialog).toHaveCount(0);
    const row = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name }) });
    await expect(row).toContainText(t('tenants.screen.plans.enterprise'));
  });

  test("the tenant panel: a DateRangePicker's calendar opens above it and picks a range with the mouse", async ({
    page,
    app,
  }) => {
    const api = await apiLogin(app.origin, app.admin.email, app.admin.password);
    const name = await createTenant(api, uniquePrefix('dlgcal'));
    await signIn(page, app.origin, app.admin, `/tenants?panel=analytics&tenant=${name}`);
    const dialog = page.getByRole('dialog', { name: t('tenants.panel.title', { name }) });
    await expect(dialog).toBeVisible();
    expect(await isModalDialog(dialog)).toBe(true);
    const range = dialog.getByRole('group', { name: t('tenants.analytics.range') });
    const days = range.getByRole('spinbutton');
    await expect(days).toHaveCount(6);

    await range.getByRole('button', { name: new RegExp(escapeRegExp(t('ui.dateRange.openCalendar'))) }).click();
    const calendar = layer(dialog).getByRole('dialog');
    await expect(calendar).toBeVisible();
    const cells = calendar.locator(
      '[role="gridcell"] [role="button"]:not([aria-disabled="true"]):not([data-outside-month]):not([data-outside-visible-range])',
    );
    const first = cells.nth(2);
    const last = cells.nth(5);
    const [from, to] = [(await first.textContent())?.trim(), (await last.textContent())?.trim()];
    await first.click();
    await last.click();
    await expect(calendar).toHaveCount(0);
    await expect(dialog).toBeVisible();
    // Day segments read "dd" in pt-BR: the start and end days are the ones clicked.
    await expect(days.nth(0)).toHaveText(String(from).padStart(2, '0'));
    await expect(days.nth(3)).toHaveText(String(to).padStart(2, '0'));
  });

  test('a toast shown while a dialog is open appears above it and is dismissed with its button; nested dialogs close one at a time', async ({
    page,
    app,
  }) => {
    const api = await apiLogin(app.origin, app.admin.email, app.admin.password);
    const name = await createTenant(api, uniquePrefix('dlgtoast'));
    await signIn(page, app.origin, app.admin, `/tenants?panel=instances&tenant=${name}`);
    const panel = page.getByRole('dialog', { name: t('tenants.panel.title', { name }) });
    const newInstance = panel.getByRole('button', { name: t('instances.create'), exact: true }).first();
    await newInstance.click();
    const form = page.getByRole('dialog', { name: t('instances.form.createTitle') });
    await expect(form).toBeVisible();
    expect(await isModalDialog(form)).toBe(true);
    // Escape closes the inner dialog only.
    await page.keyboard.press('Escape');
    await expect(form).toHaveCount(0);
    await expect(panel).toBeVisible();

    await newInstance.click();
    const instance = `Instância ${Date.now().toString(36)}`;
    await form.getByRole('textbox', { name: t('instances.form.name'), exact: true }).fill(instance);
    await form.getByRole('button', { name: t('instances.form.createSubmit'), exact: true }).click();
    await expect(form).toHaveCount(0);
    const notice = t('instances.notices.created', { name: instance });
    const created = toast(page, notice);
    await expect(created).toBeVisible();
    // In the open panel's layer, not under <body> behind it.
    await expect(layer(panel).getByRole('alertdialog').filter({ hasText: notice })).toHaveCount(1);
    await created.getByRole('button', { name: t('ui.toast.dismiss') }).click();
    await expect(created).toHaveCount(0);
    await expect(panel).toBeVisible();
  });
});
