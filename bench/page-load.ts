import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { chromium, type Browser, type CDPSession, type Page } from '@playwright/test';
import { DEMO_PASSWORD } from '../server/src/db/seed';
import { check, fixed, median, type Check, type SuiteResult } from './lib/report';
import { freshSchema, startPostgres, startServer, stopServer, withClient } from './lib/servers';

/**
 * Issue #8 point 2: page load in headless Chromium (Debian's, never a downloaded one) against the
 * real server on PostgreSQL with the production build, 5 runs per setting, medians, without and with
 * 4× CPU throttling (CDP `Emulation.setCPUThrottlingRate`). Every run is a new browser context: an
 * empty cache and storage, a first visit.
 *
 * Per run:
 * 1. `/backoffice/login?to=/tenants`: FCP and LCP (PerformanceObserver, buffered), and "form
 *    interactive": the moment React rendered the email field (event handlers are attached at commit),
 *    from navigation start.
 * 2. Log in (real argon2id on the server) → the tenants list painted: from the submit click's event
 *    time to the first animation frame after the first tenant row is in the DOM.
 * 3. JS heap after the list: CDP `HeapProfiler.collectGarbage`, then `Runtime.getHeapUsage().usedSize`.
 * 4. `/backoffice/users` with 10,000 users: navigation start → first user row painted; rows in the DOM
 *    (`[role=grid] [role=row]`, header included).
 * 5. Scrolling that list to the end and back, one step per animation frame: the longest long task
 *    (PerformanceObserver `longtask`, > 50 ms by definition; 0 when there was none).
 */
const CHROMIUM = '/usr/bin/chromium';
const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];
const RUNS = 5;
const USERS = 10_000;

/** Installed before any page script: observers and probes the measurements read back. */
const PROBES = `
  window.__bench = { lcp: 0, fcp: 0, formAt: 0, longTasks: [], rowsPaintedAt: 0, clickAt: 0 };
  new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__bench.lcp = e.startTime; }).observe({ type: 'largest-contentful-paint', buffered: true });
  new PerformanceObserver((list) => { for (const e of list.getEntries()) if (e.name === 'first-contentful-paint') window.__bench.fcp = e.startTime; }).observe({ type: 'paint', buffered: true });
  new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__bench.longTasks.push({ start: e.startTime, duration: e.duration }); }).observe({ type: 'longtask', buffered: true });
  const watch = () => {
    const observer = new MutationObserver(() => {
      const b = window.__bench;
      if (!b.formAt) {
        const email = document.querySelector('input[name="email"]');
        if (email && !email.disabled) b.formAt = performance.now();
      }
      if (!b.rowsPaintedAt && !b.rowsSeen && document.querySelector('[role=grid] [role=rowgroup]:not([data-empty]) [role=rowheader]')) {
        b.rowsSeen = true;
        requestAnimationFrame(() => { b.rowsPaintedAt = performance.now(); });
      }
    });
    observer.observe(document.documentElement, { childList: true, subtree: true, attributes: true, attributeFilter: ['disabled'] });
  };
  if (document.documentElement) watch(); else document.addEventListener('DOMContentLoaded', watch);
  document.addEventListener('click', (event) => {
    const target = event.target;
    if (target instanceof Element && target.closest('button[type=submit]')) window.__bench.clickAt = event.timeStamp;
  }, true);
`;

interface Probe {
  lcp: number;
  fcp: number;
  formAt: number;
  longTasks: { start: number; duration: number }[];
  rowsPaintedAt: number;
  clickAt: number;
}

interface RunResult {
  fcp: number;
  lcp: number;
  formInteractive: number;
  loginToTenants: number;
  heapAfterTenantsMiB: number;
  usersRendered: number;
  usersDomRows: number;
  usersRowCount: number;
  heapAfterUsersMiB: number;
  scrollMaxLongTask: number;
  scrollLongTasks: number;
}

const probe = (page: Page) => page.evaluate(() => (window as unknown as { __bench: Probe }).__bench);

async function waitForProbe(page: Page, field: keyof Probe, timeoutMs: number): Promise<void> {
  await page.waitForFunction((f) => Boolean((window as unknown as { __bench: Record<string, unknown> }).__bench[f]), field, { timeout: timeoutMs, polling: 50 });
}

async function heapMiB(cdp: CDPSession): Promise<number> {
  await cdp.send('HeapProfiler.enable');
  await cdp.send('HeapProfiler.collectGarbage');
  const usage = await cdp.send('Runtime.getHeapUsage');
  return usage.usedSize / 2 ** 20;
}

async function oneRun(browser: Browser, base: string, throttle: number): Promise<RunResult> {
  const context = await browser.newContext({ viewport: { width: 1366, height: 768 }, locale: 'pt-BR' });
  try {
    const page = await context.newPage();
    // tsx compiles this file with esbuild's keepNames, which wraps named functions inside the callbacks
    // given to page.evaluate in a `__name(fn, "name")` helper that exists only in Node: give the page one.
    await page.addInitScript({ content: 'globalThis.__name = globalThis.__name || ((fn) => fn);' });
    await page.addInitScript(PROBES);
    const cdp = await context.newCDPSession(page);
    if (throttle > 1) await cdp.send('Emulation.setCPUThrottlingRate', { rate: throttle });

    // 1. Login page.
    await page.goto(`${base}/backoffice/login?to=${encodeURIComponent('/tenants')}`, { waitUntil: 'load' });
    await waitForProbe(page, 'formAt', 60_000);
    await page.waitForTimeout(300); // let LCP settle before any input ends it
    const login = await probe(page);

    // 2. Log in → tenants list painted.
    await page.fill('input[name="email"]', 'admin@demo.local');
    await page.fill('input[name="password"]', DEMO_PASSWORD);
    await page.click('button[type=submit]');
    await waitForProbe(page, 'rowsPaintedAt', 60_000);
    const afterLogin = await probe(page);
    if (!afterLogin.clickAt) throw new Error('the submit click was not seen');
    if (!page.url().includes('/tenants')) throw new Error(`after login the page is ${page.url()}, not the tenants list`);

    // 3. Heap after the list.
    const heapAfterTenantsMiB = await heapMiB(cdp);

    // 4. Users with 10,000 rows (a navigation: the session is in storage).
    await page.goto(`${base}/backoffice/users`, { waitUntil: 'load' });
    await waitForProbe(page, 'rowsPaintedAt', 120_000);
    const users = await probe(page);
    const dom = await page.evaluate(() => ({
      rows: document.querySelectorAll('[role=grid] [role=row]').length,
      rowCount: Number(document.querySelector('[role=grid]')?.getAttribute('aria-rowcount') ?? 0),
    }));
    const heapAfterUsersMiB = await heapMiB(cdp);

    // 5. Scroll the list to the end and back, a step per frame.
    const scroll = await page.evaluate(async () => {
      const grid = document.querySelector('[role=grid]');
      // The list scrolls in its own box, or in the layout's content area around it.
      const ancestors: Element[] = [];
      for (let el = grid?.parentElement; el; el = el.parentElement) ancestors.push(el);
      const candidates = [grid, ...Array.from(grid?.querySelectorAll('*') ?? []), ...ancestors].filter((el): el is HTMLElement => el instanceof HTMLElement && el.scrollHeight > el.clientHeight + 10);
      const scroller = candidates.find((el) => ['auto', 'scroll'].includes(getComputedStyle(el).overflowY)) ?? document.scrollingElement;
      const describe = (el: Element | null | undefined) => (el instanceof HTMLElement ? `${el.tagName.toLowerCase()}.${el.className} ${el.scrollHeight}/${el.clientHeight} ${getComputedStyle(el).overflowY}` : String(el));
      const info = `grid ${describe(grid)}; rows ${grid?.querySelectorAll('[role=row]').length ?? 0}; scroller ${describe(scroller)}; candidates ${candidates.length}`;
      if (!(scroller instanceof HTMLElement)) return { maxLongTask: Number.NaN, longTasks: 0, steps: 0, info };
      const start = performance.now();
      const frame = () => new Promise<void>((resolve) => requestAnimationFrame(() => resolve()));
      const step = Math.max(200, Math.ceil(scroller.scrollHeight / 150));
      let steps = 0;
      while (scroller.scrollTop + scroller.clientHeight < scroller.scrollHeight - 1 && steps < 400) {
        scroller.scrollTop += step;
        steps += 1;
        await frame();
      }
      while (scroller.scrollTop > 0 && steps < 800) {
        scroller.scrollTop -= step;
        steps += 1;
        await frame();
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
      const tasks = (window as unknown as { __bench: { longTasks: { start: number; duration: number }[] } }).__bench.longTasks.filter((t) => t.start >= start);
      return { maxLongTask: tasks.reduce((max, t) => Math.max(max, t.duration), 0), longTasks: tasks.length, steps, info };
    });
    if (scroll.steps === 0 && process.env.BENCH_SHOT) await page.screenshot({ path: process.env.BENCH_SHOT, fullPage: true });
    if (scroll.steps === 0) throw new Error(`the users list did not scroll (${scroll.info})`);

    return {
      fcp: login.fcp,
      lcp: login.lcp,
      formInteractive: login.formAt,
      loginToTenants: afterLogin.rowsPaintedAt - afterLogin.clickAt,
      heapAfterTenantsMiB,
      usersRendered: users.rowsPaintedAt,
      usersDomRows: dom.rows,
      usersRowCount: dom.rowCount,
      heapAfterUsersMiB,
      scrollMaxLongTask: scroll.maxLongTask,
      scrollLongTasks: scroll.longTasks,
    };
  } finally {
    await context.close();
  }
}

/** Screens that still show the coming-soon page have nothing to measure yet. */
function missingScreens(): string[] {
  const registry = readFileSync('src/ui/screens-registry.ts', 'utf8');
  return ['tenants', 'users'].filter((route) => new RegExp(`^\\s*${route}:\\s*comingSoon`, 'm').test(registry));
}

export async function pageLoadBench(options: {
  build: boolean;
  budgets: { throttledLoginLcpMs: number; throttledLoginToTenantsMs: number; throttledHeapAfterListMiB: number; usersListMaxDomRows: number; scrollMaxLongTaskMs: number };
}): Promise<SuiteResult> {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing (apt-get install -y chromium)`);
  const missing = missingScreens();
  if (missing.length) throw new Error(`screens not in the registry yet: ${missing.join(', ')} (still comingSoon)`);
  if (options.build || !existsSync('dist/web/index.html')) {
    const built = spawnSync('npx', ['rsbuild', 'build'], { stdio: ['ignore', 'ignore', 'inherit'] });
    if (built.status !== 0) throw new Error('rsbuild build failed');
  }

  const cluster = await startPostgres();
  const url = await freshSchema(cluster.url, 'bench_page');
  const server = await startServer(url, { seed: true });
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  try {
    await withClient(url, async (client) => {
      await client.query(
        `insert into users (tenant_id, role_id, name, username, email, password_hash)
         select t.id, r.id, 'Usuária Bench ' || g, 'bench.' || g, 'bench' || g || '@bench.local', a.password_hash
           from generate_series(1, $1::int) as g
           cross join (select id from tenants where name = 'backoffice') as t
           cross join (select id from roles where name = 'operador') as r
           cross join (select password_hash from users where email = 'admin@demo.local') as a`,
        [USERS],
      );
    });
    const table = [['measure (median of 5)', '1× CPU', '4× CPU', 'budget at 4×']];
    const medians = new Map<number, Record<keyof RunResult, number>>();
    const all: Record<string, RunResult[]> = {};
    for (const throttle of [1, 4]) {
      const runs: RunResult[] = [];
      for (let i = 0; i < RUNS; i += 1) runs.push(await oneRun(browser, server.base, throttle));
      all[`${throttle}x`] = runs;
      const keys = Object.keys(runs[0] ?? {}) as (keyof RunResult)[];
      medians.set(throttle, Object.fromEntries(keys.map((k) => [k, median(runs.map((r) => r[k]))])) as Record<keyof RunResult, number>);
    }
    const m1 = medians.get(1);
    const m4 = medians.get(4);
    const row = (label: string, key: keyof RunResult, digits: number, budget = '') => table.push([label, fixed(m1?.[key] ?? Number.NaN, digits), fixed(m4?.[key] ?? Number.NaN, digits), budget]);
    const b = options.budgets;
    row('login: FCP ms', 'fcp', 0);
    row('login: LCP ms', 'lcp', 0, `≤ ${b.throttledLoginLcpMs}`);
    row('login: form interactive ms', 'formInteractive', 0);
    row('login → tenants list painted ms (real server, argon2id)', 'loginToTenants', 0, `≤ ${b.throttledLoginToTenantsMs}`);
    row('JS heap after the tenants list MiB', 'heapAfterTenantsMiB', 1, `≤ ${b.throttledHeapAfterListMiB}`);
    row(`users list (${USERS.toLocaleString('en')} users) rendered ms from navigation`, 'usersRendered', 0);
    row('users list: rows in the DOM', 'usersDomRows', 0, `≤ ${b.usersListMaxDomRows}`);
    row('users list: aria-rowcount', 'usersRowCount', 0);
    row('JS heap after the users list MiB', 'heapAfterUsersMiB', 1);
    row('scrolling the users list: longest long task ms (0 = none)', 'scrollMaxLongTask', 0, `≤ ${b.scrollMaxLongTaskMs}`);
    row('scrolling the users list: long tasks', 'scrollLongTasks', 0);

    const checks: Check[] = [
      check('page: login LCP at 4× CPU', m4?.lcp ?? Number.NaN, b.throttledLoginLcpMs, 'ms'),
      check('page: login → tenants list painted at 4× CPU', m4?.loginToTenants ?? Number.NaN, b.throttledLoginToTenantsMs, 'ms'),
      check('page: JS heap after the tenants list at 4× CPU', m4?.heapAfterTenantsMiB ?? Number.NaN, b.throttledHeapAfterListMiB, 'MiB'),
      check('page: users list rows in the DOM (10,000 users)', Math.max(...(all['4x'] ?? []).concat(all['1x'] ?? []).map((r) => r.usersDomRows)), b.usersListMaxDomRows, 'rows'),
      check('page: longest long task scrolling the users list at 4× CPU', m4?.scrollMaxLongTask ?? Number.NaN, b.scrollMaxLongTaskMs, 'ms'),
    ];
    return { suite: 'page', table, checks, data: all, notes: [`Chromium ${browser.version()}, ${RUNS} runs per setting, new context per run (cold cache), viewport 1366×768`] };
  } finally {
    await browser.close();
    await stopServer(server);
    await cluster.stop();
  }
}
