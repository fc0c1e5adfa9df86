import type { Locator, Page } from '@playwright/test';
import { apiLogin } from './support/api';
import { signIn } from './support/app';
import { expect, test } from './support/fixtures';
import { t } from './support/i18n';
import { createUser } from './support/users';

/**
 * An open popover follows its trigger (src/ui/components/dialog.tsx, `Popover`): a users row menu
 * opened wide stays attached to its button (under it, or over it where it fits better) when the
 * viewport narrows (the row renders anew for the narrow layout after the resize) and when the page
 * scrolls under it.
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
 * px from the button, its end edge on the button's (placement bottom end): under it, or over it
 * (`data-placement="top"`, placePopover in src/ui/components/dialog.tsx) only when it would not fit
 * under it and there is more room over it.
 */
async function expectAttached(page: Page, list: Locator, button: Locator): Promise<void> {
  const menu = page.locator('dialog', { has: list });
  // Side and boxes read in one go in the page: no frame can move the popover between the reads.
  const where = async () => {
    const trigger = await button.elementHandle();
    return menu.evaluate((dialog, el) => {
      const [m, b] = [dialog.getBoundingClientRect(), (el as Element).getBoundingClientRect()];
      const side = (dialog as HTMLElement).dataset.placement;
      const gap = side === 'top' ? b.top - m.bottom : m.top - b.bottom;
      return { side, gap: Math.round(gap), right: Math.round(m.right - b.right) };
    }, trigger);
  };
  await expect
    .poll(async () => {
      const { gap, right } = await where();
      return { gap, right };
    })
    .toEqual({ gap: OFFSET, right: 0 });
  // Nothing to wait for that could hide a late move: it stays there on the next frames.
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
  const { side, gap } = await where();
  expect(gap).toBe(OFFSET);
  // Over the button only where it would not have fitted under it and there is more room over it.
  const [m, b, height] = [await box(menu), await box(button), page.viewportSize()?.height ?? 0];
  const below = height - (b.y + b.height) - OFFSET - 8;
  const above = b.y - OFFSET - 8;
  if (side === 'top')
    expect(m.height > below && above > below, `over with ${below} px under, ${above} over`).toBe(true);
  else expect(side).toBe('bottom');
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
  await expectAttached(page, menu, button);
  const wide = await box(button);

  await page.setViewportSize({ width: 390, height: 844 });
  // The narrow layout: "Editar" joined the menu and the actions column moved left.
  await expect(menu.getByRole('menuitem', { name: t('users.actions.edit'), exact: true })).toBeVisible();
  expect((await box(button)).x).not.toBe(wide.x);
  await expectAttached(page, menu, button);

  await page.setViewportSize({ width: 1366, height: 768 });
  await expect(menu.getByRole('menuitem', { name: t('users.actions.edit'), exact: true })).toHaveCount(0);
  await expectAttached(page, menu, button);

  // A short viewport the page scrolls in: the menu moves with the button.
  await page.setViewportSize({ width: 1366, height: 300 });
  await expectAttached(page, menu, button);
  const before = await box(button);
  await page.evaluate(() => window.scrollBy(0, 60));
  await expect.poll(async () => (await box(button)).y).toBeLessThan(before.y);
  await expectAttached(page, menu, button);

  // Still the open menu, with focus on one of its items (the pointer, left where the button was
  // clicked, focuses an item it finds itself over once the menu moved under it).
  await expect(menu).toBeVisible();
  await expect
    .poll(() => menu.evaluate((list) => list.contains(document.activeElement) && document.activeElement !== list))
    .toBe(true);
});
