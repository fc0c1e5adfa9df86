import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from '@playwright/test';
import { cnpjCheckDigits } from '../src/domain/cnpj';
import { check, fixed, median, sleep, type Check, type SuiteResult } from './lib/report';
import { json, loginOn, serverOnPostgres, type PostgresTarget } from './lib/servers';
import { ARGS, CHROMIUM } from './page-load-browser';

/**
 * How soon a change shows in an open tab (docs/product.md: an audit record and a role's permissions,
 * each "within a second"), on the real server over PostgreSQL, in Chromium with the built SPA. Each
 * change goes through REST {@link GAP_MS} apart, as a person would make them; its latency = the moment
 * the page shows it (stamped in the page by a MutationObserver, same machine clock) − the moment the
 * change's answer arrived here. The path is the whole one: commit, the socket event through the event
 * relay (LISTEN/NOTIFY), the socket, the SPA's read (`GET /api/audit`, `GET /api/auth/userInfo`) and
 * the render. Each budget applies to the slowest change.
 *
 * - Audit: the demo admin on `/audit` filtered to one fresh tenant's plan changes; {@link CHANGES}
 *   plan changes (`POST /api/tenant/set-plan`); shown = the table holds one more data row.
 * - Permissions: a fresh role's holder on `/dashboard/analytics`; `users` taken from and given back
 *   to the role (`POST /api/permission/update`) {@link CHANGES} times; shown = the menu's Usuários link
 *   gone, then back (contracts/socket.md §4.6).
 */
const CHANGES = 6;
const GAP_MS = 1000;
const TENANT = 'backoffice';
const PASSWORD = 'Back#Office!Demo';
/** Data rows of the audit table (React Aria renders the empty/loading row with a rowheader too). */
const AUDIT_ROWS = '[role=grid] [role=rowgroup]:not([data-empty]) [role=rowheader]';
const USERS_LINK = `nav a[href="/${TENANT}/users"]`;

/**
 * `__when(selector, n)` resolves with the time (ms since the epoch) the page first holds at least n
 * elements matching selector, or, with n = 0, none.
 */
const PROBE = `(() => {
  const waiting = [];
  const settle = () => {
    for (let i = waiting.length - 1; i >= 0; i -= 1) {
      const w = waiting[i];
      const n = document.querySelectorAll(w.selector).length;
      if (w.count === 0 ? n === 0 : n >= w.count) { w.resolve(Date.now()); waiting.splice(i, 1); }
    }
  };
  new MutationObserver(settle).observe(document, { childList: true, subtree: true, attributes: true });
  globalThis.__when = (selector, count) => new Promise((resolve) => { waiting.push({ selector, count, resolve }); settle(); });
})();`;

type Rest = (path: string, body: unknown) => Promise<Response>;

function restAs(base: string, token: string): Rest {
  return (path, body) =>
    fetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify(body),
    });
}

const stamp = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4).toString(36)}`;

/** A new context and tab signed in through the login screen at `path`, its socket connected. */
async function signedInTab(browser: Browser, base: string, email: string, password: string, path: string) {
  const context = await browser.newContext({ viewport: { width: 1366, height: 768 }, locale: 'pt-BR' });
  const page = await context.newPage();
  await page.addInitScript({ content: PROBE });
  await page.goto(`${base}/${TENANT}/login?to=${encodeURIComponent(path)}`);
  await page.fill('input[name="email"]', email);
  await page.fill('input[name="password"]', password);
  await page.click('button[type=submit]');
  const pathname = `/${TENANT}${path.split('?')[0] ?? ''}`;
  await page.waitForURL((url) => url.pathname === pathname, { timeout: 30_000 });
  await page.getByRole('main').getByRole('heading', { level: 1 }).waitFor({ timeout: 30_000 });
  // The navbar's socket status reads "Conectado" once the socket is admitted (contracts/socket.md §1.2).
  await page
    .getByRole('banner')
    .getByRole('status')
    .filter({ hasText: /^Conectado$/ })
    .waitFor({ timeout: 30_000 });
  // Off the page's lists: a pointer resting on the audit rows (where the login's button was) holds
  // new records behind a notice (docs/panel.md, Audit log).
  await page.mouse.move(0, 0);
  return page;
}

/** Makes one change and answers ms from its answer to the page showing `selector` × `count`. */
async function timeChange(page: Page, selector: string, count: number, change: () => Promise<Response>, what: string) {
  const shown = page.evaluate(
    ([s, n]) => (globalThis as unknown as { __when(s: string, n: number): Promise<number> }).__when(s, n),
    [selector, count] as const,
  );
  await json(await change());
  const answeredAt = Date.now();
  const at = await Promise.race([
    shown,
    sleep(10_000).then(() => {
      throw new Error(`${what}: not shown within 10 s`);
    }),
  ]);
  return Math.max(0, at - answeredAt);
}

async function auditLatencies(browser: Browser, base: string, rest: Rest): Promise<number[]> {
  const digits = `${Date.now() % 1e8}`.padStart(8, '0') + `${Math.floor(Math.random() * 1e4)}`.padStart(4, '0');
  const tenant = await json<{ id: number }>(
    await rest('/api/tenant', {
      name: `bench-live-${stamp()}`,
      cnpj: `${digits}${cnpjCheckDigits(digits)}`,
      features: ['chat'],
      template: 'farmacia',
      pool: 'pool-a',
      userLimit: 5,
      plan: 'starter',
      ticketLimit: 1000,
    }),
  );
  const audit = `/audit?operation=tenant.plan&targetType=tenant&targetId=${tenant.id}`;
  const page = await signedInTab(browser, base, 'admin@demo.local', PASSWORD, audit);
  const latencies: number[] = [];
  for (let i = 1; i <= CHANGES; i += 1) {
    await sleep(GAP_MS);
    const plan = i % 2 ? 'enterprise' : 'starter';
    latencies.push(
      await timeChange(
        page,
        AUDIT_ROWS,
        i,
        () => rest('/api/tenant/set-plan', { id: tenant.id, plan, user: 5, ticket: 1000 }),
        `plan change ${i}`,
      ),
    );
  }
  await page.context().close();
  return latencies;
}

async function permissionLatencies(browser: Browser, base: string, rest: Rest): Promise<number[]> {
  const unique = stamp();
  const role = await json<{ id: number }>(
    await rest('/api/roles', { name: `bench_live_${unique}`, display_name: `Bench live ${unique}` }),
  );
  const routes = ['users', 'dashboard-analytics'];
  await json(await rest('/api/permission/update', { roleId: role.id, permissions: routes }));
  const email = `live${unique}@bench.local`;
  await json(
    await rest('/api/users', {
      username: `live${unique}`,
      name: `Bench live ${unique}`,
      email,
      password: PASSWORD,
      role_id: role.id,
    }),
  );
  const page = await signedInTab(browser, base, email, PASSWORD, '/dashboard/analytics');
  const latencies: number[] = [];
  for (let i = 1; i <= CHANGES; i += 1) {
    await sleep(GAP_MS);
    const taken = i % 2 === 1;
    const permissions = taken ? ['dashboard-analytics'] : routes;
    latencies.push(
      await timeChange(
        page,
        USERS_LINK,
        taken ? 0 : 1,
        () => rest('/api/permission/update', { roleId: role.id, permissions }),
        `permission change ${i}`,
      ),
    );
  }
  await page.context().close();
  return latencies;
}

export async function liveBench(options: {
  budgets: { auditRowShownMs: number; permissionsAppliedMs: number };
  shared?: PostgresTarget;
}): Promise<SuiteResult> {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing (apt-get install -y chromium)`);
  if (!existsSync('dist/web/index.html')) throw new Error('dist/web/index.html is missing: run npm run build first');
  const target = await serverOnPostgres('bench_live', options.shared);
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  try {
    const base = target.server.base;
    const rest = restAs(base, (await loginOn(base)).token);
    const audit = await auditLatencies(browser, base, rest);
    const permissions = await permissionLatencies(browser, base, rest);
    const row = (label: string, l: number[]) => [
      label,
      fixed(median(l), 0),
      fixed(Math.max(...l), 0),
      l.map((v) => fixed(v, 0)).join(' '),
    ];
    const checks: Check[] = [
      check(
        'live: set-plan answer → row on the open Auditoria screen, slowest',
        Math.max(...audit),
        options.budgets.auditRowShownMs,
        'ms',
      ),
      check(
        "live: permission update answer → the holder's menu follows, slowest",
        Math.max(...permissions),
        options.budgets.permissionsAppliedMs,
        'ms',
      ),
    ];
    return {
      suite: 'live changes in an open tab (Chromium, PostgreSQL)',
      table: [
        ['change → shown in the tab (ms after its answer)', 'median', 'slowest', 'each'],
        row(`tenant plan → Auditoria row (${CHANGES})`, audit),
        row(`role loses/regains users → menu link (${CHANGES})`, permissions),
      ],
      checks,
      data: { audit, permissions },
    };
  } finally {
    await browser.close();
    await target.release();
  }
}
