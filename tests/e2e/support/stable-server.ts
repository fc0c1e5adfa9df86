import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect, type Page, type Request } from '@playwright/test';
import { connectionStatus } from './app';
import { t } from './i18n';
import { startServer, type RunningServer } from './server';

/**
 * What makes two runs of the screenshot tests (a11y-screens.spec.ts, visual-states.spec.ts) paint the
 * same pixels, so that their committed baselines (tests/e2e/__screenshots__/) show only what a change did
 * (docs/architecture.md, "Screenshots"):
 * - a server of the test's own: no other test's tenants, users, sign-ins or socket events in view;
 * - its clock and the page's standing still at {@link FIXED_TIME}: the same seeded rows, dates and
 *   "how long ago" texts on every run (the page's timers still run: `page.clock.setFixedTime`);
 * - the daily retention purge (its first run a minute after start, server/src/audit/retention.ts)
 *   waited for before a screen that lists the audit log;
 * - no request in flight, the socket connected and no closing toast left before a shot, animations
 *   finished, no caret.
 */

/** The instant both clocks show: a Monday afternoon in São Paulo, after the alphanumeric CNPJs began. */
export const FIXED_TIME = '2026-11-16T14:30:00-03:00';

const CLOCK = pathToFileURL(resolve(import.meta.dirname, 'server-clock.mjs')).href;

export interface StableServer extends RunningServer {
  /** Resolves once the first retention purge has written its audit record. */
  purged(): Promise<void>;
}

/** Seeding takes 15–30 s alone; four such servers start beside the suite's own on two cores. */
export const STABLE_START_TIMEOUT_MS = 300_000;

export async function startStableServer(): Promise<StableServer> {
  const server = await startServer(
    {
      NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import ${CLOCK}`.trim(),
      E2E_FIXED_TIME: FIXED_TIME,
      // The purge says it is done at info (server/src/audit/retention.ts).
      LOG_LEVEL: 'info',
    },
    { startTimeoutMs: STABLE_START_TIMEOUT_MS },
  );
  return {
    ...server,
    async purged() {
      await expect
        .poll(() => server.output().includes('audit purge: deleted the records older than the retention'), {
          message: 'the first retention purge (a minute after the server started)',
          timeout: 120_000,
        })
        .toBe(true);
    },
  };
}

const inFlight = new WeakMap<Page, Set<Request>>();

/**
 * Before the first page load: the page's clock shows {@link FIXED_TIME} (its timers run), and its
 * requests are counted for {@link networkQuiet}.
 */
export async function stablePage(page: Page): Promise<void> {
  await page.clock.setFixedTime(new Date(FIXED_TIME));
  const open = new Set<Request>();
  inFlight.set(page, open);
  page.on('request', (request) => open.add(request));
  page.on('requestfinished', (request) => open.delete(request));
  page.on('requestfailed', (request) => open.delete(request));
}

/**
 * No request of the page in flight for half a second. `waitForLoadState('networkidle')` is reached once
 * per page load, so after a navigation inside the app it no longer waits for the new screen's data.
 */
export async function networkQuiet(page: Page, held: (request: Request) => boolean = () => false): Promise<void> {
  const open = inFlight.get(page);
  if (!open) throw new Error('networkQuiet needs stablePage(page) before the first load');
  // `held`: requests a test holds on purpose (a loading state) do not count.
  const pending = () => [...open].filter((request) => !held(request)).length;
  await expect
    .poll(
      async () => {
        if (pending() > 0) return false;
        await page.waitForTimeout(500);
        return pending() === 0;
      },
      { message: 'no request in flight for 500 ms', timeout: 30_000, intervals: [100] },
    )
    .toBe(true);
}

/**
 * Waits for what settles by time rather than by data: the socket connected (signed-in screens show it
 * in the navbar at desktop widths) and the success and info toasts closed (5 s,
 * src/ui/components/toast-queue.ts), then compares the whole page with its committed baseline
 * (`toHaveScreenshot`; options in playwright.config.ts: full page, animations finished, no caret).
 * `keepToasts` is for the shot of a toast itself. `viewport` shoots only the viewport, for an open dialog
 * or a toast: both sit in a fixed layer the size of the viewport, which a whole-page shot of a longer
 * page would show cut off above the rest of the page.
 */
export async function stableScreenshot(
  page: Page,
  name: string,
  { keepToasts = false, viewport = false } = {},
): Promise<void> {
  const status = connectionStatus(page);
  if (await status.isVisible()) await expect(status).toHaveText(t('shell.connection.connected'));
  if (!keepToasts) {
    await expect(page.getByRole('region', { name: t('ui.toast.region') }).getByRole('alertdialog')).toHaveCount(0, {
      timeout: 10_000,
    });
  }
  await expect(page).toHaveScreenshot(`${name}.png`, { fullPage: !viewport });
}
