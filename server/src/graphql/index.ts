import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
// Only types of graphql-js here: yoga may load another copy of the module (ESM vs CJS under vitest), and
// schemas must come from that copy (createSchema).
import type { FieldNode, GraphQLSchema } from 'graphql';
import { createSchema, createYoga, type YogaLogger } from 'graphql-yoga';
import type { Kysely } from 'kysely';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { TokenService } from '../auth/tokens';
import type { ServerConfig } from '../base/config';
import type { Database } from '../db/schema';
import { anonymous, type Actor } from '../access/caller';
import { precheck } from '../access/guard';
import { policyOf } from '../access/policies';
import { assertMayChange, assertMaySetTwoFactor } from '../access/self-service';
import { bearerToken, requestOrigin } from '../plugins/auth';
import { NUL_MESSAGE, nulIn } from '../plugins/nul';
import type { Services } from '../services';
import { DomainError } from '../base/domain-error';
import type { TenantRef } from '../tenants/scope';
import { AUDIT_RECORD_HEADER } from '../plugins/audit-record-header';
import { auditRecordHeaderOf, auditRecordsExtension, namingRecords } from './audit-records';
import { graphiqlPage } from './graphiql';
import { assertEveryFieldMapped, META_FIELDS, operationOfField } from './field-policies';
import { givenArguments, readingOf, type OperationKind, type Plan, type RootField } from './request-reading';
import { createResolvers } from './resolvers';
import type { GraphqlContext, ServerContext } from './types';
import { contractStatuses, limits, maskUnexpected, noIntrospection } from './yoga-plugins';

export type { GraphqlContext } from './types';

export const SCHEMA_PATH = fileURLToPath(new URL('../../../contracts/schema.graphql', import.meta.url));
export const GRAPHQL_ROUTE = '/:tenant/graphql';

export interface GraphqlDeps {
  db: Kysely<Database>;
  config: ServerConfig;
  tokens: TokenService;
  /** The domain services (server/src/services.ts), shared with the REST adapter. */
  services: Services;
}

const errorsBody = (message: string, code: string) => ({ errors: [{ message, extensions: { code } }] });
const TENANT_NOT_FOUND = errorsBody('Tenant not found', 'NOT_FOUND');

/**
 * Every root resolver, recording a service's 403 (`forbidden`) as `access.denied` before it becomes the
 * contract's FORBIDDEN (the guard records the ones it gives itself).
 */
export function recordingDenials<
  R extends Record<string, (parent: unknown, args: never, ctx: GraphqlContext) => Promise<unknown>>,
>(resolvers: R, operation: 'query' | 'mutation', services: Services): R {
  const wrapped: Record<string, unknown> = {};
  for (const [name, resolve] of Object.entries(resolvers)) {
    wrapped[name] = async (parent: unknown, args: never, ctx: GraphqlContext) => {
      try {
        return await resolve(parent, args, ctx);
      } catch (error) {
        if (error instanceof DomainError && error.kind === 'forbidden' && ctx.auth) {
          await services.auth.recordDenial(
            ctx.auth,
            {
              operation: `${operation} ${name}`,
              required: error.details.required ?? [],
              ...(error.message === 'Forbidden' ? {} : { reason: error.message }),
            },
            (ctx as Partial<ServerContext>).req?.log ?? console,
          );
        }
        throw error;
      }
    };
  }
  return wrapped as R;
}

export function buildGraphqlSchema(deps: GraphqlDeps): GraphQLSchema {
  const typeDefs = readFileSync(SCHEMA_PATH, 'utf8');
  const { Query, Mutation } = createResolvers(deps);
  return createSchema<GraphqlContext>({
    typeDefs,
    resolvers: {
      Query: recordingDenials(Query, 'query', deps.services),
      // Each change names the audit record it wrote (./audit-records.ts).
      Mutation: namingRecords(recordingDenials(Mutation, 'mutation', deps.services)),
    },
  });
}

/** Mounts graphql-yoga at `/{tenant}/graphql` (POST; GET only renders the local GraphiQL page outside production). */
export function registerGraphql(fastify: FastifyInstance, deps: GraphqlDeps): void {
  const { config, services } = deps;
  const schema = buildGraphqlSchema(deps);
  const log = fastify.log;
  const logging: YogaLogger = {
    debug: () => undefined,
    info: (...args: unknown[]) => log.info({ graphql: args }, 'graphql'),
    warn: (...args: unknown[]) => log.warn({ graphql: args }, 'graphql'),
    error: (...args: unknown[]) => log.error({ err: args[0] }, 'graphql error'),
  };

  const yoga = createYoga<ServerContext>({
    schema,
    graphqlEndpoint: GRAPHQL_ROUTE,
    // Outside production GET answers GraphiQL from yoga's own renderer, served by the route below (./graphiql).
    graphiql: false,
    landingPage: false,
    cors: false,
    multipart: false,
    batching: false,
    logging,
    maskedErrors: { maskError: maskUnexpected, isDev: false },
    plugins: [contractStatuses, limits, auditRecordsExtension, ...(config.production ? [noIntrospection()] : [])],
  });

  const states = new WeakMap<FastifyRequest, GraphqlContext>();
  // Deny by default: every root field of the schema runs a service operation with a policy.
  assertEveryFieldMapped(schema);

  /**
   * Permission rules of root fields that depend on their arguments (contracts/schema.graphql: "…; without
   * it, a signed-in user may still…"), asked before the document is validated, like REST's
   * (server/src/rest/users.ts `bodyPermissionChecks`): the same rule the users service applies
   * (server/src/access/self-service.ts).
   */
  const argumentChecks: Readonly<Record<string, (auth: Actor, args: Record<string, unknown>) => void>> = {
    updateUser: (auth, { id, ...fields }) =>
      assertMayChange(auth, typeof id === 'number' ? id : Number.NaN, Object.keys(fields)),
    updateUserSettings: (auth, { user_id: id, ...settings }) =>
      assertMaySetTwoFactor(auth, typeof id === 'number' ? id : Number.NaN, settings),
  };

  /**
   * Why a root field may not run for this caller, from the policy of the service operation it runs
   * (./field-policies.ts, server/src/access/policies.ts): the route permissions that would allow it and
   * the reason; null when it may run. A field of no operation is none of the schema's (every one is
   * mapped), so validation refuses it before anything runs.
   */
  function refusalOf(
    auth: Actor,
    operation: OperationKind,
    field: FieldNode,
    variables: unknown,
  ): { required: readonly string[]; reason: string } | null {
    const name = field.name.value;
    const serviceOperation = META_FIELDS.has(name) ? undefined : operationOfField(operation, name);
    try {
      if (serviceOperation) precheck(auth, policyOf(serviceOperation));
      argumentChecks[name]?.(auth, givenArguments(field, variables));
      return null;
    } catch (error) {
      if (error instanceof DomainError && error.kind === 'forbidden')
        return { required: error.details.required ?? [], reason: error.message };
      throw error;
    }
  }

  /** The tenant of the path for this caller: undefined when it does not exist, else whether the caller may act in it. */
  async function pathTenant(
    request: FastifyRequest,
    name: string,
    auth: Actor | null,
  ): Promise<{ status: 404 | 403; body: Record<string, unknown> } | { tenant: TenantRef }> {
    const tenant = await services.tenants.findLive(anonymous(requestOrigin(request)), name);
    if (!tenant) return { status: 404, body: TENANT_NOT_FOUND };
    if (auth && !auth.originBackoffice && auth.tenantId !== tenant.id) {
      await services.auth.recordDenial(
        auth,
        // The route, not the tenant's name: the record is the caller's own tenant's to read.
        { operation: `${request.method} /{tenant}/graphql`, required: [], reason: 'this tenant is not yours' },
        request.log,
      );
      return { status: 403, body: errorsBody('Forbidden: this tenant is not yours', 'FORBIDDEN') };
    }
    return { tenant };
  }

  /**
   * The 403 body when a root field the request would run is one the caller may not use, after recording
   * the denial; null when every one may run. Nothing of the document runs then: one refused root field
   * refuses the whole request.
   */
  async function refusedFields(
    request: FastifyRequest,
    caller: Actor,
    fields: readonly RootField[],
  ): Promise<Record<string, unknown> | null> {
    const variables = (request.body as { variables?: unknown } | undefined)?.variables;
    const refused = fields.flatMap(({ operation, field }) => {
      const refusal = refusalOf(caller, operation, field, variables);
      return refusal ? [{ operation, name: field.name.value, missing: refusal.required, reason: refusal.reason }] : [];
    });
    if (refused.length === 0) return null;
    const errors = refused.map(({ name, missing, reason }) => ({
      message: missing.length
        ? `Forbidden: needs route permission ${missing.map((r) => `\`${r}\``).join(' or ')}`
        : `Forbidden: ${reason}`,
      path: [name],
      extensions: { code: 'FORBIDDEN' },
    }));
    // One record per refused request: its refused root fields, and the permissions they lacked.
    const kinds = [...new Set(refused.map(({ operation }) => operation))];
    const names = [
      ...new Set(refused.map(({ operation, name }) => (kinds.length > 1 ? `${operation} ${name}` : name))),
    ];
    // The rules' own words where a rule refused (not merely a missing permission), as the resolvers record them.
    const reasons = [...new Set(refused.map(({ reason }) => reason).filter((reason) => reason !== 'Forbidden'))];
    await services.auth.recordDenial(
      caller,
      {
        operation: kinds.length > 1 ? names.join(', ') : `${kinds[0] ?? 'query'} ${names.join(', ')}`,
        required: [...new Set(refused.flatMap(({ missing }) => missing))],
        ...(reasons.length > 0 ? { reason: reasons.join('; ') } : {}),
      },
      request.log,
    );
    return { data: null, errors };
  }

  /** Identity for a request whose body could not even be read: as for any document that does not parse. */
  async function identityOf(
    request: FastifyRequest,
    plan: Plan,
  ): Promise<{ auth: Actor } | { status: 401; body: Record<string, unknown> }> {
    try {
      const auth = await services.auth.authenticate(
        anonymous(requestOrigin(request)),
        bearerToken(request.headers.authorization),
        { allowRefreshable: plan === 'refresh' },
      );
      return { auth };
    } catch (error) {
      if (error instanceof DomainError && error.kind === 'unauthenticated')
        return { status: 401, body: { ...(error.details.unauthorized ?? { status: 'Unauthorized' }) } };
      throw error;
    }
  }

  /**
   * Before yoga reads the document: its limits (400, before anything else: ./limits.ts), identity (401),
   * the tenant of the path (404, 403), the root fields' route permissions (403), and only then the body
   * itself (NUL characters, shape, a document it cannot read whole: 400), so a caller without the
   * permission learns nothing from how its input would have been judged (contracts/schema.graphql).
   */
  async function guard(
    request: FastifyRequest<{ Params: { tenant: string } }>,
    reply: FastifyReply,
  ): Promise<FastifyReply | undefined> {
    if (request.method === 'GET') {
      const query = request.query as Record<string, unknown> | undefined;
      const wantsHtml = (request.headers.accept ?? '').includes('text/html');
      if (config.production || !wantsHtml || (query && 'query' in query)) {
        return reply
          .code(405)
          .header('allow', 'POST')
          .send(errorsBody('Send GraphQL operations with POST', 'METHOD_NOT_ALLOWED'));
      }
      const tenant = await services.tenants.findLive(anonymous(requestOrigin(request)), request.params.tenant);
      if (!tenant) return reply.code(404).send(TENANT_NOT_FOUND);
      states.set(request, {
        auth: null,
        tenant,
        remoteAddress: request.ip,
        userAgent: request.headers['user-agent'] ?? null,
        origin: requestOrigin(request),
      });
      return undefined;
    }

    // The limits first, before identity: a document over them costs nothing more than its reading.
    const reading = readingOf(request.body, schema);
    if (reading.kind === 'over-limit') return reply.code(400).send({ errors: reading.errors });
    let auth: Actor | null = null;
    if (reading.plan !== 'public') {
      const identity = await identityOf(request, reading.plan);
      if ('status' in identity) return reply.code(identity.status).send(identity.body);
      auth = identity.auth;
    }

    const place = await pathTenant(request, request.params.tenant, auth);
    if ('status' in place) return reply.code(place.status).send(place.body);
    const { tenant } = place;
    if (auth) {
      const refused = await refusedFields(request, auth, reading.fields);
      if (refused) return reply.code(403).send(refused);
    }
    const nul = nulIn(request);
    if (nul) {
      return reply
        .code(400)
        .send(errorsBody(`${nul.part}${nul.where ? `.${nul.where}` : ''} ${NUL_MESSAGE}`, 'BAD_USER_INPUT'));
    }
    if (reading.nul) return reply.code(400).send({ errors: [reading.nul] });
    // What the guard could not read whole never reaches yoga: it would run what was not checked.
    if (reading.refusal) return reply.code(400).send({ errors: reading.refusal });
    states.set(request, {
      auth,
      tenant,
      remoteAddress: request.ip,
      userAgent: request.headers['user-agent'] ?? null,
      origin: requestOrigin(request),
    });
    return undefined;
  }

  /**
   * A body Fastify could not parse (bad JSON, another media type, too large) never reaches the guard:
   * answer identity and the path's tenant first here too, as for a document that does not parse, then the 4xx.
   */
  async function bodyErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500 && !error.validation) {
      const identity = await identityOf(request, 'authenticated');
      if ('status' in identity) return reply.code(identity.status).send(identity.body);
      const place = await pathTenant(request, (request.params as { tenant: string }).tenant, identity.auth);
      if ('status' in place) return reply.code(place.status).send(place.body);
    }
    throw error;
  }

  fastify.route<{ Params: { tenant: string } }>({
    method: ['GET', 'POST'],
    url: GRAPHQL_ROUTE,
    // Route-level preValidation runs after the app-level hooks of that stage; the app's NUL check
    // leaves this route to the guard, which checks identity and permission first.
    preValidation: guard,
    errorHandler: bodyErrorHandler,
    handler: async (request, reply) => {
      if (request.method === 'GET') {
        const page = graphiqlPage();
        return reply
          .type('text/html; charset=utf-8')
          .header('cache-control', 'no-cache')
          .header('content-security-policy', page.csp)
          .send(page.html);
      }
      const state = states.get(request);
      if (!state) return reply.code(500).send(errorsBody('Internal server error', 'INTERNAL_SERVER_ERROR'));
      const response = await yoga.handleNodeRequestAndResponse(request, reply, { req: request, reply, ...state });
      // A 401 during execution (refresh lost its compare-and-swap, or was reused): the 401 table's body.
      if (response.status === 401)
        return reply.code(401).type('application/json; charset=utf-8').send({ status: 'Unauthorized' });
      response.headers.forEach((value, key) => {
        reply.header(key, value);
      });
      // As a REST change's answer (server/src/plugins/audit-record-header.ts), when it is one change's whole answer.
      const record = auditRecordHeaderOf(request);
      if (record !== undefined && response.status < 300) reply.header(AUDIT_RECORD_HEADER, String(record));
      reply.status(response.status);
      return reply.send(response.body);
    },
  });
}
