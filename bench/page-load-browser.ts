import type { ChildProcess } from 'node:child_process';
import { chromium, type CDPSession, type Page } from '@playwright/test';
import { TENANT_COUNT } from './peers/tenants-data.mjs';
import { APPS_ORDER, THROTTLES } from './page-load-apps';
import type { App, AppKey } from './page-load-apps';

/** One page-load run in headless Chromium, and the rounds of them (./page-load.ts describes the measurements). */

export const CHROMIUM = '/usr/bin/chromium';
export const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

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
  // The document itself, at once: this script runs before <html> exists, and waiting for DOMContentLoaded saw
  // a field that was in the page (prerendered, taking typing) only after the deferred scripts had run.
  new MutationObserver(look).observe(document, { childList: true, subtree: true, attributes: true, attributeFilter: ['disabled', 'class', 'style', 'hidden'] });
  look();
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
export interface RunResult {
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
export type Figure = keyof RunResult;

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

/** Every app at every CPU rate, `runs` rounds, interleaved; a failed run is noted, not fatal (unless the panel's server died). */
export async function measureRounds(
  apps: Record<AppKey, App>,
  runs: number,
  expectedNames: readonly string[],
  server: { child: ChildProcess; output: string[] },
): Promise<{ results: Map<string, RunResult[]>; failures: string[] }> {
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
  return { results, failures };
}
