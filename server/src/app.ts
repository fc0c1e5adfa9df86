import { Ajv2020 } from 'ajv/dist/2020.js';
import type { DataValidateFunction } from 'ajv/dist/types/index.js';
import addFormats from 'ajv-formats';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import openapiGlue from 'fastify-openapi-glue';
import type { Kysely } from 'kysely';
import { fileURLToPath } from 'node:url';
import type pg from 'pg';
import { TokenService } from './auth/tokens';
import { initTotpEncryption } from './auth/totp-secrets';
import type { ServerConfig } from './config';
import type { Database } from './db/schema';
import { HttpError, unavailable } from './errors';
import { isDatabaseUnavailable } from './db/unavailable';
import { GRAPHQL_ROUTE, registerGraphql } from './graphql';
import { EventBus } from './events';
import { registerApiDocs } from './plugins/api-docs';
import { registerCompression } from './plugins/compression';
import { authenticate, routeAccess, type AuthContext } from './plugins/auth';
import { startEventRelay, type EventRelayHandle } from './plugins/event-relay';
import { registerFaults, type FaultInjector } from './plugins/faults';
import { NUL_MESSAGE, nulIn } from './plugins/nul';
import { securityHeaders } from './plugins/security-headers';
import { STATIC_PREFIX } from './plugins/static';
import { registerSocket, type SocketServer } from './plugins/socket';
import { registerMetrics } from './plugins/metrics';
import { bodyPermissionChecks, createOperations, type Operations } from './rest';
import { restAnswerOf } from './rest/domain-errors';
import { createServices } from './services';
import { asDomainError } from './shared/domain-error';
import { CONTRACT_RULES } from './users/rules';

export const OPENAPI_PATH = fileURLToPath(new URL('../../contracts/openapi.yaml', import.meta.url));

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthContext | null;
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
}

/**
 * JSON-Schema 2020-12 (OpenAPI 3.1) validation; unknown properties are errors, never dropped.
 * Query, path and header values arrive as text, so those parts coerce (`?page=2` is the integer 2);
 * a JSON body never does: `{"name": 12345}` or `{"name": ["x"]}` is a wrong type, not the string "12345".
 */
function createValidator(coerce: boolean) {
  const ajv = new Ajv2020({
    removeAdditional: false,
    useDefaults: true,
    coerceTypes: coerce ? 'array' : false,
    allErrors: true,
    strict: false,
  });
  addFormats.default(ajv);
  // `x-rule: <name>` (contracts/openapi.yaml conventions): a value rule of the services, applied here
  // with the schema so one answer names every bad field. An unknown rule name fails at start.
  ajv.addKeyword({
    keyword: 'x-rule',
    type: 'string',
    schemaType: 'string',
    errors: true,
    compile(rule: string) {
      const refusal = CONTRACT_RULES[rule];
      if (!refusal) throw new Error(`contracts/openapi.yaml: unknown x-rule "${rule}"`);
      const validate: DataValidateFunction = (value: string) => {
        const why = refusal(value);
        validate.errors = why === null ? undefined : [{ keyword: 'x-rule', message: why, params: { rule } }];
        return why === null;
      };
      return validate;
    },
  });
  return ajv;
}

function fieldOf(error: NonNullable<FastifyError['validation']>[number], context: string | undefined): string {
  const part = context === 'querystring' ? 'query' : context === 'params' ? 'path' : (context ?? 'body');
  const params = error.params as { missingProperty?: string; additionalProperty?: string };
  const path = error.instancePath.replace(/^\//, '').replace(/\//g, '.');
  const leaf = params.missingProperty ?? params.additionalProperty;
  return `${part}/${[path, leaf].filter(Boolean).join('.')}`.replace(/\/$/, '');
}

type ValidationErrors = NonNullable<FastifyError['validation']>;

/**
 * A body that is one of several forms (`oneOf`: PUT /api/users/{id} takes the whole user, or only its
 * e-mail, or only its name) is judged by the form it is closest to — the one it breaks fewest
 * structural rules of (missing or unknown properties) — instead of listing what every form would say.
 */
function closestForm(errors: ValidationErrors): ValidationErrors {
  const formOf = (e: ValidationErrors[number]) => /^#\/oneOf\/(\d+)\//.exec(e.schemaPath)?.[1];
  const forms = new Map<string, ValidationErrors>();
  for (const e of errors) {
    const form = formOf(e);
    if (form !== undefined) forms.set(form, [...(forms.get(form) ?? []), e]);
  }
  if (forms.size === 0) return errors;
  const structural = (list: ValidationErrors) =>
    list.filter((e) => e.keyword === 'required' || e.keyword === 'additionalProperties').length;
  const [closest] = [...forms.values()].sort((a, b) => structural(a) - structural(b) || a.length - b.length);
  return [
    ...errors.filter((e) => formOf(e) === undefined && !(e.keyword === 'oneOf' && e.schemaPath === '#/oneOf')),
    ...(closest ?? []),
  ];
}

function handleError(error: FastifyError | HttpError, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof HttpError) {
    return reply.code(error.statusCode).headers(error.headers).send(error.body);
  }
  // A refusal of a domain service, or a unique index that caught a race: the contract's answer.
  const domain = asDomainError(error);
  if (domain) {
    const answer = restAnswerOf(domain, request);
    return reply.code(answer.status).headers(answer.headers).send(answer.body);
  }
  if (error.validation) {
    // One error per bad field, its first (a short password is refused for its length, not also its strength).
    const errors = new Map<string, string>();
    for (const v of closestForm(error.validation)) {
      const field = fieldOf(v, error.validationContext);
      if (!errors.has(field))
        errors.set(
          field,
          v.params && 'additionalProperty' in v.params ? 'is not allowed' : (v.message ?? 'is invalid'),
        );
    }
    return reply
      .code(400)
      .send({ message: 'Validation failed', errors: [...errors].map(([field, message]) => ({ field, message })) });
  }
  if (isDatabaseUnavailable(error)) {
    request.log.warn({ err: error }, 'database unavailable');
    const answer = unavailable('Database unavailable: the request was not completed; retry shortly');
    return reply.code(503).headers(answer.headers).send(answer.body);
  }
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    // Fastify's own 4xx (bad JSON, unsupported media type, body too large): the contract's 400 shape.
    return reply
      .code(status === 413 || status === 415 ? status : 400)
      .send({ message: 'Validation failed', errors: [{ field: 'body', message: error.message }] });
  }
  request.log.error({ err: error }, 'unhandled error');
  return reply.code(500).send({ message: 'Internal server error' });
}

/** A request id worth keeping: 1–128 letters, digits and `-_.:@/+=`, nothing that could forge a log line. */
export function requestIdFrom(header: string | string[] | undefined): string | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  return value !== undefined && /^[A-Za-z0-9._:@/+=-]{1,128}$/.test(value) ? value : undefined;
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
  const fastify = Fastify({
    logger: process.env.LOG_LEVEL === 'silent' ? false : { level: process.env.LOG_LEVEL ?? 'info' },
    // An incoming X-Request-Id (a proxy's or a client's) is kept when it is a plain token, so one id
    // follows a request through the proxy's logs and ours; otherwise a new one. Either is sent back.
    genReqId: (request) => requestIdFrom(request.headers['x-request-id']) ?? crypto.randomUUID(),
    requestIdHeader: false,
    // A hop count as Fastify applies it: the nearest `n` addresses are proxies.
    trustProxy:
      typeof config.trustProxy === 'number'
        ? (_address: string, hop: number) => hop < (config.trustProxy as number)
        : config.trustProxy,
    bodyLimit: 1024 * 1024,
    return503OnClosing: true,
    forceCloseConnections: false,
  });
  fastify.setValidatorCompiler(({ schema, httpPart }) => (httpPart === 'body' ? bodies : textParts).compile(schema));
  fastify.setErrorHandler(handleError);
  fastify.setNotFoundHandler((_request, reply) => reply.code(404).send({ message: 'Not found' }));
  fastify.decorateRequest('auth', null);

  // external
  // The SPA calls the public-IP service itself (docs/product.md, Sessions): its origin, and only it, joins connect-src.
  securityHeaders(fastify, { connectSrc: originOf(config.ipLookupUrl) });
  // Before every route: @fastify/compress sets a route up when the route is added.
  await registerCompression(fastify, { precompressedPrefixes: [STATIC_PREFIX] });
  const metrics = registerMetrics(fastify, { metricsToken: config.metricsToken });
  if (deps.pg !== undefined && typeof deps.pg !== 'string') metrics.watch({ pool: deps.pg });
  // app
  const tokens = new TokenService(db, config, metrics.telemetry);
  await tokens.init();
  // After the migrations, before serving: the TOTP key, and any plain secret encrypted under it.
  await initTotpEncryption(db, config, fastify.log);
  // Identity and the route's permission come before anything is read from the body (docs/architecture.md:
  // 401 → 403 → 400): onRequest runs before the body is parsed and validated, so a bad token is a 401
  // and a missing permission a 403 whatever the body holds.
  fastify.addHook('onRequest', async (request) => {
    // openapi-glue copies the operation's x- extensions onto the route schema.
    const access = routeAccess(request.routeOptions.schema);
    if (access === null) return;
    request.auth = await authenticate(request, { db, tokens, access });
  });
  // After authentication (hooks run in order): a faulted request is one the server would have run.
  const faults = config.faultInjection && !config.production ? registerFaults(fastify, config.faults) : undefined;

  // routes
  const events = new EventBus();
  const relay =
    deps.pg === undefined
      ? undefined
      : await startEventRelay({ pg: config.databaseListenUrl ?? deps.pg, events, tokens, log: fastify.log });
  if (relay) fastify.addHook('onClose', async () => relay.close());
  const services = createServices({
    db,
    config,
    tokens,
    events,
    ...(deps.hashPassword ? { hashPassword: deps.hashPassword } : {}),
    telemetry: metrics.telemetry,
  });
  const operations = { ...createOperations({ db, config, tokens, events, services }), ...deps.operations };
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

  return { fastify, tokens, events, sockets, relay, faults };
}
