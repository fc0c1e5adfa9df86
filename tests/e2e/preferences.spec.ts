import type { Page } from '@playwright/test';
import { STARRED_LIMIT } from '../../src/machines/preferences/preferences.machine';
import { routes } from '../../src/domain/paths';
import { pageTitle, signIn, tenantPath } from './support/app';
import { expect, test } from './support/fixtures';
import { en, t } from './support/i18n';
import { toast } from './support/toast';

/** Relative luminance (0 black … 1 white) of the body's background, to tell light from dark. */
const backgroundLuminance = (page: Page) =>
  page.evaluate(() => {
    const [r = 0, g = 0, b = 0] = (getComputedStyle(document.body).backgroundColor.match(/\d+(\.\d+)?/g) ?? []).map(
      Number,
    );
    return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
  });

test.describe('preferences', () => {
  test('language: switch to English and back', async ({ page, app }) => {
    await signIn(page, app.origin, app.admin);
    await expect(pageTitle(page)).toHaveText(t('routes.home'));
    await page.getByRole('combobox', { name: t('shell.language') }).selectOption('en');
    await expect(pageTitle(page)).toHaveText(en('routes.home'));
    await expect(page.getByRole('navigation', { name: en('shell.mainNavigation') })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    // The choice survives a reload.
    await page.reload();
    await expect(pageTitle(page)).toHaveText(en('routes.home'));
    await page.getByRole('combobox', { name: en('shell.language') }).selectOption('pt-BR');
    await expect(pageTitle(page)).toHaveText(t('routes.home'));
    await expect(page.locator('html')).toHaveAttribute('lang', 'pt-BR');
  });

  test('theme: dark survives a reload, light comes back', async ({ page, app }) => {
    await signIn(page, app.origin, app.admin);
    const light = await backgroundLuminance(page);
    expect(light).toBeGreaterThan(0.5); // light by default
    await page.getByRole('button', { name: t('shell.toggleTheme') }).click();
    await expect.poll(() => backgroundLuminance(page)).toBeLessThan(0.5);
    await page.reload();
    await expect(pageTitle(page)).toBeVisible();
    expect(await backgroundLuminance(page)).toBeLessThan(0.5);
    await page.getByRole('button', { name: t('shell.toggleTheme') }).click();
    await expect.poll(() => backgroundLuminance(page)).toBe(light);
  });

  test(`starred pages stop at ${STARRED_LIMIT}`, async ({ page, app }) => {
    await signIn(page, app.origin, app.admin);
    const pages = routes.filter((r) => r.layout === 'main' && !r.path.includes(':'));
    expect(pages.length).toBeGreaterThan(STARRED_LIMIT);
    const star = () => page.getByRole('main').getByRole('button', { name: t('shell.starPage'), exact: true });
    for (const route of pages.slice(0, STARRED_LIMIT)) {
      await page.goto(`${app.origin}${tenantPath(route.path)}`);
      await expect(pageTitle(page)).toHaveText(t(route.titleKey));
      await star().click();
      await expect(
        page.getByRole('main').getByRole('button', { name: t('shell.unstarPage'), exact: true }),
      ).toBeVisible();
    }
    const counter = page.getByRole('button', {
      name: `${t('shell.starred.title')} (${STARRED_LIMIT}/${STARRED_LIMIT})`,
    });
    await expect(counter).toBeVisible();

    const extra = pages[STARRED_LIMIT];
    if (!extra) throw new Error('no page left to star');
    await page.goto(`${app.origin}${tenantPath(extra.path)}`);
    await expect(pageTitle(page)).toHaveText(t(extra.titleKey));
    await star().click();
    await expect(toast(page, t('shell.starredLimit', { max: STARRED_LIMIT }))).toBeVisible();
    await expect(star()).toBeVisible();
    await expect(counter).toBeVisible();
    // The list survives a reload, still at the limit.
    await page.reload();
    await expect(counter).toBeVisible();
    await counter.click();
    await expect(page.getByRole('menu', { name: t('shell.starred.title') }).getByRole('menuitem')).toHaveCount(
      STARRED_LIMIT,
    );
  });
});
