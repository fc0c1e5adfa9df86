import type { Page, Route } from '@playwright/test';
import { CHUNK_TIMEOUT_MS } from '../../src/domain/chunk-timeout';
import { signIn } from './support/app';
import { seriousViolations, useTheme } from './support/axe';
import { expect, test } from './support/fixtures';
import { t } from './support/i18n';

/**
 * A part of a screen whose chunk stalls (src/ui/components/lazy-with-timeout.tsx): after the chunk
 * timeout (docs/product.md, Errors) the part's place says so with a retry, the rest of the screen
 * works, and the retry fetches the chunk again. The stall is a request never answered; the timeout
 * passes on the page's clock (Playwright's fake timers), not in real time.
 */
test.use({ bypassCSP: true });

/**
 * The route handler below reads each chunk's body after `route.fetch()`. A chunk still asked for when a test
 * ends (the panel, once shown, loads more parts) had its handler read a body whose page was closing:
 * "Response has been disposed". Before the page closes, stop routing and let running handlers finish.
 */
test.afterEach(async ({ page }) => {
  await page.unrouteAll({ behavior: 'wait' });
});

/**
 * Holds every async chunk whose code contains `marker` unanswered until `restore()`; passes the others
 * through. Resolves `seen` the first time it holds one.
 */
async function stallChunk(page: Page, marker: string) {
  /** `inflight`: chunks asked for and not yet answered, the held ones left out. */
  const state = { stalling: true, held: 0, fetched: 0, inflight: 0 };
  const held: Route[] = [];
  let markSeen!: () => void;
  const seen = new Promise<void>((resolve) => (markSeen = resolve));
  await page.route('**/static/js/async/**', async (route: Route) => {
    state.inflight += 1;
    try {
      const response = await route.fetch();
      const body = await response.body();
      if (body.toString('utf8').includes(marker)) {
        state.fetched += 1;
        if (state.stalling) {
          state.held += 1;
          held.push(route);
          markSeen();
          return; // not answered until the network comes back
        }
      }
      const headers = { ...response.headers() };
      // The body above is decoded: send it as such.
      delete headers['content-encoding'];
      delete headers['content-length'];
      await route.fulfill({ status: response.status(), headers, body });
    } finally {
      state.inflight -= 1;
    }
  });
  return {
    state,
    seen,
    /**
     * Every other chunk answered and nothing else loading (`aria-busy`): the fake clock's jump then
     * times out the held chunk alone. Without this wait a loaded machine still fetching another part
     * (the dashboard's charts) saw that part time out too.
     */
    othersLoaded: async () => {
      await expect.poll(() => state.inflight, { timeout: 30_000 }).toBe(0);
      await expect(page.locator('[aria-busy="true"]')).toHaveCount(0, { timeout: 30_000 });
    },
    /**
     * The network comes back: the connection that hung is reset (the browser would otherwise hand
     * a new request for the same address to the one still pending) and new requests pass.
     */
    restore: async () => {
      state.stalling = false;
      for (const route of held.splice(0)) await route.abort('connectionreset');
    },
  };
}

for (const theme of ['light', 'dark'] as const) {
  test(`a stalled sheets panel chunk shows the part error after the timeout, and its retry loads it (${theme})`, async ({
    page,
    app,
  }) => {
    await useTheme(page, theme);
    await page.clock.install();
    // A string only the sheets panel's module holds (src/ui/screens/dashboard/sheets/sheets-panel.tsx).
    const { state, seen, restore, othersLoaded } = await stallChunk(page, 'sheets.panel.tabsLabel');
    await signIn(page, app.origin, app.admin, '/dashboard/analytics');
    await seen;
    const sheets = page.getByRole('region', { name: t('sheets.panel.title') });
    await expect(page.getByRole('heading', { level: 2, name: t('dashboard.kpi.label') })).toBeVisible();
    await expect(sheets).toHaveCount(0);
    await othersLoaded();

    await page.clock.fastForward(CHUNK_TIMEOUT_MS + 1_000);
    const failed = page.getByRole('alert').filter({ hasText: t('common.partError.title') });
    await expect(failed).toBeVisible();
    await expect(failed).toContainText(t('common.partError.body'));
    // Only the part failed: the screen around it stays.
    await expect(page.getByRole('heading', { level: 2, name: t('dashboard.charts.label') })).toBeVisible();
    await expect(page.getByRole('main').getByRole('heading', { level: 1 })).toBeVisible();
    expect(await seriousViolations(page), `serious or critical axe violations (${theme})`).toEqual([]);

    // The network is back: the retry asks for the chunk again and the panel appears in place of the error.
    await restore();
    await failed.getByRole('button', { name: t('common.retry') }).click();
    await expect(sheets).toBeVisible();
    await expect(failed).toHaveCount(0);
    expect(state.held).toBe(1);
    expect(state.fetched).toBeGreaterThanOrEqual(2);
  });
}

test('a stalled dialog chunk: the error of the create-user dialog, and its retry', async ({ page, app }) => {
  await page.clock.install();
  // A string only the user form dialog's module holds (src/ui/screens/users/user-form-dialog.tsx).
  const { state, seen, restore, othersLoaded } = await stallChunk(page, 'users.form.createTitle');
  await signIn(page, app.origin, app.admin, '/users');
  const create = page.getByRole('button', { name: t('users.actions.create'), exact: true });
  await expect(create).toBeEnabled();
  await create.click();
  await seen;
  await othersLoaded();
  await page.clock.fastForward(CHUNK_TIMEOUT_MS + 1_000);
  const failed = page.getByRole('alert').filter({ hasText: t('common.partError.title') });
  await expect(failed).toBeVisible();
  // The list is still there and usable.
  await expect(page.getByRole('main').getByRole('heading', { level: 1 })).toBeVisible();
  await expect(create).toBeVisible();

  await restore();
  await failed.getByRole('button', { name: t('common.retry') }).click();
  await expect(page.getByRole('dialog', { name: t('users.form.createTitle') })).toBeVisible();
  await expect(failed).toHaveCount(0);
  expect(state.held).toBe(1);
  expect(state.fetched).toBeGreaterThanOrEqual(2);
});
