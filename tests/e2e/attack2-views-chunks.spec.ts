import { signIn } from './support/app';
import { expect, test } from './support/fixtures';
import { t } from './support/i18n';

/**
 * An attack on the views bar's late chunks (src/ui/components/views/list-views.tsx): the column chooser's chunk
 * is fetched when the focus reaches its button, else seconds later. A keyboard user on a slow network who reaches
 * "Colunas" and presses Enter at once.
 */
test('keyboard only, before the chooser chunk arrived: the chooser opens with the focus inside it', async ({
  page,
  app,
}) => {
  await signIn(page, app.origin, app.admin, '/users');
  const button = page.getByRole('button', { name: t('views.columns.button') });
  await expect(button).toBeVisible();
  // Every script asked for from now on (the list's own are in) arrives 2 s late.
  const late: string[] = [];
  await page.route(/\/static\/js\/.*\.js$/, async (route) => {
    late.push(route.request().url());
    await new Promise((resolve) => setTimeout(resolve, 2000));
    await route.continue();
  });
  await button.focus();
  await page.keyboard.press('Enter');
  // While the chunk is on its way the button says so (a named spinner, `aria-busy`), not "expanded" over nothing.
  await expect(button).toHaveAttribute('aria-busy', 'true');
  await expect(button).not.toHaveAttribute('aria-expanded', 'true');
  await expect(button.getByRole('progressbar', { name: t('shell.loading') })).toBeVisible();
  expect(late.length).toBeGreaterThan(0);
  const chooser = page.getByRole('dialog', { name: t('views.columns.title') });
  await expect(chooser).toBeVisible();
  expect(await chooser.evaluate((d) => d.contains(document.activeElement))).toBe(true);
  await expect(button).not.toHaveAttribute('aria-busy', 'true');
  await expect(button).toHaveAttribute('aria-expanded', 'true');
  await page.keyboard.press('Escape');
  await expect(chooser).toBeHidden();
  await expect(button).toBeFocused();
});

test('keyboard only, the chooser chunk fails: the error says so where it was asked for, its retry opens the chooser', async ({
  page,
  app,
}) => {
  await signIn(page, app.origin, app.admin, '/users');
  const button = page.getByRole('button', { name: t('views.columns.button') });
  await expect(button).toBeVisible();
  // Every script asked for from now on fails, until the network is back.
  let down = true;
  await page.route(/\/static\/js\/.*\.js$/, async (route) => (down ? route.abort() : route.continue()));
  await button.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByText(t('common.partError.title'))).toBeVisible();
  await expect(button).not.toHaveAttribute('aria-busy', 'true');
  down = false;
  await page.getByRole('button', { name: t('common.retry') }).click();
  const chooser = page.getByRole('dialog', { name: t('views.columns.title') });
  await expect(chooser).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(chooser).toBeHidden();
});
