import { mkdtempSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { openDatabase } from '../../server/src/db/connect';
import { LOGIN_FAILURE_REPORT_ROWS } from '../../src/domain/report-limits';
import { apiLogin } from './support/api';
import { credentialsFrom, signIn, tenantPath } from './support/app';
import { seriousViolations, useTheme } from './support/axe';
import { expect, test } from './support/fixtures';
import { escapeRegExp, t } from './support/i18n';
import { startServer, type RunningServer } from './support/server';

// axe is injected into the page, which the server's CSP would refuse.
test.use({ bypassCSP: true });

const previewCount = () =>
  new RegExp(
    escapeRegExp(t('sheets.panel.previewCount', { count: 2, shown: '§', total: '§' })).replaceAll('§', '[\\d.]+'),
  );

test('a role holding only the control panel and the Maria panel gets the sheets on both', async ({ page, app }) => {
  const api = await apiLogin(app.origin, app.admin.email, app.admin.password);
  const stamp = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
  const role = await api.rest<{ id: number }>('POST', '/api/roles', {
    name: `paineis_${stamp}`,
    display_name: `Painéis ${stamp}`,
  });
  await api.rest('POST', '/api/permission/update', {
    roleId: role.id,
    permissions: ['dashboard-control-panel', 'dashboard-maria-panel'],
  });
  const email = `paineis-${stamp}@e2e.local`;
  await api.graphql(
    'mutation newUser($username: String!, $name: String!, $email: String!, $password: String!, $role_id: Int!) { newUser(username: $username, name: $name, email: $email, password: $password, role_id: $role_id) { id } }',
    { username: `paineis${stamp}`, name: `Painéis ${stamp}`, email, password: app.admin.password, role_id: role.id },
    'newUser',
  );
  await signIn(page, app.origin, { email, password: app.admin.password }, '/dashboard/control-panel');
  for (const route of ['control-panel', 'maria-panel']) {
    if (route === 'maria-panel') await page.goto(`${app.origin}${tenantPath('/dashboard/maria-panel')}`);
    await expect(page).toHaveURL(new RegExp(`/dashboard/${route}`));
    const panel = page.getByRole('region', { name: t('sheets.panel.title') });
    await expect(panel).toBeVisible();
    // The preview answered: the server let this role read the sheet.
    await expect(panel.getByText(previewCount())).toBeVisible();
    await expect(panel.getByRole('button', { name: t('sheets.panel.download'), exact: true }).first()).toBeEnabled();
  }
  for (const theme of ['light', 'dark'] as const) {
    await useTheme(page, theme);
    await page.reload();
    const panel = page.getByRole('region', { name: t('sheets.panel.title') });
    await expect(panel.getByText(previewCount())).toBeVisible();
    await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
    expect(await seriousViolations(page), `axe on the Maria panel with sheets (${theme})`).toEqual([]);
  }
});

/*
 * The login-failure report stops at LOGIN_FAILURE_REPORT_ROWS. A server of its own on a database in
 * files: started once to create and seed it, stopped, given more failed sign-ins than that in the
 * last days (written straight into the database: that many sign-ins through the API would take an
 * hour of password hashing), and started again.
 */
test.describe('the login-failure report at its row limit', () => {
  let server: RunningServer | undefined;
  let dir = '';
  const EXTRA = LOGIN_FAILURE_REPORT_ROWS + 250;

  test.beforeAll(async () => {
    test.setTimeout(240_000);
    dir = mkdtempSync(join(tmpdir(), 'e2e-cut-'));
    const url = `pglite://${dir}`;
    await (await startServer({ DATABASE_URL: url })).stop();
    const database = await openDatabase(url);
    await sql`insert into login_attempts (email, ip, remote_address, user_id, success, created_at)
      select u.email, '198.51.100.9', '203.0.113.9', u.id, false, now() - interval '1 day' - (g * interval '1 second')
      from generate_series(1, ${EXTRA}) g, (select id, email from users where email like 'operador@%' limit 1) u`.execute(
      database.db,
    );
    await database.close();
    server = await startServer({ DATABASE_URL: url });
  });

  test.afterAll(async () => {
    await server?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test('says it shows the 10.000 most recent of the real total, and downloads every row as CSV', async ({ page }) => {
    test.setTimeout(180_000);
    if (!server) throw new Error('no server');
    const { admin } = credentialsFrom(server.logins, server.password);
    const total = await (
      await apiLogin(server.origin, admin.email, admin.password)
    ).rest<{ total: number }>(
      'GET',
      `/api/tenant/sheets/login_failures?startAt=${isoDaysAgo(29)}&finishAt=${isoDaysAgo(0)}&limit=1`,
    );
    expect(total.total).toBeGreaterThanOrEqual(EXTRA);
    // Chromium offers the File System Access picker, which needs a person; without it the file is an ordinary download.
    await page.addInitScript(() => {
      delete (window as { showSaveFilePicker?: unknown }).showSaveFilePicker;
    });
    await signIn(page, server.origin, admin, '/dashboard/report');
    const format = (n: number) => new Intl.NumberFormat('pt-BR').format(n);
    const notice = page.getByRole('status').filter({
      hasText: t('reports.screen.loginFailures.cutTotal', {
        shown: format(LOGIN_FAILURE_REPORT_ROWS),
        total: format(total.total),
      }),
    });
    await expect(notice).toBeVisible({ timeout: 60_000 });
    for (const theme of ['light', 'dark'] as const) {
      await page.evaluate((value) => {
        const stored = JSON.parse(localStorage.getItem('preferences') ?? '{}') as Record<string, unknown>;
        localStorage.setItem('preferences', JSON.stringify({ ...stored, theme: value }));
      }, theme);
      await page.reload();
      await expect(notice).toBeVisible({ timeout: 60_000 });
      await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
      expect(await seriousViolations(page), `axe on the cut report (${theme})`).toEqual([]);
    }
    const downloading = page.waitForEvent('download', { timeout: 90_000 });
    await page.getByRole('button', { name: t('reports.screen.loginFailures.downloadAll'), exact: true }).click();
    const download = await downloading;
    expect(await download.failure()).toBeNull();
    expect(download.suggestedFilename()).toMatch(/^login-failures-.*\.csv$/);
    const text = await readFile(await download.path(), 'utf8');
    expect(text.charCodeAt(0)).toBe(0xfeff);
    const lines = text
      .slice(1)
      .split('\r\n')
      .filter((line) => line !== '');
    expect(lines[0]).toBe('id;criado_em;email;endereco;ip_informado;usuario_id;usuario');
    expect(lines.length - 1).toBe(total.total);
  });
});

/** `YYYY-MM-DD` of `n` days ago in São Paulo (the report's default range ends today). */
function isoDaysAgo(n: number): string {
  return new Date(Date.now() - n * 86_400_000).toLocaleDateString('en-CA', { timeZone: 'America/Sao_Paulo' });
}
