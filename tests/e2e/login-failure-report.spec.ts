import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { signIn } from './support/app';
import { seriousViolations } from './support/axe';
import { expect, test } from './support/fixtures';
import { t } from './support/i18n';

/**
 * The login-failure report over the real server: a failed sign-in shows the connection's address as
 * its address and the IP its browser claimed apart, each under its own label; light and dark pass axe,
 * with screenshots at 1366×768 and 390×844 into `screenshots/` (gitignored; README "Browser tests").
 */
const SHOTS = resolve(import.meta.dirname, '../../screenshots');
const VIEWPORTS = [
  { width: 1366, height: 768 },
  { width: 390, height: 844 },
] as const;

// The server's CSP forbids injected scripts (script-src 'self'); axe is injected here.
test.use({ bypassCSP: true });

test('a failed sign-in: the connection’s address as the address, the browser’s claim apart; light and dark', async ({
  page,
  app,
}) => {
  test.setTimeout(120_000);
  mkdirSync(SHOTS, { recursive: true });
  const email = `falha-${Date.now().toString(36)}@exemplo.com.br`;
  // The browser's IP lookup said 198.51.100.77; the connection comes from this machine (no TRUST_PROXY).
  const failed = await fetch(`${app.origin}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: 'wrong-Pass#1', ip: '198.51.100.77' }),
  });
  expect(failed.status).toBe(401);

  await signIn(page, app.origin, app.admin, '/dashboard/report');
  const grid = page.getByRole('grid', { name: t('reports.screen.loginFailures.tableLabel') });
  const row = grid.getByRole('row').filter({ hasText: email });
  await expect(row).toHaveCount(1, { timeout: 30_000 });
  await expect(grid.getByRole('columnheader')).toHaveText([
    t('reports.screen.loginFailures.columns.when'),
    t('reports.screen.loginFailures.columns.user'),
    t('reports.screen.loginFailures.columns.email'),
    t('reports.screen.loginFailures.columns.address'),
    t('reports.screen.loginFailures.columns.claimedIp'),
  ]);
  const cells = row.getByRole('gridcell');
  await expect(cells.nth(2)).toHaveText('127.0.0.1');
  await expect(cells.nth(3)).toHaveText('198.51.100.77');
  await expect(page.getByText(t('reports.screen.loginFailures.addressHint'), { exact: false })).toBeVisible();

  for (const theme of ['light', 'dark'] as const) {
    await page.evaluate((value) => {
      const stored = JSON.parse(localStorage.getItem('preferences') ?? '{}') as Record<string, unknown>;
      localStorage.setItem('preferences', JSON.stringify({ ...stored, theme: value }));
    }, theme);
    for (const viewport of VIEWPORTS) {
      await page.setViewportSize(viewport);
      await page.reload();
      await expect(grid.getByRole('row').filter({ hasText: email })).toHaveCount(1, { timeout: 30_000 });
      await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
      expect(await seriousViolations(page), `axe (${theme}, ${viewport.width})`).toEqual([]);
      await page.screenshot({
        path: resolve(SHOTS, `login-failure-report-${theme}-${viewport.width}x${viewport.height}.png`),
      });
    }
  }
});
