/**
 * `npm run bench` (full) and `npm run bench:quick` (CI, under 2 minutes): runs the suites, prints one
 * table per suite and every budget check, writes `dist/bench/results-<mode>.json`, and exits 1 when a
 * budget is missed, naming it. Ends with `N passed, N failed` (one per budget check) for `.ci/run`.
 *
 * Options: `--quick`; `--only bundle,api,graphql,scale,support,lists,sockets,live,page,a11y` (comma-separated); `--no-build` (reuse
 * dist/ for the bundle and page suites, and the peers' dist/); `--help`. The page suite (with its peers
 * and Lighthouse) runs in the full bench only, or with `--only page` (with `--quick`: 3 runs, no Lighthouse);
 * so does the a11y suite (Lighthouse accessibility), also `npm run bench:a11y`.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { arch, cpus, totalmem } from 'node:os';
import { a11yBench, type A11yBudgets } from './a11y';
import { apiBench } from './api';
import { graphqlLimitsBench } from './graphql-limits';
import { liveBench } from './live';
import { bundleBench } from './bundle';
import { check, formatChecks, formatTable, type Check, type SuiteResult } from './lib/report';
import { serverOnPostgres, stopEverything, type PostgresTarget } from './lib/servers';
import { pageLoadBench, type PageLoadBudgets } from './page-load';
import { scaleBench } from './scale';
import { supportSearchBench } from './support-search';
import { listFiltersBench } from './list-filters';
import { socketBench } from './sockets';

const args = process.argv.slice(2);
if (args.includes('--help')) {
  console.log(`npm run bench [-- options]    npm run bench:quick
  --quick              smaller suites (CI); the page suite is left out unless named in --only
  --only a,b           only these suites: bundle, api, graphql, scale, support, lists, sockets, live, page, a11y
  --no-build           reuse dist/ (and bench/peers/*/dist) instead of building`);
  process.exit(0);
}
const quick = args.includes('--quick');
const onlyAt = args.indexOf('--only');
const only = onlyAt >= 0 ? new Set((args[onlyAt + 1] ?? '').split(',')) : undefined;
const build = !args.includes('--no-build') && !quick;
const budgets = JSON.parse(readFileSync(new URL('./budgets.json', import.meta.url), 'utf8')) as {
  bundle: { loginGzipKB: number; routeExtraGzipKB: number; wholeAppGzipKB: number };
  pageLoad: PageLoadBudgets;
  api: { maxErrors: number };
  scale: { searchP95Ms: number; csvRowsPerSecond: number; csvRssGrowthMB: number };
  support: { searchP95Ms: number };
  lists: { firstPageP95Ms: number; allIdsP95Ms: number; exportRssGrowthMB: number };
  sockets: { connections: number; broadcastP99Ms: number };
  live: { auditRowShownMs: number; permissionsAppliedMs: number };
  graphql: { chainRefusalP95Ms: number };
  a11y: A11yBudgets;
};

/** Quick mode: one PostgreSQL cluster and one seeded server for the api, graphql, scale, sockets and live suites. */
let shared: (PostgresTarget & { release(): Promise<void> }) | undefined;
const sharedServer = async (): Promise<PostgresTarget | undefined> => {
  if (!quick) return undefined;
  shared ??= await serverOnPostgres('bench_quick');
  return shared;
};

type Suite = { name: string; quick: boolean; run: () => Promise<SuiteResult> };
const suites: Suite[] = [
  { name: 'bundle', quick: true, run: () => bundleBench({ build, budgets: budgets.bundle }) },
  {
    name: 'api',
    quick: true,
    run: async () => apiBench({ quick, maxErrors: budgets.api.maxErrors, shared: await sharedServer() }),
  },
  {
    name: 'graphql',
    quick: true,
    run: async () => graphqlLimitsBench({ quick, budgets: budgets.graphql, shared: await sharedServer() }),
  },
  {
    name: 'scale',
    quick: true,
    run: async () => scaleBench({ quick, budgets: budgets.scale, shared: await sharedServer() }),
  },
  {
    name: 'support',
    quick: true,
    run: async () => supportSearchBench({ quick, budgets: budgets.support, shared: await sharedServer() }),
  },
  {
    name: 'lists',
    quick: true,
    run: async () => listFiltersBench({ quick, budgets: budgets.lists, shared: await sharedServer() }),
  },
  {
    name: 'sockets',
    quick: true,
    run: async () =>
      socketBench({
        connections: quick ? 1000 : budgets.sockets.connections,
        broadcastP99Ms: budgets.sockets.broadcastP99Ms,
        shared: await sharedServer(),
      }),
  },
  {
    name: 'live',
    quick: true,
    run: async () => liveBench({ budgets: budgets.live, shared: await sharedServer() }),
  },
  {
    name: 'page',
    quick: false,
    run: () =>
      pageLoadBench({ budgets: budgets.pageLoad, build: build && !ran.has('bundle'), buildPeers: build, quick }),
  },
  {
    name: 'a11y',
    quick: false,
    run: () => a11yBench({ budgets: budgets.a11y, build: build && !ran.has('bundle') && !ran.has('page') }),
  },
];
const ran = new Set<string>();

async function main(): Promise<number> {
  const started = Date.now();
  const load = (await import('node:os')).loadavg();
  const header = `bench ${quick ? 'quick' : 'full'} — ${new Date().toISOString()} — ${cpus().length}× ${cpus()[0]?.model ?? '?'} (${arch()}), ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, load average ${load.map((l) => l.toFixed(1)).join(' ')}`;
  console.log(header);
  const results: SuiteResult[] = [];
  const checks: Check[] = [];
  for (const suite of suites) {
    if (only ? !only.has(suite.name) : quick && !suite.quick) continue;
    const t0 = Date.now();
    console.log(`\n▶ ${suite.name}`);
    try {
      const result = await suite.run();
      ran.add(suite.name);
      results.push(result);
      checks.push(...result.checks);
      console.log(`✔ ${suite.name} (${((Date.now() - t0) / 1000).toFixed(0)} s)`);
    } catch (error) {
      console.error(error);
      // A suite that cannot run is a missed check, never a silent pass.
      checks.push({
        ...check(`${suite.name}: suite ran`, 0, 1, 'run', 'min'),
        note: error instanceof Error ? error.message.split('\n')[0] : String(error),
      });
      console.log(`✘ ${suite.name} failed to run (${((Date.now() - t0) / 1000).toFixed(0)} s)`);
    }
    if (!shared) await stopEverything();
  }
  await shared?.release();
  await stopEverything();

  console.log(`\n${header}`);
  for (const result of results) {
    console.log(`\n## ${result.suite}`);
    console.log(formatTable(result.table));
    for (const note of result.notes ?? []) console.log(`  note: ${note}`);
  }
  console.log('\n## budgets');
  console.log(formatChecks(checks));
  const missed = checks.filter((c) => !c.ok);
  for (const c of missed)
    console.log(
      `MISSED: ${c.name} — measured ${c.value.toFixed(1)} ${c.unit}, budget ${c.kind === 'max' ? '≤' : '≥'} ${c.budget} ${c.unit}${c.note ? ` (${c.note})` : ''}`,
    );

  mkdirSync('dist/bench', { recursive: true });
  const file = `dist/bench/results-${quick ? 'quick' : only ? [...only].join('-') : 'full'}.json`;
  writeFileSync(file, JSON.stringify({ header, seconds: (Date.now() - started) / 1000, results, checks }, null, 2));
  console.log(`\nresults: ${file} (${((Date.now() - started) / 1000).toFixed(0)} s)`);
  console.log(`${checks.length - missed.length} passed, ${missed.length} failed`);
  return missed.length === 0 ? 0 : 1;
}

const stop = () => void stopEverything().finally(() => process.exit(130));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
main()
  .then((code) => stopEverything().then(() => process.exit(code)))
  .catch((error: unknown) => {
    console.error(error);
    void stopEverything().finally(() => process.exit(1));
  });
