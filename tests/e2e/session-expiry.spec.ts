import type { Response } from '@playwright/test';
import { credentialsFrom, pageTitle, signIn, tenantPath } from './support/app';
import { expect, test } from './support/fixtures';
import { t } from './support/i18n';
import { startServer, type RunningServer } from './support/server';

const isApi = (url: string) => {
  const path = new URL(url).pathname;
  return path.startsWith('/api/') || path.endsWith('/graphql');
};

// Its own server with 3 s access tokens (ACCESS_TOKEN_TTL=3). The client's expiry margin is at most a
// quarter of a token's life, read from the login/refresh answer or, for a stored token, from its own
// claims (src/machines/session/session.machine.ts), so a fresh 3 s token is used rather than refreshed first.
test.describe('access token expiring mid-session', () => {
  let server: RunningServer;
  test.beforeAll(async () => {
    server = await startServer({ ACCESS_TOKEN_TTL: '3' });
  });
  test.afterAll(async () => {
    await server?.stop();
  });

  test('a burst of requests with an expired token causes one refresh, is retried, and the user notices nothing', async ({
    page,
  }) => {
    const { admin } = credentialsFrom(server.logins, server.password);
    // The page's clock stands still (timers keep running): the client never sees its token as
    // expired, so the requests leave with it and meet the server's 401 "Token has expired" — the
    // refresh-and-retry path (docs/product.md, Sessions) rather than the local pre-flight refresh.
    await page.clock.setFixedTime(new Date());
    await signIn(page, server.origin, admin, '/users');
    await expect(page.getByRole('grid', { name: t('users.list.heading') }).getByRole('row')).not.toHaveCount(0);

    // Leave the app once nothing is in flight, so nothing refreshes the token in the background, then
    // wait until the stored token is past its `exp` on the server's (real) clock.
    await page.waitForLoadState('networkidle');
    await page.goto('about:blank');
    const stored = async () => {
      const origin = (await page.context().storageState()).origins.find((o) => o.origin === server.origin);
      return origin?.localStorage.find((item) => item.name === 'accessToken')?.value ?? '';
    };
    const tokenBefore = await stored();
    const payload = tokenBefore.split('.')[1] ?? '';
    const tokenExpiry = (JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { exp: number }).exp * 1000;
    await expect.poll(() => tokenExpiry - Date.now(), { timeout: 15_000, intervals: [250] }).toBeLessThan(-200);

    // Refresh calls counted by their answers (the GraphQL client's request bodies are streams the
    // browser does not report): a `refreshToken` result is one refresh. Only what the expired token
    // caused counts: with short tokens and a still clock, a request a few seconds later meets the next
    // token's expiry and rightly refreshes again.
    const refreshes: string[] = [];
    const expired: string[] = [];
    const withOldToken = async (response: Response) =>
      (await response.request().allHeaders())['authorization'] === `Bearer ${tokenBefore}`;
    page.on('response', async (response) => {
      if (!isApi(response.url())) return;
      if (!(await withOldToken(response))) return;
      if (response.status() === 401) expired.push(response.url());
      else if (
        response.url().endsWith('/graphql') &&
        (await response.text().catch(() => '')).includes('"refreshToken"')
      )
        refreshes.push(response.url());
    });

    // Coming back starts the session's and the screen's requests at once (user info, permissions,
    // users, presence): every one of them meets the expired token.
    await page.goto(`${server.origin}${tenantPath('/users')}`);
    await expect(pageTitle(page)).toHaveText(t('routes.users'));
    await expect(
      page
        .getByRole('grid', { name: t('users.list.heading') })
        .getByRole('row')
        .nth(1),
    ).toBeVisible();
    await expect(page).toHaveURL((url) => url.pathname === tenantPath('/users'));

    // The listener reads headers and bodies asynchronously, so its counts can lag the screen: wait for
    // them, then once the network is quiet check that no second refresh came.
    await expect
      .poll(() => expired.length, { message: 'parallel requests refused with the expired token' })
      .toBeGreaterThanOrEqual(2);
    await expect.poll(() => refreshes.length, { message: 'one refresh for the whole burst' }).toBe(1);
    await page.waitForLoadState('networkidle');
    expect(refreshes, 'one refresh for the whole burst').toHaveLength(1);
    expect(await stored()).not.toBe(tokenBefore);
    // Nothing said to the user: no session-ended notice, no error toast.
    await expect(page.getByRole('alertdialog')).toHaveCount(0);
  });
});
