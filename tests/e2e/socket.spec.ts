import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MAX_RECONNECT_MS } from '../../src/domain/socket-url';
import { connectionStatus, credentialsFrom, pageTitle, signIn } from './support/app';
import { expect, test } from './support/fixtures';
import { t } from './support/i18n';
import { startServer, type RunningServer } from './support/server';

test.describe('real-time socket', () => {
  test('server restart: the panel shows disconnected, then connected again without a reload', async ({ page }) => {
    // Two server starts (slow on a loaded box) and at most one backoff cap (src/domain/socket-url.ts).
    test.setTimeout(180_000);
    // Its own server on a database directory, restarted on the same port with the same key, so
    // the session outlives the restart.
    const dir = mkdtempSync(join(tmpdir(), 'e2e-restart-'));
    const env = {
      DATABASE_URL: `pglite://${join(dir, 'db')}`,
      JWT_SECRET: 'e2e-restart-secret-0123456789-abcdefghijklmnop',
    };
    let server: RunningServer | null = await startServer(env);
    try {
      const port = Number(new URL(server.origin).port);
      await signIn(page, server.origin, credentialsFrom(server.logins, server.password).admin);
      await expect(connectionStatus(page)).toHaveText(t('shell.connection.connected'));
      let navigations = 0;
      page.on('framenavigated', (frame) => {
        if (frame === page.mainFrame()) navigations += 1;
      });

      await server.stop();
      server = null;
      await expect(connectionStatus(page)).toHaveText(
        new RegExp(`${t('shell.connection.disconnected')}|${t('shell.connection.connecting')}`),
      );
      server = await startServer(env, { port });
      // The next attempt comes within the backoff's cap (src/domain/socket-url.ts): a restart that took
      // long (a loaded box) leaves the panel up to MAX_RECONNECT_MS from it, then a ticket and a connect.
      await expect(connectionStatus(page)).toHaveText(t('shell.connection.connected'), {
        timeout: MAX_RECONNECT_MS + 15_000,
      });
      expect(navigations, 'no reload').toBe(0);
      await expect(pageTitle(page)).toHaveText(t('routes.home'));
    } finally {
      await server?.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('the socket opens with a single-use ticket, never the token; page unload closes it and no reconnect follows', async ({
    page,
    app,
  }) => {
    const sockets: { closed: boolean; url: URL }[] = [];
    page.on('websocket', (ws) => {
      const entry = { closed: false, url: new URL(ws.url()) };
      sockets.push(entry);
      ws.on('close', () => (entry.closed = true));
    });
    await signIn(page, app.origin, app.admin);
    await expect(connectionStatus(page)).toHaveText(t('shell.connection.connected'));
    expect(sockets.filter((s) => !s.closed)).toHaveLength(1);
    // contracts/socket.md §1.1: tenantName, userId and a ticket; the token stays in the Authorization header.
    const token = await page.evaluate(() => window.localStorage.getItem('accessToken'));
    expect(token).toBeTruthy();
    const url = sockets[0]?.url;
    expect([...(url?.searchParams.keys() ?? [])].sort()).toEqual(['tenantName', 'ticket', 'userId']);
    expect(url?.searchParams.get('ticket')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(url?.toString()).not.toContain(token ?? '');

    // The page going away (pagehide, as when the tab navigates elsewhere), without leaving it, so
    // we can watch what the app does afterwards.
    await page.evaluate(() => window.dispatchEvent(new PageTransitionEvent('pagehide', { persisted: false })));
    await expect.poll(() => sockets.every((s) => s.closed)).toBe(true);
    const count = sockets.length;
    // Time is the thing under test here: a reconnect would come after 1 s (contracts/socket.md §4.3); watch for 3 s.
    await page.waitForTimeout(3_000);
    expect(sockets.length, 'no new socket after unload').toBe(count);
  });
});
