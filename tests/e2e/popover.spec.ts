import type { Locator, Page } from '@playwright/test';
import { apiLogin } from './support/api';
import { signIn } from './support/app';
import { expect, test } from './support/fixtures';
import { t } from './support/i18n';
import { createUser } from './support/users';

/**
 * An open popover follows its trigger (src/ui/components/dialog.tsx, `Popover`): a users row menu
 * opened wide stays under its button when the viewport narrows (the row renders anew for the
 * narrow layout after the resize) and when the page scrolls under it.
 */

/** The gap the row menus open at under their button (menu-button.tsx). */
const OFFSET = 8;

async function box(locator: Locator) {
  const found = await locator.boundingBox();
  if (!found) throw new Error('no box');
  return found;
}

/**
 * The menu's popover (the `<dialog>` around the list, with its padding and border) hangs `OFFSET`
 * px under the button, its end edge on the button's (placement bottom end).
 */
async function expectUnder(page: Page, list: Locator, button: Locator): Promise<void> {
  const menu = page.locator('dialog', { has: list });
  await expect
    .poll(async () => {
      const [m, b] = [await box(menu), await box(button)];
      return { top: Math.round(m.y - (b.y + b.height)), right: Math.round(m.x + m.width - (b.x + b.width)) };
    })
    .toEqual({ top: OFFSET, right: 0 });
  // Nothing to wait for that could hide a late move: it stays there on the next frames.
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
  const [m, b] = [await box(menu), await box(button)];
  expect(Math.round(m.y - (b.y + b.height))).toBe(OFFSET);
}

test('a row menu opened at 1366 px follows its button to 390 px, back, and when the page scrolls', async ({
  page,
  app,
}) => {
  const api = await apiLogin(app.origin, app.admin.email, app.admin.password);
  const user = await createUser(api, 'pop', 'Pharm#cy!Blue');
  await page.setViewportSize({ width: 1366, height: 768 });
  await signIn(page, app.origin, app.admin, '/users');
  await page.getByRole('searchbox', { name: t('users.search.label') }).fill(user.email);
  const button = page.getByRole('button', { name: t('users.actions.more', { name: user.name }) });
  await button.click();
  const menu = page.getByRole('menu', { name: t('users.actions.more', { name: user.name }) });
  await expect(menu).toBeVisible();
  await expectUnder(page, menu, button);
  const wide = await box(button);

  await page.setViewportSize({ width: 390, height: 844 });
  // The narrow layout: "Editar" joined the menu and the actions column moved left.
  await expect(menu.getByRole('menuitem', { name: t('users.actions.edit'), exact: true })).toBeVisible();
  expect((await box(button)).x).not.toBe(wide.x);
  await expectUnder(page, menu, button);

  await page.setViewportSize({ width: 1366, height: 768 });
  await expect(menu.getByRole('menuitem', { name: t('users.actions.edit'), exact: true })).toHaveCount(0);
  await expectUnder(page, menu, button);

  // A short viewport the page scrolls in: the menu moves with the button.
  await page.setViewportSize({ width: 1366, height: 300 });
  await expectUnder(page, menu, button);
  const before = await box(button);
  await page.evaluate(() => window.scrollBy(0, 60));
  await expect.poll(async () => (await box(button)).y).toBeLessThan(before.y);
  await expectUnder(page, menu, button);

  // Still the open menu, with focus in it.
  await expect(menu).toBeVisible();
  await expect(menu.getByRole('menuitem').first()).toBeFocused();
});
