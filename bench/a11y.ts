import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { check, fixed, type Check, type SuiteResult } from './lib/report';
import { DEMO_PASSWORD } from '../server/src/tooling/seed';
import { freshSchema, startPostgres, startServer, stopServer } from './lib/servers';
import { CHROMIUM } from './page-load-browser';
import { chromiumVersion, lighthouseAccessibility, type LighthouseAccessibility } from './page-load-lighthouse';

export interface A11yBudgets {
  /** Lighthouse's accessibility score on every page and visitor: at least this. */
  accessibilityMin: number;
}

/**
 * The visitors: the `preferences` key (src/machines/preferences/preferences.machine.ts) sets theme and
 * language; Lighthouse's mobile profile (412 px: the phone layout, tables as cards) and its desktop one.
 */
const VISITORS = [
  { name: 'pt-BR light mobile', preferences: { theme: 'light', locale: 'pt-BR' }, desktop: false },
  { name: 'en dark mobile', preferences: { theme: 'dark', locale: 'en' }, desktop: false },
  { name: 'pt-BR light desktop', preferences: { theme: 'light', locale: 'pt-BR' }, desktop: true },
  { name: 'en dark desktop', preferences: { theme: 'dark', locale: 'en' }, desktop: true },
] as const;

/** The pages: the sign-in page signed out, home and the users list signed in. */
const PAGES = [
  { name: 'sign-in', path: '/backoffice/login', signedIn: false },
  { name: 'home', path: '/backoffice/', signedIn: true },
  { name: 'users list', path: '/backoffice/users', signedIn: true },
] as const;

/**
 * Lighthouse accessibility (`npm run bench:a11y`, or `--only a11y`; in the full bench too): its
 * mobile and desktop profiles, accessibility category only, on the panel's production build against the
 * real server on PostgreSQL (seeded demo data), one run per page and visitor in a new Chromium with
 * an empty profile (the score is not a timing: one run says it). The visitor's theme and language
 * are put into localStorage first; for a signed-in page the demo admin then signs in through the
 * sign-in form in that profile, so the visit finds the session the panel stored
 * (src/machines/session/session-storage.ts). Every failing audit is printed with the elements it names.
 */
export async function a11yBench(options: { build: boolean; budgets: A11yBudgets }): Promise<SuiteResult> {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing (apt-get install -y chromium)`);
  if (options.build || !existsSync('dist/web/index.html')) {
    const built = spawnSync('npx', ['rsbuild', 'build'], { stdio: ['ignore', 'ignore', 'inherit'] });
    if (built.status !== 0) throw new Error('rsbuild build failed');
  }
  const cluster = await startPostgres();
  let server: Awaited<ReturnType<typeof startServer>> | undefined;
  try {
    server = await startServer(await freshSchema(cluster.url, 'bench_a11y'), { seed: true });
    const table = [['page', ...VISITORS.map((v) => v.name), 'failing audits']];
    const checks: Check[] = [];
    const notes: string[] = [];
    const failures: string[] = [];
    const data: Record<string, Record<string, LighthouseAccessibility>> = {};
    let version = '?';
    for (const page of PAGES) {
      const scores: string[] = [];
      const failing = new Set<string>();
      for (const visitor of VISITORS) {
        let result: LighthouseAccessibility = { score: Number.NaN, failing: [], version: '' };
        try {
          result = await lighthouseAccessibility(
            `${server.base}${page.path}`,
            page.path,
            {
              origin: server.base,
              entries: { preferences: JSON.stringify(visitor.preferences) },
              ...(page.signedIn ? { signIn: { email: 'admin@demo.local', password: DEMO_PASSWORD } } : {}),
            },
            visitor.desktop,
          );
        } catch (error) {
          failures.push(
            `${page.name}, ${visitor.name}: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`,
          );
        }
        (data[page.name] ??= {})[visitor.name] = result;
        version = result.version || version;
        scores.push(fixed(result.score, 0));
        for (const audit of result.failing) {
          failing.add(audit.split(':')[0] ?? audit);
          notes.push(`${page.name}, ${visitor.name}: ${audit}`);
        }
        checks.push(
          check(
            `a11y: Lighthouse accessibility, ${page.name}, ${visitor.name}`,
            result.score,
            options.budgets.accessibilityMin,
            'points',
            'min',
          ),
        );
      }
      table.push([page.name, ...scores, [...failing].join(', ') || 'none']);
    }
    notes.push(
      `${chromiumVersion()}, Lighthouse ${version}, accessibility category, mobile (412 px) and desktop (1350 px) profiles, one run per page and visitor`,
      ...failures.map((f) => `FAILED ${f}`),
    );
    return { suite: 'a11y', table, checks, data, notes };
  } finally {
    if (server) await stopServer(server);
    await cluster.stop();
  }
}
