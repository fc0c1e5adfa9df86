import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type CDPSession, type Page } from '@playwright/test';
import lighthouse from 'lighthouse';
import { DEMO_PASSWORD } from '../server/src/db/seed';
import { makeTenants, tenantCreateBody, TENANT_COUNT } from './peers/tenants-data.mjs';
import { preparePeer, type PeerPrepared } from './lib/peers';
import { check, fixed, median, type Check, type SuiteResult } from './lib/report';
import { freshSchema, json, loginOn, startPostgres, startServer, stopServer, withClient } from './lib/servers';
import { serveStatic, type StaticServer } from './lib/static-server';

/**
 * Page load in headless Chromium (Debian's, never a downloaded one): the panel's production build
 * against the real server on PostgreSQL (argon2id sign-in), and two peers doing the same job — a
 * minimal react-admin 5 and refine 5 + Ant Design 5 app of our own (bench/peers/), each with an
 * in-memory fake sign-in and the same 100 tenants (bench/peers/tenants-data.mjs), which the bench
 * also creates in the panel's server through its API. The peers are served from their `dist/` by
 * bench/lib/static-server.ts with the same compression the panel's build gets.
 *
 * Every run launches a new browser (empty cache and storage, a first visit), idles 2 s on
 * about:blank, sets the CPU throttling rate over CDP (`Emulation.setCPUThrottlingRate`), then:
 * 1. opens the sign-in page: FCP and LCP (PerformanceObserver, buffered) and "form interactive" —
 *    the end of the first frame after the e-mail field is in the DOM, enabled and laid out (the
 *    panel's prerendered fields take typing before hydration, src/ui/screens/login/login.tsx) — and
 *    "form ready to send": the same for the submit button (the panel's waits for hydration);
 * 2. fills the form and clicks submit → "100 rows painted": from the click's event time to the end of
 *    the first frame after 100 data rows are in the DOM;
 * 3. reads the JS heap after a forced GC (CDP `HeapProfiler.collectGarbage`, `Runtime.getHeapUsage`);
 * 4. the panel only: `/backoffice/users` with 10,000 users (first row painted, rows in the DOM), and
 *    scrolling it to the end and back a step per frame (the longest long task).
 * "The end of a frame" is a message posted from a requestAnimationFrame callback: it runs after that
 * frame's style, layout and paint. Runs go round the three apps and both CPU rates in turn, so drift
 * on this shared box hits all alike; every figure is a median.
 *
 * Then Lighthouse (its default mobile profile, simulated throttling) on the panel's sign-in page for a
 * pt-BR light visitor and an English dark one (the `preferences` key in localStorage,
 * src/machines/preferences/preferences.machine.ts; the panel ignores Accept-Language), and on react-admin's.
 */
const CHROMIUM = '/usr/bin/chromium';
const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
const USERS = 10_000;
const THROTTLES = [4, 1] as const;
const PEERS = ['react-admin', 'refine'] as const;

type AppKey = (typeof PEERS)[number] | 'ours';

export interface PageLoadBudgets {
  throttledLoginLcpMs: number;
  throttledFormInteractiveMs: number;
  throttledLoginToListMs: number;
  loginToListMs1x: number;
  /** react-admin's sign-in → 100 rows at 4× over ours: at least this. */
  loginToListVsReactAdminMin: number;
  throttledHeapAfterListMiB: number;
  /** react-admin's heap after the list over ours: at least this. */
  heapVsReactAdminMin: number;
  usersListMaxDomRows: number;
  scrollMaxLongTaskMs: number;
  lighthouse: { performanceMin: number; interactiveMaxMs: number };
}

/** One app under test: where it signs in, what it is typed, and what its list's data rows are. */
interface App {
  key: AppKey;
  loginUrl: string;
  email: string;
  password: string;
  selectors: { email: string; password: string; submit: string; rows: string };
  /** The panel's extra pages (users list, scrolling). */
  usersUrl?: string;
}

/** Installed before any page script: observers and probes the measurements read back. */
const probes = (selectors: App['selectors'], rows: number) => `
  window.__bench = { lcp: 0, fcp: 0, formAt: 0, submitAt: 0, firstRowAt: 0, rowsAt: 0, clickAt: 0, longTasks: [] };
  const S = ${JSON.stringify({ ...selectors, count: rows })};
  new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__bench.lcp = e.startTime; }).observe({ type: 'largest-contentful-paint', buffered: true });
  new PerformanceObserver((list) => { for (const e of list.getEntries()) if (e.name === 'first-contentful-paint') window.__bench.fcp = e.startTime; }).observe({ type: 'paint', buffered: true });
  new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__bench.longTasks.push({ start: e.startTime, duration: e.duration }); }).observe({ type: 'longtask', buffered: true });
  const afterFrame = (stamp) => requestAnimationFrame(() => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => stamp(performance.now());
    channel.port2.postMessage(null);
  });
  let formSeen = false, submitSeen = false, firstSeen = false, rowsSeen = false;
  const look = () => {
    const b = window.__bench;
    if (!formSeen) {
      const email = document.querySelector(S.email);
      if (email && !email.disabled && email.getClientRects().length > 0) { formSeen = true; afterFrame((t) => { b.formAt = t; }); }
    }
    if (!submitSeen) {
      const submit = document.querySelector(S.submit);
      if (submit && !submit.disabled && submit.getClientRects().length > 0) { submitSeen = true; afterFrame((t) => { b.submitAt = t; }); }
    }
    if (!firstSeen && document.querySelector(S.rows)) { firstSeen = true; afterFrame((t) => { b.firstRowAt = t; }); }
    if (firstSeen && !rowsSeen && document.querySelectorAll(S.rows).length >= S.count) { rowsSeen = true; afterFrame((t) => { b.rowsAt = t; }); }
  };
  const watch = () => {
    new MutationObserver(look).observe(document.documentElement, { childList: true, subtree: true, attributes: true, attributeFilter: ['disabled', 'class', 'style', 'hidden'] });
    look();
  };
  if (document.documentElement) watch(); else document.addEventListener('DOMContentLoaded', watch);
  document.addEventListener('click', (event) => {
    const target = event.target;
    if (target instanceof Element && target.closest(S.submit)) window.__bench.clickAt = event.timeStamp;
  }, true);
`;

interface Probe {
  lcp: number;
  fcp: number;
  formAt: number;
  submitAt: number;
  firstRowAt: number;
  rowsAt: number;
  clickAt: number;
  longTasks: { start: number; duration: number }[];
}

/** One run's figures; the users-list ones are NaN for the peers. */
interface RunResult {
  fcp: number;
  lcp: number;
  formInteractive: number;
  formReady: number;
  loginToList: number;
  heapAfterListMiB: number;
  usersRendered: number;
  usersDomRows: number;
  usersRowCount: number;
  heapAfterUsersMiB: number;
  scrollMaxLongTask: number;
  scrollLongTasks: number;
}
type Figure = keyof RunResult;

const probe = (page: Page) => page.evaluate(() => (window as unknown as { __bench: Probe }).__bench);

/** Waits for a probe's stamp; a timeout names the stamp, the page and how many rows were there. */
async function waitForProbe(page: Page, field: keyof Probe, timeoutMs: number, rowsSelector?: string): Promise<void> {
  try {
    await page.waitForFunction(
      (f) => Boolean((window as unknown as { __bench: Record<string, unknown> }).__bench[f]),
      field,
      { timeout: timeoutMs, polling: 50 },
    );
  } catch (error) {
    const rows = rowsSelector
      ? await page
          .evaluate((selector) => document.querySelectorAll(selector).length, rowsSelector)
          .catch(() => Number.NaN)
      : Number.NaN;
    throw new Error(
      `no ${field} within ${timeoutMs / 1000} s at ${page.url()}${rowsSelector ? ` (${rows} rows match ${rowsSelector})` : ''}`,
      { cause: error },
    );
  }
}

async function heapMiB(cdp: CDPSession): Promise<number> {
  await cdp.send('HeapProfiler.enable');
  await cdp.send('HeapProfiler.collectGarbage');
  const usage = await cdp.send('Runtime.getHeapUsage');
  return usage.usedSize / 2 ** 20;
}

/** The users list (10,000 rows, windowed) and scrolling it: the panel only. */
async function usersList(
  page: Page,
  cdp: CDPSession,
  url: string,
): Promise<
  Pick<
    RunResult,
    'usersRendered' | 'usersDomRows' | 'usersRowCount' | 'heapAfterUsersMiB' | 'scrollMaxLongTask' | 'scrollLongTasks'
  >
> {
  await page.goto(url, { waitUntil: 'load' });
  await waitForProbe(page, 'firstRowAt', 120_000);
  const users = await probe(page);
  const dom = await page.evaluate(() => ({
    rows: document.querySelectorAll('[role=grid] [role=row]').length,
    rowCount: Number(document.querySelector('[role=grid]')?.getAttribute('aria-rowcount') ?? 0),
  }));
  const heapAfterUsersMiB = await heapMiB(cdp);

  // Scroll the list to the end and back, a step per frame.
  const scroll = await page.evaluate(async () => {
    const grid = document.querySelector('[role=grid]');
    // The list scrolls in its own box, or in the layout's content area around it.
    const ancestors: Element[] = [];
    for (let el = grid?.parentElement; el; el = el.parentElement) ancestors.push(el);
    const candidates = [grid, ...Array.from(grid?.querySelectorAll('*') ?? []), ...ancestors].filter(
      (el): el is HTMLElement => el instanceof HTMLElement && el.scrollHeight > el.clientHeight + 10,
    );
    const scroller =
      candidates.find((el) => ['auto', 'scroll'].includes(getComputedStyle(el).overflowY)) ?? document.scrollingElement;
    const describe = (el: Element | null | undefined) =>
      el instanceof HTMLElement
        ? `${el.tagName.toLowerCase()}.${el.className} ${el.scrollHeight}/${el.clientHeight} ${getComputedStyle(el).overflowY}`
        : String(el);
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
    const tasks = (
      window as unknown as { __bench: { longTasks: { start: number; duration: number }[] } }
    ).__bench.longTasks.filter((t) => t.start >= start);
    return {
      maxLongTask: tasks.reduce((max, t) => Math.max(max, t.duration), 0),
      longTasks: tasks.length,
      steps,
      info,
    };
  });
  if (scroll.steps === 0 && process.env.BENCH_SHOT)
    await page.screenshot({ path: process.env.BENCH_SHOT, fullPage: true });
  if (scroll.steps === 0) throw new Error(`the users list did not scroll (${scroll.info})`);
  return {
    usersRendered: users.firstRowAt,
    usersDomRows: dom.rows,
    usersRowCount: dom.rowCount,
    heapAfterUsersMiB,
    scrollMaxLongTask: scroll.maxLongTask,
    scrollLongTasks: scroll.longTasks,
  };
}

async function oneRun(app: App, throttle: number, expectedNames: readonly string[]): Promise<RunResult> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  try {
    const context = await browser.newContext({ viewport: { width: 1366, height: 768 }, locale: 'pt-BR' });
    const page = await context.newPage();
    await page.goto('about:blank');
    await page.waitForTimeout(2000);
    // tsx compiles this file with esbuild's keepNames, which wraps named functions inside the callbacks
    // given to page.evaluate in a `__name(fn, "name")` helper that exists only in Node: give the page one.
    await page.addInitScript({ content: 'globalThis.__name = globalThis.__name || ((fn) => fn);' });
    await page.addInitScript(probes(app.selectors, TENANT_COUNT));
    const cdp = await context.newCDPSession(page);
    if (throttle > 1) await cdp.send('Emulation.setCPUThrottlingRate', { rate: throttle });

    // 1. Sign-in page.
    await page.goto(app.loginUrl, { waitUntil: 'load' });
    await waitForProbe(page, 'formAt', 60_000, app.selectors.email);
    await waitForProbe(page, 'submitAt', 60_000, app.selectors.submit);
    await page.waitForTimeout(300); // let LCP settle before any input ends it
    const login = await probe(page);

    // 2. Sign in → 100 rows painted.
    await page.fill(app.selectors.email, app.email);
    await page.fill(app.selectors.password, app.password);
    await page.click(app.selectors.submit);
    await waitForProbe(page, 'rowsAt', 60_000, app.selectors.rows);
    const afterLogin = await probe(page);
    if (!afterLogin.clickAt) throw new Error('the submit click was not seen');
    // The same 100 tenants: the page holds the generator's first and last.
    const missing = await page.evaluate(
      (names) => names.filter((name) => !document.body.textContent?.includes(name)),
      [...expectedNames],
    );
    if (missing.length) throw new Error(`${app.key}: the list at ${page.url()} lacks ${missing.join(', ')}`);

    // 3. Heap after the list.
    const heapAfterListMiB = await heapMiB(cdp);

    // 4. The panel's users list.
    const users = app.usersUrl
      ? await usersList(page, cdp, app.usersUrl)
      : {
          usersRendered: Number.NaN,
          usersDomRows: Number.NaN,
          usersRowCount: Number.NaN,
          heapAfterUsersMiB: Number.NaN,
          scrollMaxLongTask: Number.NaN,
          scrollLongTasks: Number.NaN,
        };
    return {
      fcp: login.fcp,
      lcp: login.lcp,
      formInteractive: login.formAt,
      formReady: login.submitAt,
      loginToList: afterLogin.rowsAt - afterLogin.clickAt,
      heapAfterListMiB,
      ...users,
    };
  } finally {
    await browser.close();
  }
}

interface LighthouseFigures {
  performance: number;
  interactiveMs: number;
}

/**
 * One Lighthouse run (default config: mobile, simulated throttling, performance only) in a new
 * Chromium with an empty profile; `storage` is put into the origin's localStorage first, from a
 * same-origin JSON response so nothing of the app is loaded or cached before Lighthouse's visit.
 */
async function lighthouseRun(
  url: string,
  storage?: { origin: string; entries: Record<string, string> },
): Promise<LighthouseFigures> {
  const profile = mkdtempSync(join(tmpdir(), 'bench-lighthouse-'));
  const child = spawn(
    CHROMIUM,
    [
      '--headless=new',
      '--remote-debugging-address=127.0.0.1',
      '--remote-debugging-port=0',
      `--user-data-dir=${profile}`,
      ...ARGS,
      'about:blank',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  try {
    const port = await new Promise<number>((resolve, reject) => {
      let err = '';
      child.stderr.on('data', (chunk: Buffer) => {
        err += chunk.toString();
        const match = /DevTools listening on ws:\/\/[^:]+:(\d+)\//.exec(err);
        if (match?.[1]) resolve(Number(match[1]));
      });
      child.once('exit', (code) => reject(new Error(`chromium exited with ${code}: ${err.slice(-500)}`)));
    });
    if (storage) {
      const browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`);
      const context = browser.contexts()[0];
      if (!context) throw new Error('no default browser context over CDP');
      const page = await context.newPage();
      await page.goto(`${storage.origin}/api/auth/userInfo`);
      await page.evaluate((entries) => {
        for (const [key, value] of Object.entries(entries)) localStorage.setItem(key, value);
      }, storage.entries);
      await page.close();
      await browser.close(); // a browser connected over CDP is only disconnected
    }
    const result = await lighthouse(url, {
      port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance'],
      disableStorageReset: Boolean(storage),
    });
    const lhr = result?.lhr;
    if (!lhr) throw new Error(`Lighthouse gave no result for ${url}`);
    if (lhr.runtimeError) throw new Error(`Lighthouse on ${url}: ${lhr.runtimeError.message}`);
    return {
      performance: (lhr.categories.performance?.score ?? Number.NaN) * 100,
      interactiveMs: lhr.audits.interactive?.numericValue ?? Number.NaN,
    };
  } finally {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    // Chromium's helpers may still be writing the profile for a moment after the browser exits.
    rmSync(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
  }
}

function chromiumVersion(): string {
  const out = spawnSync(CHROMIUM, ['--version'], { encoding: 'utf8' });
  return /Chromium [\d.]+/.exec(out.stdout ?? '')?.[0] ?? CHROMIUM;
}

/** A list screen the registry maps to the coming-soon page has nothing to measure: it is skipped. */
function missingScreens(): string[] {
  const registry = readFileSync('src/app/screens-registry.ts', 'utf8');
  return ['tenants', 'users'].filter((route) => new RegExp(`^\\s*${route}:\\s*comingSoon`, 'm').test(registry));
}

/** The same 100 tenants the peers bundle, created through the API (each newer than every seeded one). */
async function createTenants(base: string): Promise<void> {
  const { token } = await loginOn(base);
  for (const tenant of makeTenants()) {
    await json(
      await fetch(`${base}/api/tenant`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify(tenantCreateBody(tenant)),
      }),
    );
  }
}

const APPS_ORDER: readonly AppKey[] = ['react-admin', 'refine', 'ours'];

export async function pageLoadBench(options: {
  build: boolean;
  buildPeers: boolean;
  quick: boolean;
  budgets: PageLoadBudgets;
}): Promise<SuiteResult> {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing (apt-get install -y chromium)`);
  const missingRoutes = missingScreens();
  if (missingRoutes.length)
    throw new Error(`screens not in the registry yet: ${missingRoutes.join(', ')} (still comingSoon)`);
  const runs = options.quick ? 3 : 5;
  const notes: string[] = [];
  if (options.build || !existsSync('dist/web/index.html')) {
    const built = spawnSync('npx', ['rsbuild', 'build'], { stdio: ['ignore', 'ignore', 'inherit'] });
    if (built.status !== 0) throw new Error('rsbuild build failed');
  }
  const prepared: PeerPrepared[] = PEERS.map((name) => preparePeer(name, { build: options.buildPeers }));
  for (const p of prepared) {
    const install =
      p.installSeconds === null ? 'already installed' : `${p.installedWith} ${p.installSeconds.toFixed(0)} s`;
    const build = p.buildSeconds === null ? 'dist/ reused' : `vite build ${p.buildSeconds.toFixed(0)} s`;
    notes.push(`peer ${p.name}: ${install}, ${build}`);
  }

  const tenants = makeTenants();
  // The panel lists newest first (src/domain/tenants-query.ts), the peers too: the page holds all 100.
  const expectedNames = [tenants[0]?.name ?? '', tenants[tenants.length - 1]?.name ?? ''];
  const cluster = await startPostgres();
  const statics: StaticServer[] = [];
  let server: Awaited<ReturnType<typeof startServer>> | undefined;
  try {
    const url = await freshSchema(cluster.url, 'bench_page');
    server = await startServer(url, { seed: true });
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
    await createTenants(server.base);
    for (const p of prepared) statics.push(await serveStatic(p.dist));
    const [raServer, refineServer] = statics;
    if (!raServer || !refineServer) throw new Error('peer servers missing');
    notes.push(
      `peers' files with brotli q11: react-admin ${(raServer.brotliBytes / 1000).toFixed(0)} KB, refine ${(refineServer.brotliBytes / 1000).toFixed(0)} KB`,
    );

    const peerCredentials = { email: 'bench@example.com', password: 'anything' };
    const apps: Record<AppKey, App> = {
      ours: {
        key: 'ours',
        loginUrl: `${server.base}/backoffice/login?to=${encodeURIComponent(`/tenants?limit=${TENANT_COUNT}`)}`,
        email: 'admin@demo.local',
        password: DEMO_PASSWORD,
        // Data rows only: React Aria renders the table's empty/loading row with a rowheader too.
        selectors: {
          email: 'input[name="email"]',
          password: 'input[name="password"]',
          submit: 'button[type=submit]',
          rows: '[role=grid] [role=rowgroup]:not([data-empty]) [role=rowheader]',
        },
        usersUrl: `${server.base}/backoffice/users`,
      },
      'react-admin': {
        key: 'react-admin',
        loginUrl: `${raServer.base}/#/login`,
        ...peerCredentials,
        selectors: {
          email: 'input[name="email"]',
          password: 'input[name="password"]',
          submit: 'button[type=submit]',
          rows: 'tbody tr.RaDataTable-row',
        },
      },
      refine: {
        key: 'refine',
        loginUrl: `${refineServer.base}/login`,
        ...peerCredentials,
        selectors: {
          email: 'input#email',
          password: 'input#password',
          submit: 'button[type=submit]',
          rows: '.ant-table-tbody tr.ant-table-row',
        },
      },
    };

    // Interleaved: each round measures every app at every rate, the apps' order turning each round.
    const results = new Map<string, RunResult[]>();
    const failures: string[] = [];
    for (let round = 0; round < runs; round += 1) {
      for (const throttle of THROTTLES) {
        for (let i = 0; i < APPS_ORDER.length; i += 1) {
          const key = APPS_ORDER[(i + round) % APPS_ORDER.length] as AppKey;
          const slot = `${key} ${throttle}x`;
          try {
            const result = await oneRun(apps[key], throttle, expectedNames);
            results.set(slot, [...(results.get(slot) ?? []), result]);
          } catch (error) {
            failures.push(
              `${slot} run ${round + 1}: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`,
            );
            if (server.child.exitCode !== null || server.child.signalCode !== null) {
              throw new Error(
                `the panel's server exited (${server.child.exitCode ?? server.child.signalCode}): ${server.output.join('').slice(-1000)}`,
                { cause: error },
              );
            }
          }
        }
      }
      console.log(`  round ${round + 1} of ${runs} done`);
    }
    const m = (key: AppKey, throttle: number, figure: Figure) =>
      median((results.get(`${key} ${throttle}x`) ?? []).map((r) => r[figure]).filter(Number.isFinite));

    // Lighthouse is slow: full runs only, 3 per page, medians.
    const lighthouseRuns = options.quick ? 0 : 3;
    const lh = new Map<string, LighthouseFigures[]>();
    const lighthouseTargets = [
      { slot: 'ours pt-BR light', url: `${server.base}/backoffice/login` },
      {
        slot: 'ours en dark',
        url: `${server.base}/backoffice/login`,
        storage: { origin: server.base, entries: { preferences: JSON.stringify({ theme: 'dark', locale: 'en' }) } },
      },
      { slot: 'react-admin', url: `${raServer.base}/#/login` },
    ];
    for (let round = 0; round < lighthouseRuns; round += 1) {
      for (const target of lighthouseTargets) {
        try {
          lh.set(target.slot, [...(lh.get(target.slot) ?? []), await lighthouseRun(target.url, target.storage)]);
        } catch (error) {
          failures.push(
            `Lighthouse ${target.slot}: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`,
          );
        }
      }
    }
    const l = (slot: string, figure: keyof LighthouseFigures) =>
      median((lh.get(slot) ?? []).map((r) => r[figure]).filter(Number.isFinite));

    const b = options.budgets;
    const table = [
      [`figure (median of ${runs})`, 'react-admin', 'refine', 'ours', 'ours vs react-admin', 'budget (ours)'],
    ];
    // react-admin's value over ours: above 1 means ours is faster (or smaller).
    const ratio = (ra: number, ours: number) =>
      Number.isFinite(ra) && Number.isFinite(ours) && ours > 0 ? ra / ours : Number.NaN;
    const ratioText = (r: number) => (Number.isFinite(r) ? `${r.toFixed(2)}×` : '—');
    const row = (label: string, figure: Figure, throttle: number, digits: number, budget = '') => {
      const [ra, rf, ours] = [
        m('react-admin', throttle, figure),
        m('refine', throttle, figure),
        m('ours', throttle, figure),
      ];
      table.push([
        label,
        fixed(ra, digits),
        fixed(rf, digits),
        fixed(ours, digits),
        ratioText(ratio(ra, ours)),
        budget,
      ]);
    };
    row('sign-in page FCP ms, 4× CPU', 'fcp', 4, 0);
    row('sign-in page LCP ms, 4× CPU', 'lcp', 4, 0, `≤ ${b.throttledLoginLcpMs}`);
    row('sign-in form interactive ms, 4× CPU', 'formInteractive', 4, 0, `≤ ${b.throttledFormInteractiveMs}`);
    row('sign-in form ready to send (submit enabled) ms, 4× CPU', 'formReady', 4, 0);
    row(
      `sign-in → ${TENANT_COUNT} rows painted ms, 4× CPU`,
      'loginToList',
      4,
      0,
      `≤ ${b.throttledLoginToListMs}, ratio ≥ ${b.loginToListVsReactAdminMin}`,
    );
    row(
      'JS heap after the list MiB (after GC), 4× CPU',
      'heapAfterListMiB',
      4,
      1,
      `≤ ${b.throttledHeapAfterListMiB}, ratio ≥ ${b.heapVsReactAdminMin}`,
    );
    row('sign-in page FCP ms, 1× CPU', 'fcp', 1, 0);
    row('sign-in page LCP ms, 1× CPU', 'lcp', 1, 0);
    row('sign-in form interactive ms, 1× CPU', 'formInteractive', 1, 0);
    row('sign-in form ready to send (submit enabled) ms, 1× CPU', 'formReady', 1, 0);
    row(`sign-in → ${TENANT_COUNT} rows painted ms, 1× CPU`, 'loginToList', 1, 0, `≤ ${b.loginToListMs1x}`);
    row('JS heap after the list MiB (after GC), 1× CPU', 'heapAfterListMiB', 1, 1);
    // The panel's own pages: no peer counterpart.
    for (const throttle of THROTTLES) {
      const ours = (figure: Figure, digits: number) => fixed(m('ours', throttle, figure), digits);
      const only = (label: string, value: string, budget = '') =>
        table.push([`${label}, ${throttle}× CPU`, '', '', value, '', budget]);
      only(
        `users list (${USERS.toLocaleString('en')} users) first row painted ms from navigation`,
        ours('usersRendered', 0),
      );
      only(
        'users list: rows in the DOM / aria-rowcount',
        `${ours('usersDomRows', 0)} / ${ours('usersRowCount', 0)}`,
        `≤ ${b.usersListMaxDomRows}`,
      );
      only('JS heap after the users list MiB', ours('heapAfterUsersMiB', 1));
      only(
        'scrolling the users list: longest long task ms (0 = none)',
        ours('scrollMaxLongTask', 0),
        throttle === 4 ? `≤ ${b.scrollMaxLongTaskMs}` : '',
      );
      only('scrolling the users list: long tasks', ours('scrollLongTasks', 0));
    }
    if (lighthouseRuns > 0) {
      for (const visitor of ['pt-BR light', 'en dark']) {
        const ours = `ours ${visitor}`;
        table.push([
          `Lighthouse mobile performance score, ${visitor} visitor`,
          fixed(l('react-admin', 'performance'), 0),
          '',
          fixed(l(ours, 'performance'), 0),
          '',
          `≥ ${b.lighthouse.performanceMin}`,
        ]);
        table.push([
          `Lighthouse mobile time to interactive ms, ${visitor} visitor`,
          fixed(l('react-admin', 'interactiveMs'), 0),
          '',
          fixed(l(ours, 'interactiveMs'), 0),
          ratioText(ratio(l('react-admin', 'interactiveMs'), l(ours, 'interactiveMs'))),
          `≤ ${b.lighthouse.interactiveMaxMs}`,
        ]);
      }
    }

    const ours4 = (figure: Figure) => m('ours', 4, figure);
    const allOurs = [...(results.get('ours 4x') ?? []), ...(results.get('ours 1x') ?? [])];
    const checks: Check[] = [
      check('page: sign-in LCP at 4× CPU', ours4('lcp'), b.throttledLoginLcpMs, 'ms'),
      check('page: sign-in form interactive at 4× CPU', ours4('formInteractive'), b.throttledFormInteractiveMs, 'ms'),
      check(
        `page: sign-in → ${TENANT_COUNT} rows painted at 4× CPU`,
        ours4('loginToList'),
        b.throttledLoginToListMs,
        'ms',
      ),
      check(
        `page: sign-in → ${TENANT_COUNT} rows painted at 1× CPU`,
        m('ours', 1, 'loginToList'),
        b.loginToListMs1x,
        'ms',
      ),
      check(
        `page: react-admin ÷ ours, sign-in → ${TENANT_COUNT} rows at 4× CPU`,
        ratio(m('react-admin', 4, 'loginToList'), ours4('loginToList')),
        b.loginToListVsReactAdminMin,
        '×',
        'min',
        'ours with the real server and argon2id, react-admin with fake in-memory sign-in',
      ),
      check('page: JS heap after the list at 4× CPU', ours4('heapAfterListMiB'), b.throttledHeapAfterListMiB, 'MiB'),
      check(
        'page: react-admin ÷ ours, JS heap after the list at 4× CPU',
        ratio(m('react-admin', 4, 'heapAfterListMiB'), ours4('heapAfterListMiB')),
        b.heapVsReactAdminMin,
        '×',
        'min',
      ),
      check(
        'page: users list rows in the DOM (10,000 users)',
        allOurs.length ? Math.max(...allOurs.map((r) => r.usersDomRows)) : Number.NaN,
        b.usersListMaxDomRows,
        'rows',
      ),
      check(
        'page: longest long task scrolling the users list at 4× CPU',
        ours4('scrollMaxLongTask'),
        b.scrollMaxLongTaskMs,
        'ms',
      ),
    ];
    if (lighthouseRuns > 0) {
      for (const visitor of ['pt-BR light', 'en dark']) {
        checks.push(
          check(
            `lighthouse: sign-in performance score, ${visitor} visitor`,
            l(`ours ${visitor}`, 'performance'),
            b.lighthouse.performanceMin,
            'points',
            'min',
          ),
        );
        checks.push(
          check(
            `lighthouse: sign-in time to interactive, ${visitor} visitor`,
            l(`ours ${visitor}`, 'interactiveMs'),
            b.lighthouse.interactiveMaxMs,
            'ms',
          ),
        );
      }
    }

    notes.push(
      `${chromiumVersion()}, a new browser per run (2 s idle on about:blank first), ${runs} runs per app and CPU rate, interleaved; viewport 1366×768; medians`,
      `ours: the real server on PostgreSQL with argon2id sign-in, ${server.base}/backoffice/login?to=/tenants?limit=${TENANT_COUNT}; react-admin and refine: static dist/ with an in-memory fake sign-in and the same ${TENANT_COUNT} tenants (bench/peers/tenants-data.mjs)`,
      '"ours vs react-admin" is react-admin\'s figure ÷ ours: above 1× ours is faster or smaller',
      options.quick
        ? 'quick: 3 runs, no Lighthouse'
        : `Lighthouse ${lighthouseRuns} runs per page (default mobile profile, simulated throttling), medians`,
      ...failures.map((f) => `FAILED ${f}`),
    );
    const data = { runs: Object.fromEntries(results), lighthouse: Object.fromEntries(lh), peers: prepared, failures };
    return { suite: 'page', table, checks, data, notes };
  } finally {
    for (const s of statics) await s.close();
    if (server) await stopServer(server);
    await cluster.stop();
  }
}
