import proxyAddr from '@fastify/proxy-addr';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import openapiGlue from 'fastify-openapi-glue';
import type { Kysely } from 'kysely';
import { fileURLToPath } from 'node:url';
import type pg from 'pg';
import { TokenService } from './auth/tokens';
import { initTotpEncryption } from './auth/totp-secrets';
import type { ServerConfig } from './base/config';
import type { Database } from './db/schema';
import { GRAPHQL_ROUTE, registerGraphql } from './graphql';
import { EventBus } from './base/events';
import { registerApiDocs } from './plugins/api-docs';
import { registerCompression } from './plugins/compression';
import { authenticate, restOperationName, routeAccess } from './plugins/auth';
import type { Actor } from './access/caller';
import { startEventRelay, type EventRelayHandle } from './plugins/event-relay';
import { registerFaults, type FaultInjector } from './plugins/faults';
import { NUL_MESSAGE, nulIn } from './plugins/nul';
import { createBackground, type Background } from './base/background';
import { securityHeaders } from './plugins/security-headers';
import { STATIC_PREFIX } from './plugins/static';
import { registerSocket, type SocketServer } from './plugins/socket';
import { registerMetrics } from './plugins/metrics';
import { bodyPermissionChecks, createOperations, type Operations } from './rest';
import { createServices } from './services';
import { createWebhookProgress, type WebhookProgress } from './webhooks/progress';
import { createMailer, type Mailer } from './mail/mailer';
import { registerMailboxPage } from './mail/mailbox-page';
import { createValidator, withDecimalNumbers, handleError } from './app-validation';
import { DomainError } from './base/domain-error';
import { registerBrokenAnswers } from './plugins/broken-answers';
import { registerAuditRecordHeader } from './plugins/audit-record-header';
import { isBroken } from './base/broken-promises';

export const OPENAPI_PATH = fileURLToPath(new URL('../../contracts/openapi.yaml', import.meta.url));

declare module 'fastify' {
  interface FastifyRequest {
    auth: Actor | null;
  }
}

export interface AppDeps {
  db: Kysely<Database>;
  config: ServerConfig;
  /** For tests: replace handlers by operationId. */
  operations?: Partial<Operations>;
  /** For tests that create thousands of users: a cheaper password hash than argon2id's defaults. */
  hashPassword?: (password: string) => Promise<string>;
  /**
   * How mail goes out; omitted: built from the settings (server/src/mail/mailer.ts: SMTP_URL, else a
   * local receiver in development, else none), and closed with the app.
   */
  mailer?: Mailer;
  /**
   * PostgreSQL only (the pool of `openDatabase`, or a connection string): events fan out to the other
   * server processes on the database through LISTEN/NOTIFY. Omitted (PGlite): in-process delivery only.
   */
  pg?: pg.Pool | string;
}

export interface App {
  fastify: FastifyInstance;
  tokens: TokenService;
  events: EventBus;
  sockets: SocketServer;
  /** The LISTEN/NOTIFY relay, when built with `pg`. */
  relay?: EventRelayHandle;
  /** The fault injector, only with FAULT_INJECTION=1 outside production. */
  faults?: FaultInjector;
  /** Work requests started and did not wait for (./base/background.ts); closing waits for it. */
  background: Background;
  /** Webhook run progress on the socket (./webhooks/progress.ts), shared with this process's worker. */
  webhookProgress: WebhookProgress;
  /** How mail goes out; `enabled` false when reset links cannot be sent (the SPA's settings say so). */
  mailer: Mailer;
}

/** A request id worth keeping: 1–128 letters, digits and `-_.:@/+=`, nothing that could forge a log line. */
export function requestIdFrom(header: string | string[] | undefined): string | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  return value !== undefined && /^[A-Za-z0-9._:@/+=-]{1,128}$/.test(value) ? value : undefined;
}

/** Whether the address `hop` steps from the server (0: the connection's peer) is a proxy TRUST_PROXY names. */
export type ProxyTrust = (address: string, hop: number) => boolean;

/**
 * TRUST_PROXY (server/src/base/config.ts) as one function, for Fastify's `request.ip` and for the request
 * id alike. A hop count trusts the nearest `n` addresses, the connection's peer first (Fastify's own
 * reading of a number trusts nobody); a list is compiled as Fastify compiles it. Null: no proxy.
 */
export function proxyTrust(setting: ServerConfig['trustProxy']): ProxyTrust | null {
  if (setting === false) return null;
  if (typeof setting === 'number') return setting > 0 ? (_address, hop) => hop < setting : null;
  return setting.length > 0 ? proxyAddr.compile(setting) : null;
}

/**
 * The request's id: an incoming X-Request-Id only when the connection comes from a trusted proxy (so one
 * id follows a request through the proxy's logs and ours) and it is a plain token; anything else, and
 * anything a client sent straight in, gets a new UUID. The id is stored in the audit log
 * (docs/security.md §3), so a client must not choose it.
 */
export function requestIdOf(
  raw: { headers: Record<string, string | string[] | undefined>; socket?: { remoteAddress?: string } | null },
  trust: ProxyTrust | null,
): string {
  const peer = raw.socket?.remoteAddress;
  const fromProxy = trust !== null && peer !== undefined && trust(peer, 0);
  return (fromProxy ? requestIdFrom(raw.headers['x-request-id']) : undefined) ?? crypto.randomUUID();
}

function originOf(url: string): string[] {
  try {
    return url ? [new URL(url).origin] : [];
  } catch {
    return [];
  }
}

/** Builds the app: plugin order external → app → routes (fastify/demo). */
export async function buildApp(deps: AppDeps): Promise<App> {
  const { db, config } = deps;
  const textParts = createValidator(true);
  const bodies = createValidator(false);
  // One reading of TRUST_PROXY for the client's address and the request id.
  const trust = proxyTrust(config.trustProxy);
  const fastify = Fastify({
    logger: process.env.LOG_LEVEL === 'silent' ? false : { level: process.env.LOG_LEVEL ?? 'info' },
    // A trusted proxy's X-Request-Id, else a new one (requestIdOf); either is sent back.
    genReqId: (request) => requestIdOf(request, trust),
    requestIdHeader: false,
    trustProxy: trust ?? false,
    bodyLimit: 1024 * 1024,
    return503OnClosing: true,
    forceCloseConnections: false,
  });
  fastify.setValidatorCompiler(({ schema, httpPart }) =>
    httpPart === 'body'
      ? bodies.compile(schema)
      : withDecimalNumbers(schema as Parameters<typeof withDecimalNumbers>[0], textParts.compile(schema)),
  );
  fastify.setErrorHandler(handleError);
  fastify.setNotFoundHandler((_request, reply) => reply.code(404).send({ message: 'Not found' }));
  fastify.decorateRequest('auth', null);

  // external
  // The SPA calls the public-IP service itself (docs/product.md, Sessions): its origin, and only it, joins connect-src.
  await securityHeaders(fastify, { connectSrc: originOf(config.ipLookupUrl) });
  // Only for the broken variants of tests (server/src/base/broken-promises.ts): before compression, to read the JSON.
  registerBrokenAnswers(fastify);
  // Before every route: @fastify/compress sets a route up when the route is added.
  await registerCompression(fastify, { precompressedPrefixes: [STATIC_PREFIX] });
  const metrics = registerMetrics(fastify, {
    metricsToken: config.metricsToken,
    metricsOpen: config.metricsOpen,
  });
  if (deps.pg !== undefined && typeof deps.pg !== 'string') metrics.watch({ pool: deps.pg });
  // app
  const tokens = new TokenService(db, config, metrics.telemetry);
  await tokens.init();
  // After the migrations, before serving: the TOTP key, and any plain secret encrypted under it.
  await initTotpEncryption(db, config, fastify.log);
  const events = new EventBus();
  const mailer = deps.mailer ?? (await createMailer(config));
  const background = createBackground();
  // A link being issued after its answer is finished, and sent, before the mailer and the database close.
  fastify.addHook('onClose', async () => {
    await background.settled();
    if (!deps.mailer) await mailer.close();
  });
  // Development only: what the local receiver got (never with NODE_ENV=production, ./mail/mailer.ts).
  if (mailer.mailbox && !config.production) registerMailboxPage(fastify, mailer.mailbox);
  const webhookProgress = createWebhookProgress({
    db,
    events,
    backofficeTenant: config.backofficeTenant,
    log: fastify.log,
  });
  fastify.addHook('onClose', async () => webhookProgress.flush());
  // The domain services (server/src/services.ts): every operation checks its own policy (server/src/access/).
  const services = createServices({
    webhookProgress,
    db,
    config,
    tokens,
    events,
    ...(deps.hashPassword ? { hashPassword: deps.hashPassword } : {}),
    telemetry: metrics.telemetry,
    mailer,
    log: fastify.log,
    background,
  });
  // Before every other request hook, so the whole request runs in its scope of audit records.
  registerAuditRecordHeader(fastify);
  // Identity and the route's permission come before anything is read from the body (docs/architecture.md:
  // 401 → 403 → 400): onRequest runs before the body is parsed and validated, so a bad token is a 401
  // and a missing permission a 403 whatever the body holds.
  fastify.addHook('onRequest', async (request) => {
    // openapi-glue copies the operation's x- extensions onto the route schema.
    const access = routeAccess(request.routeOptions.schema);
    if (access === null) return;
    if (isBroken('validation-before-authentication') && request.headers.authorization === undefined) return;
    request.auth = await authenticate(request, { auth: services.auth, access });
  });
  // After authentication (hooks run in order): a faulted request is one the server would have run.
  const faults = config.faultInjection && !config.production ? registerFaults(fastify, config.faults) : undefined;

  // routes
  const relay =
    deps.pg === undefined
      ? undefined
      : await startEventRelay({ pg: config.databaseListenUrl ?? deps.pg, events, tokens, log: fastify.log });
  if (relay) fastify.addHook('onClose', async () => relay.close());
  const operations = { ...createOperations({ db, config, tokens, events, services, faults }), ...deps.operations };
  const bodyChecks = bodyPermissionChecks();
  // Once the body is parsed, before it is validated: what of the permission depends on the body (403),
  // then text holding U+0000 (server/src/plugins/nul.ts) and a missing body (400). The GraphQL route
  // does the same in its own order (server/src/graphql/index.ts).
  fastify.addHook('preValidation', async (request, reply) => {
    if (request.routeOptions.url === GRAPHQL_ROUTE) return undefined;
    const schema = request.routeOptions.schema as { operationId?: string; body?: unknown } | undefined;
    const check =
      schema?.operationId === undefined ? undefined : bodyChecks[schema.operationId as keyof typeof bodyChecks];
    check?.(request);
    const found = nulIn(request);
    if (found !== null) {
      return reply.code(400).send({
        message: 'Validation failed',
        errors: [{ field: `${found.part}/${found.where}`.replace(/\/$/, ''), message: NUL_MESSAGE }],
      });
    }
    // Every request body of the contract is required; with no body at all (no media type either) no
    // body schema applies, so Fastify would hand the handler `undefined`.
    if (schema?.body !== undefined && request.body === undefined) {
      return reply
        .code(400)
        .send({ message: 'Validation failed', errors: [{ field: 'body', message: 'is required' }] });
    }
    return undefined;
  });
  // Every 403 given to a signed-in caller (the route's permission, a body-dependent one, a service's
  // refusal) is recorded as `access.denied` before the error handler answers; never a 401 (no caller).
  fastify.addHook('onError', async (request, _reply, error) => {
    if (!(error instanceof DomainError) || error.kind !== 'forbidden' || !request.auth) return;
    await services.auth.recordDenial(
      request.auth,
      {
        operation: restOperationName(request),
        required: error.details.required ?? [],
        ...(error.message === 'Forbidden' ? {} : { reason: error.message }),
      },
      request.log,
    );
  });
  // Every request body of the contract is JSON. Body schemas are attached per media type
  // (`content['application/json']`), so a body of another type that Fastify CAN parse would reach a
  // handler unvalidated: drop the built-in text/plain parser, so such bodies get 415 like any type
  // without a parser. text/csv is only ever an ANSWER (the sheets); openapi-glue counts response media
  // types as request ones and would warn at every start that no parser exists, so refuse it explicitly.
  fastify.removeContentTypeParser('text/plain');
  fastify.addContentTypeParser('text/csv', (_request, _payload, done) => {
    done(
      Object.assign(new Error('Unsupported Media Type: text/csv request bodies are not accepted'), { statusCode: 415 }),
      undefined,
    );
  });
  await fastify.register(openapiGlue, {
    specification: OPENAPI_PATH,
    // A handler typed for its own operation is a plain Fastify handler at runtime.
    operationResolver: (operationId: string) => {
      const handler = operations[operationId as keyof Operations];
      return handler as unknown as (request: FastifyRequest, reply: FastifyReply) => void;
    },
  });

  registerGraphql(fastify, { db, config, tokens, services });
  registerApiDocs(fastify, { specPath: OPENAPI_PATH });
  const sockets = registerSocket(fastify, { db, tokens, events, config });
  metrics.watch({ sockets: () => sockets.count() });
  // Sockets get a close code on shutdown (1001) instead of a reset.
  fastify.addHook('preClose', async () => sockets.close());
  // An answer still streaming when the server starts closing (a sheet download, slower when
  // compressed) keeps its keep-alive connection once done, and `close` would wait for the client to
  // let go (keepAliveTimeout, 72 s): close idle connections as each answer ends (server/src/shutdown.test.ts).
  let closing = false;
  fastify.addHook('preClose', async () => {
    closing = true;
  });
  fastify.addHook('onResponse', async () => {
    if (closing) setImmediate(() => fastify.server.closeIdleConnections());
  });

  return { fastify, tokens, events, sockets, relay, faults, background, webhookProgress, mailer };
}
