import type { Page } from '@playwright/test';
import { credentialsFrom, pageTitle, signIn, tenantPath } from './support/app';
import { expect, test } from './support/fixtures';
import { t } from './support/i18n';
import { startServer, type RunningServer } from './support/server';

const isApi = (url: string) => {
  const path = new URL(url).pathname;
  return path.startsWith('/api/') || path.endsWith('/graphql');
};

/** The screens the journey moves between, each with the grid that only fills for a working session. */
const SCREENS = [
  { path: '/users', titleKey: 'routes.users', gridKey: 'users.list.heading' },
  { path: '/tenants', titleKey: 'routes.tenants', gridKey: 'tenants.screen.heading' },
] as const;
type Screen = (typeof SCREENS)[number];

async function storedToken(page: Page): Promise<string> {
  return page.evaluate(() => window.localStorage.getItem('accessToken') ?? '');
}

/** The token's `exp` in epoch milliseconds (the claims are read, never trusted: the server checks them). */
function expiryOf(token: string): number {
  const payload = token.split('.')[1];
  if (!payload) throw new Error(`not a stored token: ${JSON.stringify(token)}`);
  return (JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { exp: number }).exp * 1000;
}

/**
 * Leaves the page idle, once its own requests are over, until the token it holds is dead on the real
 * clock (the server's and the page's); returns that token. On a loaded machine a request of the page
 * may still meet its token's end and refresh it, or the users screen's presence poll (every 15 s) may:
 * then it waits for that token in turn.
 */
async function idleUntilTokenDead(page: Page, label: string): Promise<string> {
  await page.waitForLoadState('networkidle');
  let token = '';
  do {
    await expect
      .poll(
        async () => {
          token = await storedToken(page);
          return Date.now() - expiryOf(token);
        },
        { message: `${label}: idle past the token's life`, timeout: 15_000, intervals: [100] },
      )
      .toBeGreaterThan(250);
  } while ((await storedToken(page)) !== token);
  return token;
}

/** The screen is up and its grid shows server rows (which needs an accepted token), on its own address. */
async function expectScreen(page: Page, screen: Screen): Promise<void> {
  await expect(page).toHaveURL((url) => url.pathname === tenantPath(screen.path));
  await expect(pageTitle(page)).toHaveText(t(screen.titleKey));
  await expect(
    page
      .getByRole('grid', { name: t(screen.gridKey) })
      .getByRole('row')
      .nth(1),
  ).toBeVisible();
}

/**
 * Leaving a page must not cost the session: a refresh started while the page goes away (and cut off by
 * the navigation after the server rotated the token) left the next page holding a superseded token,
 * whose refresh was refused, so the reload landed on the login page. With 3 s tokens every reload
 * below happens with a token past its life, the case that used to sign the user out.
 */
test.describe('reload after an idle period', () => {
  let server: RunningServer;
  test.beforeAll(async () => {
    server = await startServer({ ACCESS_TOKEN_TTL: '3' });
  });
  test.afterAll(async () => {
    await server?.stop();
  });

  test('20 times idle past the token’s life, then reload or open another page by URL: never the login page, the session keeps working', async ({
    page,
  }) => {
    test.setTimeout(300_000);
    const { admin } = credentialsFrom(server.logins, server.password);
    const visited: string[] = [];
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) visited.push(new URL(frame.url()).pathname);
    });
    // Any 401 other than "Token has expired" (the refreshable one) ends a session: none may happen. A
    // body the browser no longer holds (its page was left meanwhile) tells nothing either way; the
    // login-page and content checks below judge those rounds.
    const refused: string[] = [];
    page.on('response', async (response) => {
      if (!isApi(response.url()) || response.status() !== 401) return;
      const body = await response.text().catch(() => null);
      if (body !== null && !body.includes('Token has expired')) refused.push(`${response.url()} ${body}`);
    });

    let screen: Screen = SCREENS[0];
    await signIn(page, server.origin, admin, screen.path);
    await expectScreen(page, screen);
    // From here on the login page must never show up (signing in went through it).
    visited.length = 0;

    for (let round = 0; round < 20; round += 1) {
      const before = await idleUntilTokenDead(page, `round ${round}`);

      if (round % 2 === 0) {
        await page.reload();
      } else {
        screen = screen === SCREENS[0] ? SCREENS[1] : SCREENS[0];
        await page.goto(`${server.origin}${tenantPath(screen.path)}`);
      }
      await expectScreen(page, screen);
      // The new page refreshed the dead token: the session goes on with a new one.
      await expect.poll(() => storedToken(page), { message: `round ${round}: a refreshed token` }).not.toBe(before);
      expect(
        visited.filter((path) => path === tenantPath('/login')),
        `round ${round}: never on the login page`,
      ).toEqual([]);
      expect(refused, `round ${round}: no request refused for good`).toEqual([]);
    }
    await expect(page.getByRole('alertdialog')).toHaveCount(0);
    await expect(page.getByText(t('session.ended.expired'))).toHaveCount(0);
  });

  test('a refresh whose answer is lost after the server rotated the token: no sign-out, the page and the next one carry on with the same session', async ({
    page,
  }) => {
    const { admin } = credentialsFrom(server.logins, server.password);
    const screen = SCREENS[0];
    await signIn(page, server.origin, admin, screen.path);
    await expectScreen(page, screen);
    const before = await idleUntilTokenDead(page, 'before the lost refresh');

    // The next refresh reaches the server, which rotates the token, but its answer never reaches the
    // page: the connection drops, as when a navigation cuts the request off.
    let lost: string | null = null;
    await page.route(`${server.origin}/backoffice/graphql`, async (route) => {
      if (lost !== null || !(route.request().postData() ?? '').includes('refreshToken')) return route.fallback();
      lost = '';
      const response = await route.fetch();
      lost = ((await response.json()) as { data: { refreshToken: { token: string } } }).data.refreshToken.token;
      return route.abort('connectionreset');
    });
    const visited: string[] = [];
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) visited.push(new URL(frame.url()).pathname);
    });
    // The tokens the page received for the superseded one (later refreshes, of later tokens, are not kept).
    const regained: string[] = [];
    page.on('response', async (response) => {
      if (!response.url().endsWith('/graphql') || response.status() !== 200) return;
      if ((await response.request().allHeaders())['authorization'] !== `Bearer ${before}`) return;
      const body = (await response.json().catch(() => null)) as { data?: { refreshToken?: { token: string } } } | null;
      if (body?.data?.refreshToken) regained.push(body.data.refreshToken.token);
    });
    await page.reload();
    await expect.poll(() => lost, { message: 'a refresh rotated on the server, its answer dropped' }).toMatch(/^ey/);

    // The page kept its session; its requests refreshed the superseded token again, within the grace
    // window, and got the lost token's identity.
    await expectScreen(page, screen);
    const jtiOf = (token: string) =>
      (JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as { jti: string }).jti;
    await expect.poll(() => regained.map(jtiOf)).toEqual([jtiOf(lost ?? '')]);
    expect(await storedToken(page)).not.toBe(before);
    await page.reload();
    await expectScreen(page, screen);
    expect(visited.filter((path) => path === tenantPath('/login'))).toEqual([]);
  });

  test('a superseded token presented after the grace window revokes the session it was stolen from', async ({
    page,
  }) => {
    test.setTimeout(120_000);
    const { admin } = credentialsFrom(server.logins, server.password);
    const screen = SCREENS[0];
    await signIn(page, server.origin, admin, screen.path);
    await expectScreen(page, screen);

    // The copy a thief keeps: the token the page holds now. The page then moves on to its successor.
    const stolen = await idleUntilTokenDead(page, 'the stolen token');
    await page.reload();
    await expectScreen(page, screen);
    await expect.poll(() => storedToken(page)).not.toBe(stolen);
    const rotatedAt = Date.now();

    // After the grace window (ROTATION_GRACE, 10 s by default) the stolen copy is reuse.
    await expect.poll(() => Date.now() - rotatedAt, { timeout: 20_000, intervals: [250] }).toBeGreaterThan(11_000);
    const current = await storedToken(page);
    expect(current).not.toBe('');
    const reuse = await page.request.post(`${server.origin}/backoffice/graphql`, {
      headers: { authorization: `Bearer ${stolen}`, 'content-type': 'application/json' },
      data: { query: 'mutation refreshToken { refreshToken { token expires_in } }', operationName: 'refreshToken' },
    });
    expect(reuse.status()).toBe(401);
    expect(await reuse.json()).toEqual({ status: 'Unauthorized' });

    // The whole family died with it: the owner's current token is refused too, and the page (its
    // socket closed with 4401, its refresh refused) ends up on the login page, told the session ended.
    const userInfo = await page.request.get(`${server.origin}/api/auth/userInfo`, {
      headers: { authorization: `Bearer ${current}` },
    });
    expect(userInfo.status()).toBe(401);
    expect(await userInfo.json()).toEqual({ status: 'Unauthorized' });
    await expect(page).toHaveURL((url) => url.pathname === tenantPath('/login'));
    await expect(page.getByText(t('session.ended.expired'))).toBeVisible();
    expect(await storedToken(page)).toBe('');
  });
});
