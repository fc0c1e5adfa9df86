import type { Page, Route } from '@playwright/test';
import { resolve } from 'node:path';
import { apiLogin } from './support/api';
import { credentialsFrom, pageTitle, signIn, tenantPath, holdScripts } from './support/app';
import { seriousViolations, useTheme } from './support/axe';
import { expect, test } from './support/fixtures';
import { t } from './support/i18n';
import { startServer, type RunningServer } from './support/server';
import { createTenant, uniquePrefix } from './support/tenants';

/**
 * An attack, as a demanding user in Chromium, on what the bundle round changed: the lists' save-view dialog
 * and column chooser in chunks of their own (src/ui/components/views/list-views.tsx) when those chunks fail
 * to arrive, and the dashboards' period filter as a native select (src/ui/screens/dashboard/period-filter.tsx)
 * by keyboard, in the address and after a reload.
 */
test.use({ bypassCSP: true });

const SHOTS = resolve(import.meta.dirname, '../../screenshots');

test.afterEach(async ({ page }) => {
  await page.unrouteAll({ behavior: 'wait' });
});

/** Every async chunk whose code `matches` fails (connection refused) while `failing`; the others pass. */
async function failChunk(page: Page, matches: (code: string) => boolean) {
  const state = { failing: true, failed: 0, fetched: 0 };
  await page.route('**/static/js/async/**', async (route: Route) => {
    const response = await route.fetch();
    const body = await response.body();
    if (matches(body.toString('utf8'))) {
      state.fetched += 1;
      if (state.failing) {
        state.failed += 1;
        await route.abort('connectionrefused');
        return;
      }
    }
    const headers = { ...response.headers() };
    delete headers['content-encoding'];
    delete headers['content-length'];
    await route.fulfill({ status: response.status(), headers, body });
  });
  return state;
}

test('the save-view dialog whose chunk failed: no alert while nobody asked for it; asked for, the error and its retry', async ({
  page,
  app,
}) => {
  // A string only the save/rename dialog's module holds (src/ui/components/views/view-form-dialog.tsx).
  const state = await failChunk(page, (code) => code.includes('views.form.nameHint'));
  await signIn(page, app.origin, app.admin, '/tenants');
  await expect(page.getByRole('grid').getByRole('row').nth(1)).toBeVisible();
  const menu = page.getByRole('button', { name: t('views.menu'), exact: true });
  await expect(menu).toBeEnabled();
  // The list is usable and says nothing of a dialog nobody opened, whatever became of its chunk.
  await page.waitForTimeout(1_000);
  const failed = page.getByRole('alert').filter({ hasText: t('common.partError.title') });
  await expect(failed).toHaveCount(0);

  // Asked for: the dialog's place says its code did not arrive, with a retry.
  await menu.click();
  await page.getByRole('menuitem', { name: t('views.save') }).click();
  await expect(failed).toBeVisible();
  expect(state.failed).toBeGreaterThanOrEqual(1);
  expect(await seriousViolations(page)).toEqual([]);

  // The network is back: the retry fetches the chunk and the dialog opens, its name field focused.
  state.failing = false;
  await failed.getByRole('button', { name: t('common.retry') }).click();
  const dialog = page.getByRole('dialog', { name: t('views.form.saveTitle') });
  await expect(dialog).toBeVisible();
  await expect(failed).toHaveCount(0);
  await expect(dialog.getByRole('textbox', { name: t('views.form.name') })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
});

test('the column chooser whose chunk failed: nothing until asked; asked for, the error, and the retry opens it', async ({
  page,
  app,
}) => {
  // The chooser's module (src/ui/components/views/column-chooser-popover.tsx) reads the prop `onShownChange`,
  // a property name the minifier keeps; the bar's module passes it too, but also names the button's text.
  const state = await failChunk(
    page,
    (code) => code.includes('onShownChange') && !code.includes('views.columns.button'),
  );
  await signIn(page, app.origin, app.admin, '/tenants');
  await expect(page.getByRole('grid').getByRole('row').nth(1)).toBeVisible();
  const failed = page.getByRole('alert').filter({ hasText: t('common.partError.title') });
  await page.waitForTimeout(1_000);
  await expect(failed).toHaveCount(0);
  await page.getByRole('button', { name: t('views.columns.button') }).click();
  await expect(failed).toBeVisible();
  expect(state.failed).toBeGreaterThanOrEqual(1);
  state.failing = false;
  await failed.getByRole('button', { name: t('common.retry') }).click();
  await expect(page.getByRole('dialog', { name: t('views.columns.title') })).toBeVisible();
  await expect(failed).toHaveCount(0);
});

test('the period filter by keyboard: each preset in the address, kept on reload, described by its dates', async ({
  page,
  app,
}) => {
  await signIn(page, app.origin, app.admin, '/dashboard/analytics');
  const period = page.getByRole('combobox', { name: t('dashboard.filters.period') });
  await expect(period).toBeVisible();
  await expect(period).toHaveValue('last30');
  // Its description is the range it stands for.
  const described = await period.getAttribute('aria-describedby');
  expect(described).toBeTruthy();
  await expect(page.locator(`[id="${described}"]`)).toHaveText(/\d/);

  await period.focus();
  // Down from "last 30 days" by keyboard: "last 90 days" (a native select changes its value on the arrow keys).
  await page.keyboard.press('ArrowDown');
  await expect(period).toHaveValue('last90');
  await expect(page).toHaveURL(/[?&]from=\d{4}-\d{2}-\d{2}/);
  const from90 = new URL(page.url()).searchParams.get('from');
  await page.reload();
  await expect(period).toHaveValue('last90');
  expect(new URL(page.url()).searchParams.get('from')).toBe(from90);

  // Back to the default: the address loses the period (the defaults are left out of it).
  await period.selectOption('last30');
  await expect(period).toHaveValue('last30');
  await expect.poll(() => new URL(page.url()).searchParams.get('from')).toBeNull();

  // "Personalizado" opens the dates (their own chunk) and the select says so; the address keeps the last period.
  await period.selectOption('custom');
  await expect(period).toHaveValue('custom');
  await expect(page.getByRole('group', { name: t('dashboard.filters.dates') })).toBeVisible();
  expect(new URL(page.url()).searchParams.get('from')).toBeNull();
  expect(await seriousViolations(page)).toEqual([]);
});

test('typing into the prerendered login while its script arrives: the field the user is in keeps the focus and every key', async ({
  page,
  app,
}) => {
  // The scripts held back until the user is mid-password, as on a slow network; the first render is a
  // transition now (src/app/mount-app.tsx), so hydration ends while the user types.
  const release = await holdScripts(page);
  await page.goto(`${app.origin}${tenantPath('/login')}?to=%2Ftenants`, { waitUntil: 'commit' });
  const email = page.getByRole('textbox', { name: t('auth.login.email'), exact: true });
  const password = page.getByRole('textbox', { name: t('auth.login.password'), exact: true });
  const submit = page.getByRole('button', { name: t('auth.login.submit'), exact: true });
  await email.fill(app.admin.email);
  await password.click();
  const half = Math.floor(app.admin.password.length / 2);
  await page.keyboard.type(app.admin.password.slice(0, half));
  release();
  await expect(submit).toBeEnabled();
  await expect(password).toBeFocused();
  await page.keyboard.type(app.admin.password.slice(half));
  await expect(email).toHaveValue(app.admin.email);
  await expect(password).toHaveValue(app.admin.password);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL((url) => url.pathname === tenantPath('/tenants'));
  await expect(pageTitle(page)).toHaveText(t('routes.tenants'));
});

test('two tabs: the prerendered login in one follows a sign-in in the other; the login address reloaded signed in leads into the app', async ({
  page,
  app,
}) => {
  await page.goto(`${app.origin}${tenantPath('/login')}?to=%2Ftenants`);
  const submit = page.getByRole('button', { name: t('auth.login.submit'), exact: true });
  await expect(submit).toBeEnabled();
  // Another tab of the same browser signs in.
  const other = await page.context().newPage();
  await signIn(other, app.origin, app.admin, '/users');
  // The login tab takes the session and goes where it was asked to.
  await expect(page).toHaveURL((url) => url.pathname === tenantPath('/tenants'));
  await expect(pageTitle(page)).toHaveText(t('routes.tenants'));
  // Signed in, the login address (reloaded, or typed) shows no login form: the app takes over.
  await page.goto(`${app.origin}${tenantPath('/login')}`);
  await expect(page).toHaveURL((url) => url.pathname !== tenantPath('/login'));
  await expect(page.getByRole('main').getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByRole('button', { name: t('auth.login.submit'), exact: true })).toHaveCount(0);
  await other.close();
});

test.describe('a bounded count in the browser', () => {
  let server: RunningServer;
  test.beforeAll(async () => {
    server = await startServer({ TENANT_COUNT_BOUND: '5' });
  });
  test.afterAll(async () => {
    await server?.stop();
  });

  test('"select the more than 5 matching" selects every match: the dry run reviews all 14, not 5', async ({ page }) => {
    const { admin } = credentialsFrom(server.logins, server.password);
    const api = await apiLogin(server.origin, admin.email, admin.password);
    const prefix = uniquePrefix('sel');
    for (let i = 0; i < 14; i += 1) await createTenant(api, `${prefix}-${String(i).padStart(2, '0')}`);
    await signIn(page, server.origin, admin, `/tenants?search=${prefix}&sort=name`);
    await page.getByRole('checkbox', { name: t('ui.table.selectAll') }).check();
    await expect(page.getByText(t('selection.count', { n: '4' }))).toBeVisible();
    await page.getByRole('button', { name: t('selection.selectMatchingMore', { n: '5' }) }).click();
    await expect(page.getByText(t('selection.allMatchingMore', { n: '5' }))).toBeVisible();
    await page.getByLabel(t('bulkAction.tenants.chooseFeature')).selectOption('chatbot');
    await page.getByRole('button', { name: t('bulkAction.tenants.featureOn'), exact: true }).click();
    const action = t('bulkAction.tenants.featureOnTitle', { feature: t('features.options.chatbot') });
    const review = page.getByRole('dialog', { name: t('bulkAction.title.review', { action }) });
    await expect(review).toBeVisible();
    // Every one of the 14 is in the review, in one group or another.
    await expect(review.getByRole('listitem')).toHaveCount(14);
    await review.getByRole('button', { name: t('common.cancel') }).click();
    await expect(review).toHaveCount(0);
  });

  test('an address past the last page lands on the last page, counted exactly', async ({ page }) => {
    const { admin } = credentialsFrom(server.logins, server.password);
    const api = await apiLogin(server.origin, admin.email, admin.password);
    const prefix = uniquePrefix('past');
    for (let i = 0; i < 9; i += 1) await createTenant(api, `${prefix}-${String(i).padStart(2, '0')}`);
    await signIn(page, server.origin, admin, `/tenants?search=${prefix}&sort=name&page=99`);
    const nav = page.getByRole('navigation', { name: t('ui.pagination.label') });
    await expect(nav).toContainText('9–9 de 9');
    await expect(page.getByRole('grid').getByRole('rowheader')).toHaveText([`${prefix}-08`]);
    await expect.poll(() => new URL(page.url()).searchParams.get('page')).toBe('3');
  });

  for (const theme of ['light', 'dark'] as const)
    test(`the last known page, named as such, by keyboard; then the real last page (${theme})`, async ({ page }) => {
      await useTheme(page, theme);
      const { admin } = credentialsFrom(server.logins, server.password);
      const api = await apiLogin(server.origin, admin.email, admin.password);
      const prefix = uniquePrefix(`kb${theme}`);
      for (let i = 0; i < 14; i += 1) await createTenant(api, `${prefix}-${String(i).padStart(2, '0')}`);
      await signIn(page, server.origin, admin, `/tenants?search=${prefix}&sort=name`);
      const nav = page.getByRole('navigation', { name: t('ui.pagination.label') });
      await expect(nav).toContainText('1–4 de mais de 5');
      // No button claims to go to the last page: the one there is goes to the last page known (page 2).
      await expect(nav.getByRole('button', { name: t('ui.pagination.last'), exact: true })).toHaveCount(0);
      const lastKnown = nav.getByRole('button', { name: t('ui.pagination.lastKnown') });
      await lastKnown.focus();
      await page.keyboard.press('Enter');
      await expect(nav).toContainText('5–8 de mais de 8');
      await expect(nav.getByRole('button', { name: t('ui.pagination.goTo', { page: '2' }) })).toHaveAttribute(
        'aria-current',
        'page',
      );
      expect(await seriousViolations(page)).toEqual([]);
      for (const width of [1366, 390]) {
        await page.setViewportSize({ width, height: 800 });
        await nav.scrollIntoViewIfNeeded();
        await nav.screenshot({ path: resolve(SHOTS, `round31-pagination-bounded-${theme}-${width}.png`) });
      }
      await page.setViewportSize({ width: 1366, height: 768 });
      // Walking on by keyboard reaches the end, where the count is exact and the button is the last page's again.
      const next = nav.getByRole('button', { name: t('ui.pagination.next') });
      await next.focus();
      await page.keyboard.press('Enter');
      await expect(nav).toContainText('9–12 de mais de 12');
      await next.focus();
      await page.keyboard.press('Enter');
      await expect(nav).toContainText('13–14 de 14');
      await expect(nav.getByRole('button', { name: t('ui.pagination.last'), exact: true })).toBeDisabled();
    });
});
