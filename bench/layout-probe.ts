import { chromium, type CDPSession, type Page } from '@playwright/test';
import { TENANT_COUNT } from './peers/tenants-data.mjs';
import { benchApps, createTenants } from './page-load-apps';
import { ARGS, CHROMIUM } from './page-load-browser';
import { freshSchema, startPostgres, startServer, stopServer } from './lib/servers';

/**
 * What the main thread's layout after a sign-in's 100 rows is made of (docs/performance.md, "The layout
 * after the rows"). One browser per run, CPU throttled (4× unless `--rate N`), the production build
 * (`npm run build` first) and `npm start`'s server on a throwaway PostgreSQL with the bench's 100 tenants.
 * Per run, three renders of the same 100-row table, each traced, each a new set of DOM nodes:
 *
 *   first  sign-in → the list: nothing of the table laid out or shaped before in this renderer;
 *   again  the SPA goes to another screen and back: new nodes, the same text (shaped words cached);
 *   reload the page reloaded: a new document in the same renderer process (the trace's pid says so);
 *   fresh  the same table in a new tab of the same browser: new document, new nodes, the same text.
 *
 * Printed per render: the sum of the trace's `Layout` events and the longest one, and `UpdateLayoutTree`
 * (style). A first render much dearer than the later ones points at what the renderer caches (fonts, shaped
 * text), not at the table's markup or its CSS, which are the same each time.
 *
 *   npm run build && node --import tsx bench/layout-probe.ts --runs 3
 */

const arg = (name: string, fallback: string) => {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? (process.argv[at + 1] ?? fallback) : fallback;
};
const RATE = Number(arg('rate', '4'));
const RUNS = Number(arg('runs', '3'));

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  tid: number;
  pid: number;
}

async function traced<T>(cdp: CDPSession, work: () => Promise<T>): Promise<{ result: T; events: TraceEvent[] }> {
  const events: TraceEvent[] = [];
  const onData = (e: { value: unknown[] }) => events.push(...(e.value as TraceEvent[]));
  cdp.on('Tracing.dataCollected', onData);
  await cdp.send('Tracing.start', {
    transferMode: 'ReportEvents',
    traceConfig: { includedCategories: ['devtools.timeline', 'disabled-by-default-devtools.timeline'] },
  });
  const result = await work();
  const done = new Promise<void>((resolve) => cdp.once('Tracing.tracingComplete', () => resolve()));
  await cdp.send('Tracing.end');
  await done;
  cdp.off('Tracing.dataCollected', onData);
  return { result, events };
}

/** Layout and style on the page's main thread (the thread of the most `Layout` events). */
function summarise(events: TraceEvent[]): {
  layout: number;
  longest: number;
  style: number;
  count: number;
  pid: number;
} {
  const layouts = events.filter((e) => e.name === 'Layout' && e.ph === 'X' && e.dur !== undefined);
  const byThread = new Map<string, number>();
  for (const e of layouts) byThread.set(`${e.pid}:${e.tid}`, (byThread.get(`${e.pid}:${e.tid}`) ?? 0) + 1);
  const main = [...byThread.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
  const on = (e: TraceEvent) => `${e.pid}:${e.tid}` === main;
  const mine = layouts.filter(on);
  const style = events.filter((e) => e.name === 'UpdateLayoutTree' && e.ph === 'X' && on(e));
  const ms = (list: TraceEvent[]) => list.reduce((sum, e) => sum + (e.dur ?? 0), 0) / 1000;
  return {
    layout: ms(mine),
    longest: Math.max(0, ...mine.map((e) => (e.dur ?? 0) / 1000)),
    style: ms(style),
    count: mine.length,
    pid: mine[0]?.pid ?? 0,
  };
}

const rowsShown = (page: Page, selector: string) =>
  page.waitForFunction(
    ({ selector: s, count }) => document.querySelectorAll(s).length >= count,
    { selector, count: TENANT_COUNT },
    { polling: 50, timeout: 60_000 },
  );

/** The experiment: the sign-in page lays out, once, text in the table's fonts before the click. */
const WARM = `(() => {
  const box = document.createElement('div');
  box.style.cssText = 'position:absolute;left:-9999px;top:0;visibility:hidden;font-size:0.875rem';
  const sample = 'Aa Bb Çç Ãã Éé Íí Óó Úú Ôô Õõ 0123456789 ./-:,()% bench-farmácia 12.345.678/0001-90';
  for (const style of ['', 'font-weight:650', 'font-variant-numeric:tabular-nums', 'font-weight:650;font-variant-numeric:tabular-nums']) {
    const span = document.createElement('span');
    span.style.cssText = style;
    span.textContent = sample;
    box.append(span);
  }
  document.body.append(box);
  void box.offsetWidth;
  box.remove();
})()`;

async function oneRun(app: ReturnType<typeof benchApps>['ours'], warm: boolean) {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  try {
    const context = await browser.newContext({ viewport: { width: 1366, height: 768 }, locale: 'pt-BR' });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    if (RATE > 1) await cdp.send('Emulation.setCPUThrottlingRate', { rate: RATE });
    await page.goto(app.loginUrl, { waitUntil: 'load' });
    await page.locator('button[type=submit]:not([disabled])').waitFor();
    await page.waitForTimeout(500);
    await page.fill('input[name="email"]', app.email);
    await page.fill('input[name="password"]', app.password);
    if (warm) await page.evaluate(WARM);
    await page.waitForTimeout(200);
    const first = await traced(cdp, async () => {
      await page.click('button[type=submit]');
      await rowsShown(page, app.selectors.rows);
      await page.waitForTimeout(400);
    });
    const listPath = await page.evaluate(() => location.pathname + location.search);
    const usersPath = listPath.replace(/\/tenants.*$/, '/users');
    const go = (path: string) =>
      page.evaluate((p) => {
        history.pushState(null, '', p);
        dispatchEvent(new PopStateEvent('popstate'));
      }, path);
    await go(usersPath);
    await page.waitForFunction((s) => document.querySelectorAll(s).length === 0, app.selectors.rows);
    await page.waitForTimeout(1500);
    const again = await traced(cdp, async () => {
      await go(listPath);
      await rowsShown(page, app.selectors.rows);
      await page.waitForTimeout(400);
    });
    const reload = await traced(cdp, async () => {
      await page.reload({ waitUntil: 'load' });
      await rowsShown(page, app.selectors.rows);
      await page.waitForTimeout(400);
    });
    const tab = await context.newPage();
    const tabCdp = await context.newCDPSession(tab);
    if (RATE > 1) await tabCdp.send('Emulation.setCPUThrottlingRate', { rate: RATE });
    const fresh = await traced(tabCdp, async () => {
      await tab.goto(new URL(listPath, app.loginUrl).href, { waitUntil: 'load' });
      await rowsShown(tab, app.selectors.rows);
      await tab.waitForTimeout(400);
    });
    return {
      first: summarise(first.events),
      again: summarise(again.events),
      reload: summarise(reload.events),
      fresh: summarise(fresh.events),
    };
  } finally {
    await browser.close();
  }
}

async function main(): Promise<void> {
  const cluster = await startPostgres();
  let server: Awaited<ReturnType<typeof startServer>> | undefined;
  try {
    const url = await freshSchema(cluster.url, 'layout_probe');
    server = await startServer(url, { seed: true });
    await createTenants(server.base);
    const ours = benchApps(server.base, '', '').ours;
    const f = (n: number) => n.toFixed(1).padStart(7);
    console.log(`layout after 100 rows at ${RATE}× (ms): sum of Layout (longest, count) | UpdateLayoutTree`);
    for (let run = 1; run <= RUNS; run += 1) {
      const warm = process.argv.includes('--warm') && run % 2 === 0;
      const r = await oneRun(ours, warm);
      if (warm) console.log(`run ${run}: the sign-in page laid out the table's fonts first`);
      for (const [label, s] of Object.entries(r))
        console.log(
          `run ${run} ${label.padEnd(6)} ${f(s.layout)} (${f(s.longest)}, ${String(s.count).padStart(3)}) | ${f(s.style)}  renderer ${s.pid}`,
        );
    }
  } finally {
    if (server) await stopServer(server);
    await cluster.stop();
  }
}

await main();
