import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { chromium, type CDPSession, type Page } from '@playwright/test';
import { TENANT_COUNT } from './peers/tenants-data.mjs';
import { benchApps, createTenants } from './page-load-apps';
import { ARGS, CHROMIUM } from './page-load-browser';
import { freshSchema, startPostgres, startServer, stopServer } from './lib/servers';

/**
 * Where the panel's sign-in → 100 rows goes, one run at a time (the page suite, bench/page-load.ts,
 * measures the same path against the peers; this one explains it). Against the production build
 * (`npm run build` first) and `npm start`'s server on a throwaway PostgreSQL, the same 100 tenants:
 * a new browser, the CPU throttled (4× unless `--rate N`), the sign-in page, then a DevTools trace and
 * a CPU profile from before the click to the end of the first frame after the 100 rows. Prints, per run:
 * the figures the page suite reads (LCP, form interactive, sign-in → 100 rows, heap after GC), the
 * requests (from the click), the main thread's tasks of 5 ms or more with what filled them, and the
 * functions with the most self time. `--runs N` (1), `--out DIR` writes trace, profile and a heap snapshot after the list;
 * `--load`: the sign-in page's load instead, from the navigation to the form's frame.
 *
 *   npm run build && node --import tsx bench/profile-signin.ts --runs 3
 *
 * With `npx rsbuild build -c bench/rsbuild.profile.config.ts` instead (hidden source maps) the profile
 * names functions after their sources, and prints our components' inclusive time per long task.
 */

const arg = (name: string, fallback: string) => {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? (process.argv[at + 1] ?? fallback) : fallback;
};
const RATE = Number(arg('rate', '4'));
const RUNS = Number(arg('runs', '1'));
const OUT = arg('out', '');
const LOAD = process.argv.includes('--load');

const PROBES = (rowsSelector: string) => `
  window.__p = { formAt: 0, rowsAt: 0, clickAt: 0, lcp: 0, firstRowAt: 0, marks: [] };
  new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__p.lcp = e.startTime; }).observe({ type: 'largest-contentful-paint', buffered: true });
  const afterFrame = (stamp) => requestAnimationFrame(() => { const c = new MessageChannel(); c.port1.onmessage = () => stamp(performance.now()); c.port2.postMessage(null); });
  let form = false, first = false, rows = false;
  const look = () => {
    const p = window.__p;
    if (!form) { const e = document.querySelector('input[name="email"]'); if (e && !e.disabled && e.getClientRects().length) { form = true; afterFrame((t) => { p.formAt = t; }); } }
    if (!first && document.querySelector(${JSON.stringify(rowsSelector)})) { first = true; p.marks.push(['first row in DOM', performance.now()]); afterFrame((t) => { p.firstRowAt = t; }); }
    if (first && !rows && document.querySelectorAll(${JSON.stringify(rowsSelector)}).length >= ${TENANT_COUNT}) { rows = true; p.marks.push(['100 rows in DOM', performance.now()]); afterFrame((t) => { p.rowsAt = t; }); }
  };
  // The document itself, at once: the init script runs before <html> exists, and waiting for DOMContentLoaded
  // would see a prerendered field only after the deferred scripts ran (bench/page-load-browser.ts).
  new MutationObserver(look).observe(document, { childList: true, subtree: true, attributes: true, attributeFilter: ['disabled'] });
  look();
  document.addEventListener('click', (e) => { if (e.target instanceof Element && e.target.closest('button[type=submit]')) window.__p.clickAt = e.timeStamp; }, true);
`;

interface Probe {
  formAt: number;
  rowsAt: number;
  clickAt: number;
  lcp: number;
  firstRowAt: number;
  marks: [string, number][];
}
const probe = (page: Page) => page.evaluate(() => (window as unknown as { __p: Probe }).__p);

interface TraceEvent {
  name: string;
  cat: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { data?: Record<string, unknown>; name?: string };
}

interface CpuProfile {
  nodes: {
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
    children?: number[];
  }[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

const short = (url: string) => url.replace(/^.*\/(static\/js\/)?/, '');

/**
 * Names a minified position after its source when the build has source maps
 * (`npx rsbuild build -c bench/rsbuild.profile.config.ts`): `name file:line`.
 */
const maps = new Map<string, SourceMap | null>();
function where(url: string, line: number, column: number, name: string): string {
  const path = url.replace(/^https?:\/\/[^/]+\//, 'dist/web/');
  if (!maps.has(path)) {
    const file = `${path}.map`;
    maps.set(path, existsSync(file) ? new SourceMap(JSON.parse(readFileSync(file, 'utf8')) as never) : null);
  }
  const map = maps.get(path);
  const entry = map?.findEntry(line, column);
  if (!entry || !('originalSource' in entry) || typeof entry.originalSource !== 'string')
    return `${name || '(anonymous)'} ${short(url)}:${line + 1}:${column + 1}`;
  const source = entry.originalSource.replace(/^.*?(node_modules\/|src\/)/, '$1').replace(/^webpack:\/\/[^/]*\//, '');
  return `${(entry as { name?: string }).name ?? (name || '(anonymous)')} ${source}:${entry.originalLine + 1}`;
}
const ms = (n: number) => n.toFixed(1).padStart(7);

/** Self time per function and per script between two profile times (µs, the profile's own clock). */
function selfTimes(
  profile: CpuProfile,
  from: number,
  to: number,
): { byFn: [string, number][]; byUrl: [string, number][] } {
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const byFn = new Map<string, number>();
  const byUrl = new Map<string, number>();
  let t = profile.startTime;
  for (let i = 0; i < profile.samples.length; i += 1) {
    const delta = profile.timeDeltas[i + 1] ?? 0;
    t += profile.timeDeltas[i] ?? 0;
    if (t < from || t > to) continue;
    const node = nodes.get(profile.samples[i] ?? -1);
    if (!node) continue;
    const f = node.callFrame;
    const key = f.url ? where(f.url, f.lineNumber, f.columnNumber, f.functionName) : f.functionName;
    byFn.set(key, (byFn.get(key) ?? 0) + delta);
    const file =
      key
        .split(' ')
        .at(-1)
        ?.replace(/:\d+(:\d+)?$/, '') ?? '';
    const u = !f.url
      ? f.functionName
      : (/^node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file)?.[0] ?? /^src\/[^/]+\/[^/]+/.exec(file)?.[0] ?? file);
    byUrl.set(u, (byUrl.get(u) ?? 0) + delta);
  }
  const sort = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1]);
  return { byFn: sort(byFn), byUrl: sort(byUrl) };
}

/** Inclusive time of our components (a function of src/ named with a capital) between two profile times (µs). */
function componentTimes(profile: CpuProfile, from: number, to: number): [string, number][] {
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const label = new Map<number, string | null>();
  const labelOf = (id: number): string | null => {
    if (!label.has(id)) {
      const f = nodes.get(id)?.callFrame;
      const named = f?.url ? where(f.url, f.lineNumber, f.columnNumber, f.functionName) : '';
      label.set(id, /^[A-Z]\w* src\//.test(named) || /^use[A-Z]\w* src\//.test(named) ? named : null);
    }
    return label.get(id) ?? null;
  };
  const total = new Map<string, number>();
  let t = profile.startTime;
  for (let i = 0; i < profile.samples.length; i += 1) {
    const delta = profile.timeDeltas[i + 1] ?? 0;
    t += profile.timeDeltas[i] ?? 0;
    if (t < from || t > to) continue;
    const seen = new Set<string>();
    for (let id: number | undefined = profile.samples[i]; id !== undefined; id = parent.get(id)) {
      const name = labelOf(id);
      if (name && !seen.has(name)) {
        seen.add(name);
        total.set(name, (total.get(name) ?? 0) + delta);
      }
    }
  }
  return [...total].sort((a, b) => b[1] - a[1]);
}

/** A heap snapshot (after the GC heapMiB forced), for DevTools' Memory panel. */
async function heapSnapshot(cdp: CDPSession, file: string): Promise<void> {
  const chunks: string[] = [];
  const collect = (e: { chunk: string }) => chunks.push(e.chunk);
  cdp.on('HeapProfiler.addHeapSnapshotChunk', collect);
  await cdp.send('HeapProfiler.takeHeapSnapshot', { reportProgress: false });
  cdp.off('HeapProfiler.addHeapSnapshotChunk', collect);
  writeFileSync(file, chunks.join(''));
}

async function heapMiB(cdp: CDPSession): Promise<number> {
  await cdp.send('HeapProfiler.enable');
  await cdp.send('HeapProfiler.collectGarbage');
  return (await cdp.send('Runtime.getHeapUsage')).usedSize / 2 ** 20;
}

/** A DevTools trace and a CPU profile (200 µs samples) from now until `stop`. */
async function record(cdp: CDPSession): Promise<{ stop(): Promise<{ events: TraceEvent[]; profile: CpuProfile }> }> {
  const events: TraceEvent[] = [];
  cdp.on('Tracing.dataCollected', (e) => {
    events.push(...(e.value as unknown as TraceEvent[]));
  });
  await cdp.send('Tracing.start', {
    transferMode: 'ReportEvents',
    traceConfig: {
      includedCategories: [
        'devtools.timeline',
        'disabled-by-default-devtools.timeline',
        'disabled-by-default-devtools.timeline.frame',
        'blink.user_timing',
        'loading',
        'v8.execute',
        'v8',
      ],
    },
  });
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await cdp.send('Profiler.start');
  return {
    async stop() {
      const { profile } = (await cdp.send('Profiler.stop')) as unknown as { profile: CpuProfile };
      const done = new Promise<void>((resolve) => cdp.once('Tracing.tracingComplete', () => resolve()));
      await cdp.send('Tracing.end');
      await done;
      return { events, profile };
    },
  };
}

/** The sign-in page alone, traced from the navigation to the submit button's frame (`--load`). */
/** A new browser with a probed, throttled blank page (idle 1.5 s first, as the page suite does). */
async function probedPage(rowsSelector: string) {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  const context = await browser.newContext({ viewport: { width: 1366, height: 768 }, locale: 'pt-BR' });
  const page = await context.newPage();
  await page.goto('about:blank');
  await page.waitForTimeout(1500);
  await page.addInitScript({ content: PROBES(rowsSelector) });
  const cdp = await context.newCDPSession(page);
  if (RATE > 1) await cdp.send('Emulation.setCPUThrottlingRate', { rate: RATE });
  return { browser, page, cdp };
}

async function loadRun(loginUrl: string, rowsSelector: string) {
  const { browser, page, cdp } = await probedPage(rowsSelector);
  try {
    const recording = await record(cdp);
    await page.goto(loginUrl, { waitUntil: 'load' });
    await page.waitForFunction(() => (window as unknown as { __p: Probe }).__p.formAt > 0, null, { polling: 50 });
    await page.locator('button[type=submit]:not([disabled])').waitFor();
    await page.waitForTimeout(300);
    const { events, profile } = await recording.stop();
    if (OUT) {
      writeFileSync(`${OUT}/load.trace.json`, JSON.stringify({ traceEvents: events }));
      writeFileSync(`${OUT}/load.cpuprofile`, JSON.stringify(profile));
    }
    return { login: await probe(page), events, profile };
  } finally {
    await browser.close();
  }
}

async function oneRun(loginUrl: string, email: string, password: string, rowsSelector: string, run: number) {
  const { browser, page, cdp } = await probedPage(rowsSelector);
  try {
    await page.goto(loginUrl, { waitUntil: 'load' });
    await page.waitForFunction(() => (window as unknown as { __p: Probe }).__p.formAt > 0, null, { polling: 50 });
    await page.locator('button[type=submit]:not([disabled])').waitFor();
    await page.waitForTimeout(500);
    const login = await probe(page);
    await page.fill('input[name="email"]', email);
    await page.fill('input[name="password"]', password);

    const recording = await record(cdp);
    await page.click('button[type=submit]');
    await page.waitForFunction(() => (window as unknown as { __p: Probe }).__p.rowsAt > 0, null, {
      polling: 50,
      timeout: 60_000,
    });
    await page.waitForTimeout(300);
    const { events, profile } = await recording.stop();
    const after = await probe(page);
    const heap = await heapMiB(cdp);
    if (OUT) await heapSnapshot(cdp, `${OUT}/signin-${run}.heapsnapshot`);
    if (OUT) {
      writeFileSync(`${OUT}/signin-${run}.trace.json`, JSON.stringify({ traceEvents: events }));
      writeFileSync(`${OUT}/signin-${run}.cpuprofile`, JSON.stringify(profile));
    }
    return { login, after, heap, events, profile };
  } finally {
    await browser.close();
  }
}

function report(r: Awaited<ReturnType<typeof oneRun>>, run: number): void {
  const { login, after, heap, events, profile } = r;
  console.log(
    `\n=== run ${run} at ${RATE}×: LCP ${login.lcp.toFixed(0)}, form interactive ${login.formAt.toFixed(0)}, sign-in → 100 rows ${(after.rowsAt - after.clickAt).toFixed(0)} ms (first row ${(after.firstRowAt - after.clickAt).toFixed(0)}), heap ${heap.toFixed(2)} MiB`,
  );
  for (const [label, at] of after.marks) console.log(`  mark ${label}: ${(at - after.clickAt).toFixed(1)} ms`);
  // The click event (EventDispatch type click) is at clickAt in page time.
  const isClick = (e: TraceEvent) => e.name === 'EventDispatch' && e.args?.data?.type === 'click';
  const rowsInDom = after.marks.find(([label]) => label === '100 rows in DOM')?.[1];
  if (rowsInDom !== undefined) breakdown(events, isClick, rowsInDom - after.clickAt, after.rowsAt - after.clickAt);
  timeline(events, profile, isClick, after.rowsAt - after.clickAt);
}

/**
 * The sign-in in five parts (ms; the trace's tasks on the main thread): the sign-in answer (its
 * request finished), the first signed-in render (the first task of 50 ms or more after it), the time
 * from its end to the rows' render (other answers, their renders, a paint), the rows' render (the
 * longest task after the first render) and their layout and paint (from its end to the frame's end).
 */
function breakdown(
  events: TraceEvent[],
  anchor: (e: TraceEvent) => boolean,
  rowsInDomMs: number,
  rowsAtMs: number,
): void {
  const click = events.find(anchor);
  if (!click) return;
  const onMain = events.filter(
    (e) => e.pid === click.pid && e.tid === click.tid && e.name === 'RunTask' && e.ph === 'X',
  );
  const login = events.find(
    (e) =>
      e.name === 'ResourceSendRequest' &&
      String(e.args?.data?.url ?? '').endsWith('/api/auth/login') &&
      e.ts >= click.ts,
  );
  const finish =
    login && events.find((e) => e.name === 'ResourceFinish' && e.args?.data?.requestId === login.args?.data?.requestId);
  if (!finish) return;
  const rel = (ts: number) => (ts - click.ts) / 1000;
  const first = onMain.find((e) => e.ts >= finish.ts && (e.dur ?? 0) >= 50_000);
  if (!first) return;
  // The rows' render: the last task before the rows' mark in which the probe saw the DOM change (the
  // page's clock and the trace's click event are a few ms apart, so the mark alone may fall in the
  // layout task after it).
  const firstEndTs = first.ts + (first.dur ?? 0);
  const rowsTs = click.ts + rowsInDomMs * 1000;
  const looks = events.filter(
    (e) =>
      e.pid === click.pid && e.tid === click.tid && e.name === 'FunctionCall' && e.args?.data?.functionName === 'look',
  );
  const rows = onMain
    .filter((e) => e.ts >= firstEndTs && e.ts <= rowsTs)
    .filter((task) => looks.some((l) => l.ts >= task.ts && l.ts <= task.ts + (task.dur ?? 0)))
    .at(-1);
  if (!rows) return;
  const firstEnd = rel(first.ts + (first.dur ?? 0));
  const rowsEnd = rel(rows.ts + (rows.dur ?? 0));
  console.log(
    `  breakdown: answer ${rel(finish.ts).toFixed(0)} | first render ${((first.dur ?? 0) / 1000).toFixed(0)} | then ${(rel(rows.ts) - firstEnd).toFixed(0)} | rows ${((rows.dur ?? 0) / 1000).toFixed(0)} | layout and paint ${(rowsAtMs - rowsEnd).toFixed(0)}`,
  );
}

function reportLoad(r: Awaited<ReturnType<typeof loadRun>>, run: number): void {
  const { login, events, profile } = r;
  console.log(
    `\n=== load ${run} at ${RATE}×: LCP ${login.lcp.toFixed(0)}, form interactive ${login.formAt.toFixed(0)} (ms from the navigation)`,
  );
  timeline(
    events,
    profile,
    (e) => e.name === 'navigationStart' && String(e.args?.data?.documentLoaderURL ?? '').includes('/login'),
    login.formAt + 50,
  );
}

/** Requests, main-thread tasks and self time from the event `anchor` finds, for `spanMs`. */
function timeline(events: TraceEvent[], profile: CpuProfile, anchor: (e: TraceEvent) => boolean, spanMs: number): void {
  const start = events.find(anchor);
  const main = start && events.find((e) => e.name === 'thread_name' && e.pid === start.pid && e.tid === start.tid);
  if (!start || !main) {
    console.log('no anchor event in the trace');
    return;
  }
  const onMain = events.filter((e) => e.pid === main.pid && e.tid === main.tid);
  const t0 = start.ts; // µs, trace clock
  const rel = (ts: number) => (ts - t0) / 1000;
  const end = t0 + spanMs * 1000;

  // Requests from the anchor on.
  const sends = events.filter((e) => e.name === 'ResourceSendRequest' && e.ts >= t0 - 1000);
  const byId = (name: string, id: unknown) => events.find((e) => e.name === name && e.args?.data?.requestId === id);
  console.log('  requests (ms from the click: sent → headers arrived (seen by the page) → finished):');
  for (const s of sends) {
    const id = s.args?.data?.requestId;
    const resp = byId('ResourceReceiveResponse', id);
    const fin = byId('ResourceFinish', id);
    const url = String(s.args?.data?.url ?? '').replace(/^https?:\/\/[^/]+/, '');
    // The headers' arrival on the network side (the response event itself waits for a free main thread).
    const timing = resp?.args?.data?.timing as { requestTime?: number; receiveHeadersEnd?: number } | undefined;
    const arrived =
      timing?.requestTime && timing.receiveHeadersEnd !== undefined
        ? ms(rel(timing.requestTime * 1e6 + timing.receiveHeadersEnd * 1000))
        : '      -';
    console.log(
      `   ${ms(rel(s.ts))} → ${arrived} (seen ${resp ? ms(rel(resp.ts)) : '      -'}) → ${fin ? ms(rel(fin.ts)) : '      -'}  ${String(s.args?.data?.requestMethod ?? '')} ${url.slice(0, 90)}`,
    );
  }

  // Main-thread tasks of 5 ms or more between the click and the rows' frame.
  const tasks = onMain.filter(
    (e) => e.name === 'RunTask' && e.ph === 'X' && e.ts >= t0 - 20_000 && e.ts <= end && (e.dur ?? 0) >= 5000,
  );
  let busy = 0;
  for (const e of onMain.filter((x) => x.name === 'RunTask' && x.ph === 'X' && x.ts >= t0 && x.ts <= end))
    busy += e.dur ?? 0;
  console.log(`  main thread busy ${(busy / 1000).toFixed(0)} ms of ${rel(end).toFixed(0)}; tasks ≥ 5 ms:`);
  const kinds = [
    'FunctionCall',
    'EvaluateScript',
    'v8.compile',
    'V8.CompileCode',
    'EventDispatch',
    'TimerFire',
    'FireAnimationFrame',
    'UpdateLayoutTree',
    'Layout',
    'Paint',
    'PrePaint',
    'Layerize',
    'ParseHTML',
    'MajorGC',
    'MinorGC',
    'V8.GC_SCAVENGER',
    'HitTest',
    'RunMicrotasks',
    'XHRReadyStateChange',
    'v8.run',
  ];
  for (const task of tasks) {
    const inside = onMain.filter(
      (e) => e.ph === 'X' && e.ts >= task.ts && e.ts + (e.dur ?? 0) <= task.ts + (task.dur ?? 0) && e !== task,
    );
    const parts = new Map<string, number>();
    for (const e of inside) {
      if (!kinds.includes(e.name)) continue;
      let key = e.name;
      if (e.name === 'FunctionCall') {
        const d = e.args?.data ?? {};
        key = `call ${where(String(d.url ?? ''), Number(d.lineNumber ?? 1) - 1, Number(d.columnNumber ?? 1) - 1, String(d.functionName ?? ''))}`;
      }
      if (e.name === 'EvaluateScript' || e.name === 'v8.compile')
        key = `${e.name} ${short(String(e.args?.data?.url ?? ''))}`;
      if (e.name === 'EventDispatch') key = `event ${String(e.args?.data?.type ?? '')}`;
      parts.set(key, (parts.get(key) ?? 0) + (e.dur ?? 0));
    }
    const top = [...parts]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 6)
      .map(([k, v]) => `${k} ${(v / 1000).toFixed(1)}`);
    console.log(`   ${ms(rel(task.ts))} +${ms((task.dur ?? 0) / 1000)}  ${top.join(' | ')}`);
    if ((task.dur ?? 0) < 100_000 && (task.dur ?? 0) >= 8_000) {
      const parts = componentTimes(profile, task.ts, task.ts + (task.dur ?? 0)).slice(0, 6);
      const fns = selfTimes(profile, task.ts, task.ts + (task.dur ?? 0)).byFn.slice(0, 4);
      if (parts.length)
        console.log(`        ${parts.map(([k, v]) => `${k.split(' ')[0]} ${(v / 1000).toFixed(1)}`).join(' | ')}`);
      console.log(`        self: ${fns.map(([k, v]) => `${k} ${(v / 1000).toFixed(1)}`).join(' | ')}`);
    }
    if ((task.dur ?? 0) >= 100_000) {
      const inTask = selfTimes(profile, task.ts, task.ts + (task.dur ?? 0));
      console.log(
        `        by script: ${inTask.byUrl
          .slice(0, 8)
          .map(([k, v]) => `${k} ${(v / 1000).toFixed(0)}`)
          .join(' | ')}`,
      );
      for (const [k, v] of inTask.byFn.slice(0, 12)) console.log(`        ${ms(v / 1000)}  ${k}`);
      console.log('        components and hooks, inclusive:');
      for (const [k, v] of componentTimes(profile, task.ts, task.ts + (task.dur ?? 0)).slice(0, 30))
        console.log(`        ${ms(v / 1000)}  ${k}`);
    }
  }

  // CPU profile self time between the click and the rows' frame (the profile's clock is the trace's).
  const { byFn, byUrl } = selfTimes(profile, t0, end);
  const total = byFn.reduce((s, [, v]) => s + v, 0);
  console.log(`  self time by script (${(total / 1000).toFixed(0)} ms sampled):`);
  for (const [k, v] of byUrl.slice(0, 10)) console.log(`   ${ms(v / 1000)}  ${k}`);
  console.log('  self time by function:');
  for (const [k, v] of byFn.slice(0, 30)) console.log(`   ${ms(v / 1000)}  ${k}`);
}

async function main(): Promise<void> {
  const cluster = await startPostgres();
  let server: Awaited<ReturnType<typeof startServer>> | undefined;
  try {
    const url = await freshSchema(cluster.url, 'profile_signin');
    server = await startServer(url, { seed: true });
    await createTenants(server.base);
    const ours = benchApps(server.base, '', '').ours;
    for (let run = 1; run <= RUNS; run += 1) {
      if (LOAD) reportLoad(await loadRun(ours.loginUrl, ours.selectors.rows), run);
      else report(await oneRun(ours.loginUrl, ours.email, ours.password, ours.selectors.rows, run), run);
    }
  } finally {
    if (server) await stopServer(server);
    await cluster.stop();
  }
}

await main();
