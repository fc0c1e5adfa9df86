import { timingSafeEqual } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type pg from 'pg';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { SignInResult, Telemetry } from '../base/telemetry';

/**
 * `GET /metrics` in the Prometheus text format (docs/operations.md, Metrics): request durations per
 * route and status, the PostgreSQL pool, open sockets, sign-ins, refreshes and token reuse, and
 * Node's own process metrics. One registry per app, so several apps in one process (tests) keep
 * their counts apart.
 *
 * Every caller needs `Authorization: Bearer <METRICS_TOKEN>`, wherever it connects from: behind a
 * reverse proxy on the same host every request arrives from loopback, so the address proves nothing.
 * Without METRICS_TOKEN nobody is answered, unless METRICS_OPEN opened them on purpose
 * (server/src/base/config.ts `metricsOpen`).
 */
export interface Metrics {
  telemetry: Telemetry;
  /** Gauges read at scrape time: open sockets and the pool, once they exist. */
  watch(sources: { sockets?: () => number; pool?: pg.Pool }): void;
}

export const METRICS_ROUTE = '/metrics';

/** Operations of contracts/openapi.yaml that work through many rows, counted apart. */
const BULK_OPERATIONS = new Set([
  'sheetOrders',
  'sheetAttendances',
  'sheetInstanceLogs',
  'sheetReasons',
  'tenantSyncAnalytics',
  'tenantGenerateCampaignStatusWebhook',
  'instanceSyncMessages',
]);

/** Times each checkout of a pool connection (Kysely asks with the promise form of `connect`). */
function timeConnections(pool: pg.Pool, observe: (seconds: number) => void): void {
  const connect = pool.connect.bind(pool) as () => Promise<pg.PoolClient>;
  const timed = async (): Promise<pg.PoolClient> => {
    const started = performance.now();
    const client = await connect();
    observe((performance.now() - started) / 1000);
    return client;
  };
  pool.connect = ((callback?: unknown) =>
    callback === undefined ? timed() : (connect as (cb: unknown) => void)(callback)) as typeof pool.connect;
}

function tokenMatches(header: string | undefined, token: string): boolean {
  const given = Buffer.from(header?.startsWith('Bearer ') ? header.slice('Bearer '.length) : '');
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export interface MetricsAccess {
  /** METRICS_TOKEN: the bearer token every scrape sends. */
  metricsToken: string | undefined;
  /** METRICS_OPEN: answer without the token. */
  metricsOpen: boolean;
}

/** Whether a request may read the metrics: the token, or metrics opened on purpose. */
export function mayScrape(request: FastifyRequest, access: MetricsAccess): boolean {
  if (access.metricsOpen) return true;
  return access.metricsToken !== undefined && tokenMatches(request.headers.authorization, access.metricsToken);
}

export function registerMetrics(app: FastifyInstance, options: MetricsAccess): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });

  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP requests by method, route (as declared, not as sent) and status code',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const signIns = new Counter({
    name: 'auth_sign_ins_total',
    help: 'Sign-ins (REST and GraphQL) by result',
    labelNames: ['result'] as const,
    registers: [registry],
  });
  const refreshes = new Counter({
    name: 'auth_refreshes_total',
    help: 'Token refreshes by result',
    labelNames: ['result'] as const,
    registers: [registry],
  });
  const reuse = new Counter({
    name: 'auth_token_reuse_detections_total',
    help: 'Rotated-out tokens used after their grace window (their session was revoked)',
    registers: [registry],
  });
  let sockets: (() => number) | undefined;
  let pool: pg.Pool | undefined;
  new Gauge({
    name: 'socket_connections_open',
    help: 'Open WebSocket connections',
    registers: [registry],
    collect() {
      this.set(sockets?.() ?? 0);
    },
  });
  new Gauge({
    name: 'db_pool_connections',
    help: 'PostgreSQL pool connections by state (absent on the embedded database)',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      if (!pool) return;
      this.set({ state: 'total' }, pool.totalCount);
      this.set({ state: 'idle' }, pool.idleCount);
      this.set({ state: 'in_use' }, pool.totalCount - pool.idleCount);
    },
  });
  new Gauge({
    name: 'db_pool_waiting_requests',
    help: 'Queries waiting for a free PostgreSQL pool connection',
    registers: [registry],
    collect() {
      if (pool) this.set(pool.waitingCount);
    },
  });

  const bulk = new Counter({
    name: 'bulk_operations_total',
    help: 'Operations that work through many rows (sheets, analytics sync, webhook generation, message sync) by operation and outcome',
    labelNames: ['operation', 'outcome'] as const,
    registers: [registry],
  });
  const poolWait = new Histogram({
    name: 'db_pool_wait_seconds',
    help: 'Time a query waited for a PostgreSQL pool connection',
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });

  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    const operationId = (request.routeOptions.schema as { operationId?: string } | undefined)?.operationId;
    if (operationId !== undefined && BULK_OPERATIONS.has(operationId)) {
      const outcome = reply.statusCode < 400 ? 'ok' : reply.statusCode < 500 ? 'refused' : 'failed';
      bulk.inc({ operation: operationId, outcome });
    }
    duration.observe(
      { method: request.method, route, status_code: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
  });

  app.get(METRICS_ROUTE, async (request, reply) => {
    if (!mayScrape(request, options)) {
      return reply.code(403).send({ message: 'Metrics answer only with the METRICS_TOKEN bearer token' });
    }
    return reply
      .header('content-type', registry.contentType)
      .header('cache-control', 'no-store')
      .send(await registry.metrics());
  });

  return {
    telemetry: {
      signIn: (result: SignInResult) => signIns.inc({ result }),
      refresh: (result) => refreshes.inc({ result }),
      reuseDetected: () => reuse.inc(),
    },
    watch(sources) {
      sockets = sources.sockets ?? sockets;
      if (sources.pool && sources.pool !== pool) {
        pool = sources.pool;
        timeConnections(pool, (seconds) => poolWait.observe(seconds));
      }
    },
  };
}
