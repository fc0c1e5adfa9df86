import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Page } from '@playwright/test';
import { apiLogin } from './support/api';
import { signIn } from './support/app';
import { seriousViolations, useTheme } from './support/axe';
import { expect, test } from './support/fixtures';
import { t } from './support/i18n';
import { createUserWithRole } from './support/users';

/**
 * Saved views and the column chooser (docs/lists.md, Views) in the browser against the real server: on the
 * users list, hide a column, save the list as a view marked default, reopen the list with a bare address
 * (the default view opens: its query in the address, its column hidden), update it with another hidden
 * column, then rename and delete it; the tenants and audit lists carry the same controls. axe on each state, light and dark;
 * screenshots at 1366×768 and 390×844 into `screenshots/` (gitignored).
 */
const SHOTS = resolve(import.meta.dirname, '../../screenshots');
const VIEWPORTS = [
  { width: 1366, height: 768 },
  { width: 390, height: 844 },
] as const;

test.use({ bypassCSP: true });

async function shoot(page: Page, name: string, theme: string, serious: string[]): Promise<void> {
  serious.push(...(await seriousViolations(page)).map((v) => `${name} (${theme}): ${v}`));
  for (const viewport of VIEWPORTS) {
    await page.setViewportSize(viewport);
    await page.waitForTimeout(200);
    await page.screenshot({
      path: resolve(SHOTS, `views-${name}-${theme}-${viewport.width}x${viewport.height}.png`),
      animations: 'disabled',
      caret: 'hide',
    });
  }
  await page.setViewportSize(VIEWPORTS[0]);
}

for (const theme of ['light', 'dark'] as const) {
  test(`saved views and columns, ${theme}: save a default view, reopen the list with it, rename and delete it; axe finds no serious violation`, async ({
    page,
    app,
  }) => {
    test.setTimeout(150_000);
    mkdirSync(SHOTS, { recursive: true });
    await useTheme(page, theme);
    const serious: string[] = [];
    const name = `Por e-mail ${theme}`;
    // An administrador of the test's own: saved views are the user's (docs/lists.md, Views), and the light
    // and dark runs share the server, so with one user each would open the other's default view.
    const api = await apiLogin(app.origin, app.admin.email, app.admin.password);
    const own = await createUserWithRole(api, `views${theme}`, app.admin.password, { name: 'administrador' });
    await signIn(page, app.origin, { email: own.email, password: app.admin.password }, '/users?sort=email&dir=desc');
    const grid = page.getByRole('grid', { name: t('users.list.heading') });
    await expect(grid.getByRole('row').nth(1)).toBeVisible();

    // Hide the department column from the chooser.
    await page.getByRole('button', { name: t('views.columns.button') }).click();
    const chooser = page.getByRole('dialog', { name: t('views.columns.title') });
    await expect(
      chooser.getByRole('checkbox', { name: t('views.columns.fixed', { name: t('users.columns.name') }) }),
    ).toBeDisabled();
    await chooser.getByText(t('users.columns.department'), { exact: true }).click();
    await expect(grid.getByRole('columnheader', { name: t('users.columns.department') })).toHaveCount(0);
    await shoot(page, 'users-columns', theme, serious);
    await page.keyboard.press('Escape');

    // Save the list as it is, as the default, by keyboard.
    const menuButton = page.getByRole('button', { name: t('views.menu'), exact: true });
    await menuButton.focus();
    await page.keyboard.press('Enter');
    const menu = page.getByRole('menu', { name: t('views.menuLabel') });
    await expect(menu).toBeVisible();
    await shoot(page, 'users-menu-empty', theme, serious);
    await menu.getByRole('menuitem', { name: t('views.save') }).press('Enter');
    const dialog = page.getByRole('dialog', { name: t('views.form.saveTitle') });
    await dialog.getByRole('textbox', { name: t('views.form.name') }).fill(name);
    await dialog.getByText(t('views.form.makeDefault')).click();
    await shoot(page, 'users-save-dialog', theme, serious);
    await dialog.getByRole('button', { name: t('views.form.saveSubmit') }).click();
    await expect(dialog).toHaveCount(0);
    const active = page.getByRole('button', { name: t('views.menuActive', { name }) });
    await expect(active).toBeVisible();

    // A bare address opens the default view.
    await page.goto(`${app.origin}/backoffice/users`);
    await expect(page).toHaveURL(/\/users\?sort=email&dir=desc$/);
    await expect(active).toBeVisible();
    await expect(grid.getByRole('columnheader', { name: t('users.columns.email') })).toBeVisible();
    await expect(grid.getByRole('columnheader', { name: t('users.columns.department') })).toHaveCount(0);
    // Hide the role too and put the list as it is into the open view: a bare address then hides both.
    await page.getByRole('button', { name: t('views.columns.button') }).click();
    await chooser.getByText(t('users.columns.role'), { exact: true }).click();
    await page.keyboard.press('Escape');
    await active.click();
    await menu.getByRole('menuitem', { name: t('views.update', { name }) }).click();
    await expect(page.getByText(t('views.notices.updated'))).toBeVisible();
    await page.goto(`${app.origin}/backoffice/users`);
    await expect(page).toHaveURL(/\/users\?sort=email&dir=desc$/);
    await expect(grid.getByRole('columnheader', { name: t('users.columns.email') })).toBeVisible();
    await expect(grid.getByRole('columnheader', { name: t('users.columns.role') })).toHaveCount(0);
    await expect(grid.getByRole('columnheader', { name: t('users.columns.department') })).toHaveCount(0);
    await active.click();
    await expect(menu.getByRole('menuitem', { name: t('views.defaultMark', { name }) })).toBeVisible();
    await shoot(page, 'users-menu', theme, serious);

    // Rename, then delete after the confirmation.
    await menu.getByRole('menuitem', { name: t('views.rename', { name }) }).click();
    const rename = page.getByRole('dialog', { name: t('views.form.renameTitle') });
    await rename.getByRole('textbox', { name: t('views.form.name') }).fill(`${name} (2)`);
    await rename.getByRole('button', { name: t('views.form.renameSubmit') }).click();
    const renamed = page.getByRole('button', { name: t('views.menuActive', { name: `${name} (2)` }) });
    await expect(renamed).toBeVisible();
    await renamed.click();
    await menu.getByRole('menuitem', { name: t('views.delete', { name: `${name} (2)` }) }).click();
    const confirm = page.getByRole('alertdialog', { name: t('views.confirmDelete.title') });
    await shoot(page, 'users-delete', theme, serious);
    await confirm.getByRole('button', { name: t('views.confirmDelete.confirm') }).click();
    await expect(menuButton).toBeVisible();

    // The tenants and audit lists carry the same controls.
    await page.goto(`${app.origin}/backoffice/tenants`);
    await expect(page.getByRole('button', { name: t('views.columns.button') })).toBeVisible();
    await page.getByRole('button', { name: t('views.menu'), exact: true }).click();
    await expect(menu).toBeVisible();
    await shoot(page, 'tenants-menu', theme, serious);
    await page.keyboard.press('Escape');
    await page.goto(`${app.origin}/backoffice/audit`);
    await page.getByRole('button', { name: t('views.columns.button') }).click();
    await expect(page.getByRole('dialog', { name: t('views.columns.title') })).toBeVisible();
    await shoot(page, 'audit-columns', theme, serious);

    expect(serious).toEqual([]);
  });
}
