import { expect, type Page } from '@playwright/test';
import { seriousViolations } from './axe';
import { networkQuiet, stableScreenshot } from './stable-server';

/**
 * Steps shared by the screenshot tests (a11y-screens.spec.ts, visual-states.spec.ts, visual-dialogs.spec.ts):
 * a screen settled before its shot, the sign-in's presence call answered, a screen opened inside the
 * running app, a state shot at both widths with axe after each shot.
 */

/** The screen's h1 shown, no request in flight, nothing busy (lazy chunks and data loaded). */
export async function settle(page: Page): Promise<void> {
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.waitForLoadState('networkidle');
  await networkQuiet(page);
  // Lazy chunks and data: nothing left loading (busy regions, skeletons announce aria-busy).
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
}
/**
 * Resolves once the page's presence call (`connected`, sent when the signed-in user's socket opens:
 * src/machines/realtime/presence-link.ts) is answered; lists and dashboards read after it count the
 * user as online on every run. Call it before the sign-in, await it after.
 */
export async function presenceAnswered(page: Page): Promise<void> {
  await page.waitForResponse(
    async (response) => {
      if (!response.url().endsWith('/graphql')) return false;
      // The client sends a Request object whose body the browser does not expose: read the answer.
      const answer = (await response.json().catch(() => null)) as { data?: { connected?: unknown } } | null;
      return answer?.data?.connected !== undefined;
    },
    { timeout: 30_000 },
  );
}

/**
 * Opens `path` in the running app as a link does (wouter follows history.pushState), keeping the page,
 * its session and its socket. A full load would close the socket and open another: whether a screen's
 * list then counts the signed-in user as online depends on which of the old page's `disconnected`, the
 * new page's `connected` and the list's own query the server answers first.
 */
export async function navigateInApp(page: Page, path: string): Promise<void> {
  await page.evaluate((to) => {
    history.pushState(null, '', to);
    dispatchEvent(new PopStateEvent('popstate'));
  }, path);
  await expect(page).toHaveURL((url) => url.pathname === new URL(path, url).pathname);
}

/** The widths every state is shot at. */
export const WIDTHS = [
  { width: 1366, height: 768 },
  { width: 390, height: 844 },
] as const;

/** Each page's serious or critical axe violations, by shot, for {@link expectNoViolations}. */
const violations = new WeakMap<Page, string[]>();

/**
 * Each width in turn, back to the first. `layer`: a dialog, menu or toast, shot within the viewport
 * (they sit in a fixed layer the size of the viewport); `prepare` runs after each resize (a toast
 * kept open by the pointer). After each shot, axe on the state as shot: its serious or critical
 * violations are kept for {@link expectNoViolations}. The spec must `test.use({ bypassCSP: true })`.
 */
export async function shootBoth(
  page: Page,
  name: string,
  { layer = false, prepare }: { layer?: boolean; prepare?: () => Promise<void> } = {},
): Promise<void> {
  for (const viewport of WIDTHS) {
    await page.setViewportSize(viewport);
    await prepare?.();
    await stableScreenshot(page, `${name}-${viewport.width}`, { keepToasts: prepare !== undefined, viewport: layer });
    const found = await seriousViolations(page);
    if (found.length > 0)
      violations.set(page, [...(violations.get(page) ?? []), ...found.map((v) => `${name}-${viewport.width}: ${v}`)]);
  }
  await page.setViewportSize(WIDTHS[0]);
}

/** No shot of the page had a serious or critical axe violation. */
export function expectNoViolations(page: Page): void {
  expect(violations.get(page) ?? [], 'axe: serious or critical violations in the states shot').toEqual([]);
}
