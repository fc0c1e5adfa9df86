import autocannon from 'autocannon';
import { check, fixed, type Check, type SuiteResult } from './lib/report';
import {
  loginOn,
  serverOnPostgres,
  startBare,
  startServer,
  stopServer,
  type PostgresTarget,
  type ServerProcess,
} from './lib/servers';
import { DEMO_PASSWORD } from '../server/src/tooling/seed';

/**
 * The API under load with autocannon, the server in its own process and the load
 * generator in this one, on loopback. Every figure is also given as a ratio to a bare Fastify route
 * (bench/bare-server.ts) measured in the same run, before and after the real endpoints (mean of both),
 * so a loaded machine shifts both and the ratio stays readable.
 */
interface Target {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
  auth: boolean;
}

const USERS_QUERY =
  'query users { users { id name username email image isConnected role { id name display_name } userDepartment { id name activated } } }';

function targets(): Target[] {
  return [
    {
      name: 'POST /api/auth/login (argon2id)',
      method: 'POST',
      path: '/api/auth/login',
      body: { email: 'admin@demo.local', password: DEMO_PASSWORD, ip: null },
      auth: false,
    },
    { name: 'GET /api/users', method: 'GET', path: '/api/users', auth: true },
    {
      name: 'POST /api/tenant/paginated (search)',
      method: 'POST',
      path: '/api/tenant/paginated',
      body: { pagination_page: 1, pagination_limit: 10, search: 'farm', sort_name: 'name', sort_type: 'ASC' },
      auth: true,
    },
    {
      name: 'GraphQL users',
      method: 'POST',
      path: '/backoffice/graphql',
      body: { query: USERS_QUERY, operationName: 'users' },
      auth: true,
    },
  ];
}

interface Run {
  target: string;
  database: string;
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  errors: number;
}

async function load(
  base: string,
  target: Pick<Target, 'method' | 'path' | 'body'>,
  token: string | undefined,
  seconds: number,
  connections: number,
) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  const result = await autocannon({
    url: `${base}${target.path}`,
    method: target.method,
    headers,
    ...(target.body === undefined ? {} : { body: JSON.stringify(target.body) }),
    connections,
    duration: seconds,
    timeout: 10,
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result.requests.total,
    errors: result.errors + result.timeouts + result.non2xx,
  };
}

export async function apiBench(options: {
  quick: boolean;
  maxErrors: number;
  shared?: PostgresTarget;
}): Promise<SuiteResult> {
  const seconds = options.quick ? 2 : 10;
  const connections = 10;
  const runs: Run[] = [];
  const checks: Check[] = [];
  const notes: string[] = [
    `${seconds} s per run, ${connections} connections, pipelining 1, autocannon 9.0.0 in the bench process; server in its own process (NODE_ENV=production, LOG_LEVEL=warn)`,
  ];
  // Quick: PostgreSQL only, on the runner's shared server; full: PGlite and PostgreSQL, servers of their own.
  const databases = options.shared ? ['postgres'] : ['pglite', 'postgres'];

  for (const database of databases) {
    let server: ServerProcess;
    let release: () => Promise<void>;
    if (database === 'postgres') {
      ({ server, release } = await serverOnPostgres('bench_api', options.shared));
    } else {
      const own = await startServer('pglite://memory', { seed: true });
      server = own;
      release = () => stopServer(own);
    }
    const bare = await startBare();
    try {
      const { token } = await loginOn(server.base);
      const measured: Run[] = [];
      const bareBefore = await load(bare.base, { method: 'GET', path: '/bare' }, undefined, seconds, connections);
      // The login runs go last but one: each success creates a token family, the other runs don't care.
      const list = targets();
      const ordered = options.quick
        ? list.filter((t) => !t.name.includes('login'))
        : [...list.slice(1), list[0] as Target];
      for (const target of ordered) {
        const r = await load(server.base, target, target.auth ? token : undefined, seconds, connections);
        measured.push({ target: target.name, database, ...r });
      }
      const bareAfter = await load(bare.base, { method: 'GET', path: '/bare' }, undefined, seconds, connections);
      const baseline: Run = {
        target: 'bare Fastify GET (baseline)',
        database,
        rps: (bareBefore.rps + bareAfter.rps) / 2,
        p50: (bareBefore.p50 + bareAfter.p50) / 2,
        p99: (bareBefore.p99 + bareAfter.p99) / 2,
        requests: bareBefore.requests + bareAfter.requests,
        errors: bareBefore.errors + bareAfter.errors,
      };
      runs.push(baseline, ...measured);
      for (const r of measured)
        checks.push(check(`api: ${r.target} on ${database}: failed requests`, r.errors, options.maxErrors, 'req'));
    } finally {
      await bare.stop();
      await release();
    }
  }

  const table = [
    ['database', 'endpoint', 'req/s', '× bare', 'p50 ms', '× bare', 'p99 ms', '× bare', 'requests', 'errors'],
  ];
  for (const r of runs) {
    const base = runs.find((b) => b.database === r.database && b.target.startsWith('bare'));
    const ratio = (a: number, b: number | undefined) => (b ? fixed(a / b, a / b < 0.1 ? 3 : 2) : '—');
    table.push([
      r.database,
      r.target,
      fixed(r.rps, 0),
      ratio(r.rps, base?.rps),
      fixed(r.p50, 1),
      ratio(r.p50, base?.p50),
      fixed(r.p99, 1),
      ratio(r.p99, base?.p99),
      String(r.requests),
      String(r.errors),
    ]);
  }
  return { suite: 'api', table, checks, data: runs, notes };
}
