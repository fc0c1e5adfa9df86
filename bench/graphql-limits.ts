import { loginFragmentChain } from '../server/src/test-support/graphql-abuse';
import { check, fixed, median, percentile, since, type Check, type SuiteResult } from './lib/report';
import { startServer, stopServer, type PostgresTarget, type ServerProcess } from './lib/servers';

/**
 * The GraphQL door under the abusive document (contracts/schema.graphql, LIMITS): a chain of
 * {@link LINKS} fragments each spreading the next twice under the public `logIn`, sent without a token.
 * Before the limits were linear, 20 links took about a second and 30 links never finished, and
 * `/healthz` stopped answering. Measured on the real server in its own process, over loopback:
 *
 * - the time to refuse one such document (sequential requests, after a warm-up);
 * - `/healthz` latency, one request after another, alone and then while {@link CONCURRENT} chain
 *   requests are in flight at every moment (each worker sends the next as soon as the last is answered).
 *
 * The refusal comes before identity and before the database, so the database does not matter: the
 * runner's shared server in quick mode, else one of its own on PGlite.
 */
const LINKS = 30;
const CONCURRENT = 4;
const TENANT = 'backoffice';

interface Timed {
  status: number;
  ms: number;
}

async function timed(url: string, init?: RequestInit): Promise<Timed> {
  const started = performance.now();
  try {
    const response = await fetch(url, { ...init, signal: AbortSignal.timeout(30_000) });
    await response.arrayBuffer();
    return { status: response.status, ms: since(started) };
  } catch {
    // No answer within 30 s (or none at all): a failure, timed as long as it was waited for.
    return { status: 0, ms: since(started) };
  }
}

const row = (what: string, samples: Timed[], expected: number) => [
  what,
  String(samples.length),
  fixed(median(samples.map((s) => s.ms)), 1),
  fixed(
    percentile(
      samples.map((s) => s.ms),
      95,
    ),
    1,
  ),
  fixed(Math.max(...samples.map((s) => s.ms)), 1),
  String(samples.filter((s) => s.status !== expected).length),
];

export async function graphqlLimitsBench(options: {
  quick: boolean;
  budgets: { chainRefusalP95Ms: number };
  shared?: PostgresTarget;
}): Promise<SuiteResult> {
  let server: ServerProcess;
  let release: () => Promise<void>;
  if (options.shared) {
    server = options.shared.server;
    release = async () => undefined;
  } else {
    const own = await startServer('pglite://memory');
    server = own;
    release = () => stopServer(own);
  }
  const sequential = options.quick ? 40 : 200;
  const seconds = options.quick ? 3 : 10;
  const chain: RequestInit = {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json' },
    body: JSON.stringify({ query: loginFragmentChain(LINKS) }),
  };
  const graphql = `${server.base}/${TENANT}/graphql`;
  const healthz = `${server.base}/healthz`;
  try {
    for (let i = 0; i < 10; i += 1) {
      await timed(graphql, chain);
      await timed(healthz);
    }

    const refusals: Timed[] = [];
    for (let i = 0; i < sequential; i += 1) refusals.push(await timed(graphql, chain));

    const healthAlone: Timed[] = [];
    for (let i = 0; i < sequential; i += 1) healthAlone.push(await timed(healthz));

    const underLoad: Timed[] = [];
    const chainsUnderLoad: Timed[] = [];
    let running = true;
    const workers = Array.from({ length: CONCURRENT }, async () => {
      while (running) chainsUnderLoad.push(await timed(graphql, chain));
    });
    const until = performance.now() + seconds * 1000;
    while (performance.now() < until) underLoad.push(await timed(healthz));
    running = false;
    await Promise.all(workers);

    const table = [
      ['measure', 'requests', 'p50 ms', 'p95 ms', 'max ms', 'unexpected status'],
      row(`${LINKS}-link chain under logIn, no token → 400 (one at a time)`, refusals, 400),
      row('GET /healthz alone', healthAlone, 200),
      row(`GET /healthz while ${CONCURRENT} chains are in flight`, underLoad, 200),
      row(`${LINKS}-link chain, ${CONCURRENT} at once (during the /healthz run)`, chainsUnderLoad, 400),
    ];
    const p95 = percentile(
      refusals.map((s) => s.ms),
      95,
    );
    const checks: Check[] = [
      check(
        `graphql: ${LINKS}-link fragment chain refused without a token, p95`,
        p95,
        options.budgets.chainRefusalP95Ms,
        'ms',
      ),
      check(
        `graphql: ${LINKS}-link chain answers other than 400`,
        [...refusals, ...chainsUnderLoad].filter((s) => s.status !== 400).length,
        0,
        'req',
      ),
      check(
        `graphql: /healthz answers other than 200 while ${CONCURRENT} chains are in flight`,
        underLoad.filter((s) => s.status !== 200).length,
        0,
        'req',
      ),
    ];
    return {
      suite: 'graphql',
      table,
      checks,
      data: {
        links: LINKS,
        concurrent: CONCURRENT,
        refusalsMs: refusals.map((s) => s.ms),
        healthAloneMs: healthAlone.map((s) => s.ms),
        healthUnderLoadMs: underLoad.map((s) => s.ms),
        chainsUnderLoad: chainsUnderLoad.length,
      },
      notes: [
        `server in its own process (NODE_ENV=production, LOG_LEVEL=warn), ${options.shared ? 'the runner’s shared PostgreSQL server' : 'PGlite, unseeded (the refusal comes before the path’s tenant)'}; fetch over loopback; ${sequential} sequential requests per row, /healthz under load for ${seconds} s`,
      ],
    };
  } finally {
    await release();
  }
}
