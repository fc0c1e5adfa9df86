import { LOOK_COOKIE } from '../src/domain/look-cookie';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { DEMO_PASSWORD } from '../server/src/tooling/seed';
import { makeTenants, TENANT_COUNT } from './peers/tenants-data.mjs';
import { preparePeer, type PeerPrepared } from './lib/peers';
import type { SuiteResult } from './lib/report';
import { freshSchema, startPostgres, startServer, stopServer } from './lib/servers';
import { serveStatic, type StaticServer } from './lib/static-server';
import { PEERS, benchApps, createTenants, missingScreens, seedUsers } from './page-load-apps';
import { CHROMIUM, measureRounds } from './page-load-browser';
import { chromiumVersion, lighthouseRun } from './page-load-lighthouse';
import type { LighthouseFigures, LighthouseStorage } from './page-load-lighthouse';
import { lighthouseLongTasks, pageLoadReport } from './page-load-report';
import type { PageLoadBudgets } from './page-load-report';

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
 * Then Lighthouse (its default mobile profile, simulated throttling), 3 runs a page, each in a new
 * Chromium (./page-load-lighthouse.ts): the panel's sign-in page for a pt-BR light visitor and an
 * English dark one (the `preferences` key in localStorage, src/machines/preferences/preferences.machine.ts;
 * the panel ignores Accept-Language), and its tenants list signed in — a real sign-in through the server
 * in the same profile first, so the reload starts from the stored session (src/machines/session), with
 * the HTTP cache emptied before Lighthouse's visit; react-admin's sign-in page and its tenants list
 * behind its in-memory sign-in (its localStorage key set the same way) are the reference.
 */

export type { PageLoadBudgets };

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
    // Mail configured, as a deployment that sends reset links has it (server/src/mail/mailer.ts): nothing is
    // sent here (nobody asks for a reset), but without it the sign-in page shows the "reset by e-mail is
    // unavailable" notice once its status is in, a late paragraph that becomes the page's LCP.
    server = await startServer(url, { seed: true, env: { SMTP_URL: 'smtp://127.0.0.1:9' } });
    await seedUsers(url);
    await createTenants(server.base);
    for (const p of prepared) statics.push(await serveStatic(p.dist));
    const [raServer, refineServer] = statics;
    if (!raServer || !refineServer) throw new Error('peer servers missing');
    notes.push(
      `peers' files with brotli q11: react-admin ${(raServer.brotliBytes / 1000).toFixed(0)} KB, refine ${(refineServer.brotliBytes / 1000).toFixed(0)} KB`,
    );

    const apps = benchApps(server.base, raServer.base, refineServer.base);

    const { results, failures } = await measureRounds(apps, runs, expectedNames, server);

    // Lighthouse is slow: full runs only, 3 per page, medians.
    const lighthouseRuns = options.quick ? 0 : 3;
    const lh = new Map<string, LighthouseFigures[]>();
    const signedIn = { email: 'admin@demo.local', password: DEMO_PASSWORD };
    const lighthouseTargets: { slot: string; url: string; storage?: LighthouseStorage }[] = [
      { slot: 'ours login pt-BR light', url: `${server.base}/backoffice/login` },
      {
        slot: 'ours login en dark',
        url: `${server.base}/backoffice/login`,
        // A returning visitor who chose them: the preferences, and the look cookie the panel keeps with them.
        storage: {
          origin: server.base,
          entries: { preferences: JSON.stringify({ theme: 'dark', locale: 'en' }) },
          cookies: { [LOOK_COOKIE]: 'en.dark' },
        },
      },
      {
        // A real sign-in through the server in the same profile first: the session the panel stores.
        slot: 'ours tenants signed in',
        url: `${server.base}/backoffice/tenants?limit=${TENANT_COUNT}`,
        storage: { origin: server.base, entries: {}, signIn: signedIn, expectPath: '/backoffice/tenants' },
      },
      { slot: 'react-admin login', url: `${raServer.base}/#/login` },
      {
        // react-admin's in-memory sign-in keeps the user under this key (bench/peers/react-admin/src/main.jsx).
        slot: 'react-admin tenants signed in',
        url: `${raServer.base}/#/tenants`,
        storage: { origin: raServer.base, entries: { 'bench-peer-user': 'bench@example.com' }, expectPath: '/tenants' },
      },
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
      console.log(`  Lighthouse round ${round + 1} of ${lighthouseRuns} done`);
    }
    const { table, checks } = pageLoadReport({ runs, budgets: options.budgets, results, lh, lighthouseRuns });

    notes.push(
      `${chromiumVersion()}, a new browser per run (2 s idle on about:blank first), ${runs} runs per app and CPU rate, interleaved; viewport 1366×768; medians`,
      `ours: the real server on PostgreSQL with argon2id sign-in, ${server.base}/backoffice/login?to=/tenants?limit=${TENANT_COUNT}; react-admin and refine: static dist/ with an in-memory fake sign-in and the same ${TENANT_COUNT} tenants (bench/peers/tenants-data.mjs)`,
      '"ours vs react-admin" is react-admin\'s figure ÷ ours (for a score ours ÷ react-admin\'s): above 1× ours is faster, smaller or better',
      options.quick
        ? 'quick: 3 runs, no Lighthouse'
        : `Lighthouse ${lighthouseRuns} runs per page (default mobile profile, simulated throttling), medians; the signed-in pages with the session in localStorage and an emptied HTTP cache`,
      ...lighthouseLongTasks(lh),
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
