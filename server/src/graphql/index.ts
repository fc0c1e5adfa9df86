import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
// Only instance-free parts of graphql-js here (parse, AST): yoga may load another copy of the module
// (ESM vs CJS under vitest), and schemas/errors must come from that copy (createSchema, createGraphQLError).
import {
  getOperationAST,
  Kind,
  valueFromASTUntyped,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLError,
  type GraphQLSchema,
  type SelectionSetNode,
  type ValidationRule,
} from 'graphql';
import { createGraphQLError, createSchema, createYoga, maskError, type Plugin, type YogaLogger } from 'graphql-yoga';
import type { Kysely } from 'kysely';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { TokenService } from '../auth/tokens';
import type { ServerConfig } from '../config';
import type { Database } from '../db/schema';
import { DATABASE_RETRY_AFTER_SECONDS, isDatabaseUnavailable } from '../db/unavailable';
import { allows, bearerToken, loadAuthContext, type AuthContext } from '../plugins/auth';
import { NUL_MESSAGE, nulIn } from '../plugins/nul';
import type { Services } from '../services';
import { asDomainError, DomainError } from '../shared/domain-error';
import type { TenantRef } from '../tenants/scope';
import { assertMayChange } from '../users/service';
import { graphqlErrorsOf, ONE_PER_FIELD } from './domain-errors';
import { graphiqlPage, registerGraphiqlAssets } from './graphiql';
import { limitedParse, parseLimited, queryLimits } from './limits';
import { fieldAccessTable, type FieldAccess } from './permissions';
import { createResolvers } from './resolvers';
import type { GraphqlContext, ServerContext } from './types';

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

/** Root fields that need no token: `logIn` ignores any token sent; introspection is public (and off in production). */
const PUBLIC_FIELDS = new Set(['logIn', '__schema', '__type', '__typename']);

const errorsBody = (message: string, code: string) => ({ errors: [{ message, extensions: { code } }] });
const TENANT_NOT_FOUND = errorsBody('Tenant not found', 'NOT_FOUND');

interface RequestBody {
  query: string;
  operationName?: string | null;
}

function isRequestBody(body: unknown): body is RequestBody {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return false;
  const { query, operationName } = body as Record<string, unknown>;
  return (
    typeof query === 'string' &&
    (operationName === undefined || operationName === null || typeof operationName === 'string')
  );
}

/** The operation's root fields, looking through fragments at the root; null when a fragment is unknown. */
function rootFields(
  document: DocumentNode,
  selectionSet: SelectionSetNode,
  seen = new Set<string>(),
): FieldNode[] | null {
  const fields: FieldNode[] = [];
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FIELD) {
      fields.push(selection);
      continue;
    }
    let inner: SelectionSetNode | undefined;
    if (selection.kind === Kind.INLINE_FRAGMENT) {
      inner = selection.selectionSet;
    } else {
      const name = selection.name.value;
      if (seen.has(name)) return null;
      seen.add(name);
      inner = document.definitions.find(
        (d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION && d.name.value === name,
      )?.selectionSet;
    }
    if (!inner) return null;
    const nested = rootFields(document, inner, seen);
    if (!nested) return null;
    fields.push(...nested);
  }
  return fields;
}

/**
 * The arguments a field is given, as far as can be told before validation: literals as they are
 * written, variables from the request's `variables` (an argument whose variable is not sent is
 * omitted, as GraphQL treats it).
 */
function givenArguments(field: FieldNode, variables: unknown): Record<string, unknown> {
  const values = typeof variables === 'object' && variables !== null ? (variables as Record<string, unknown>) : {};
  const given: Record<string, unknown> = {};
  for (const argument of field.arguments ?? []) {
    if (argument.value.kind === Kind.VARIABLE) {
      const name = argument.value.name.value;
      if (Object.prototype.hasOwnProperty.call(values, name)) given[argument.name.value] = values[name];
    } else {
      given[argument.name.value] = valueFromASTUntyped(argument.value);
    }
  }
  return given;
}

type Plan = 'public' | 'refresh' | 'authenticated';

/** What the guard reads off a request body before execution: its plan, and its root fields when they are known. */
interface Reading {
  plan: Plan;
  operation: 'query' | 'mutation' | 'subscription' | null;
  fields: FieldNode[] | null;
}

/**
 * What the request needs before execution (contracts/schema.graphql, AUTHENTICATION FAILURES): no
 * token when every root field is public; an expired-but-refreshable token only when `refreshToken` is
 * the sole root field of a mutation; a live token otherwise (including documents that do not parse).
 */
function readingOf(body: unknown): Reading {
  const unknown: Reading = { plan: 'authenticated', operation: null, fields: null };
  if (!isRequestBody(body)) return unknown;
  let document: DocumentNode;
  try {
    document = parseLimited(body.query);
  } catch {
    return unknown;
  }
  const operation = getOperationAST(document, body.operationName ?? undefined);
  if (!operation) return unknown;
  const fields = rootFields(document, operation.selectionSet);
  if (!fields || fields.length === 0) return unknown;
  const reading = { operation: operation.operation, fields };
  const names = fields.map((field) => field.name.value);
  if (names.every((name) => PUBLIC_FIELDS.has(name))) return { ...reading, plan: 'public' };
  if (operation.operation === 'mutation' && names.length === 1 && names[0] === 'refreshToken')
    return { ...reading, plan: 'refresh' };
  return { ...reading, plan: 'authenticated' };
}

/**
 * Statuses of the contract's error table: parse/validation failures are 400 whatever the `Accept`
 * (yoga would answer 200 to `application/json` per GraphQL over HTTP), unexpected failures 500.
 */
const contractStatuses: Plugin = {
  onResultProcess({ result, setResult }) {
    if (Array.isArray(result) || Symbol.asyncIterator in result) return;
    for (const error of result.errors ?? []) {
      const http = error.extensions.http;
      if (http?.spec) http.spec = false;
    }
    // One error per bad field (./domain-errors.ts): spread the ones that rode on the first.
    const errors = result.errors?.flatMap(
      (error) => (error as GraphQLError & { [ONE_PER_FIELD]?: GraphQLError[] })[ONE_PER_FIELD] ?? [error],
    );
    if (errors && errors.length !== result.errors?.length) setResult({ ...result, errors });
  },
};

/** graphql-js's NoSchemaIntrospectionCustomRule, without its instanceof checks against our copy of graphql-js. */
const noSchemaIntrospection: ValidationRule = (context) => ({
  Field(node) {
    const name = node.name.value;
    if (name === '__schema' || name === '__type') {
      context.reportError(
        createGraphQLError(`GraphQL introspection is disabled, but the query contained ${name}.`, { nodes: [node] }),
      );
    }
  },
});

/** Token, depth and cost limits on every document (contracts/schema.graphql, LIMITS). */
const limits: Plugin = {
  onParse({ parseFn, setParseFn }) {
    setParseFn(limitedParse(parseFn));
  },
  onValidate({ addValidationRule }) {
    addValidationRule(queryLimits);
  },
};

const noIntrospection: Plugin = {
  onValidate({ addValidationRule }) {
    addValidationRule(noSchemaIntrospection);
  },
};

const isGraphQLError = (error: Error): error is GraphQLError => 'extensions' in error && 'path' in error;

/**
 * A refusal of a domain service (or a unique index that caught a race) becomes the contract's error
 * (./domain-errors.ts); the rest is yoga's masking, plus HTTP 500 for the masked (unexpected) errors,
 * as the contract's table says.
 */
function maskUnexpected(error: unknown, message: string): Error {
  const located = error instanceof Error && isGraphQLError(error) ? error : undefined;
  const domain = asDomainError(located?.originalError ?? error);
  if (domain) return graphqlErrorsOf(domain, located);
  if (isDatabaseUnavailable(error)) {
    // The contract's SERVICE_UNAVAILABLE (503, Retry-After), not a 500: the database will be back.
    const graphqlError = isGraphQLError(error as Error) ? (error as GraphQLError) : undefined;
    return createGraphQLError('Database unavailable: retry shortly', {
      nodes: graphqlError?.nodes,
      path: graphqlError?.path,
      extensions: {
        code: 'SERVICE_UNAVAILABLE',
        http: { status: 503, headers: { 'Retry-After': String(DATABASE_RETRY_AFTER_SECONDS) } },
      },
    });
  }
  const masked = maskError(error, message, false);
  if (masked === error || !isGraphQLError(masked)) return masked;
  return createGraphQLError(masked.message, {
    nodes: masked.nodes,
    source: masked.source,
    positions: masked.positions,
    path: masked.path,
    extensions: { code: 'INTERNAL_SERVER_ERROR', unexpected: true, http: { status: 500 } },
  });
}

export function buildGraphqlSchema(deps: GraphqlDeps): GraphQLSchema {
  const typeDefs = readFileSync(SCHEMA_PATH, 'utf8');
  return createSchema<GraphqlContext>({ typeDefs, resolvers: createResolvers(deps) });
}

/** Mounts graphql-yoga at `/{tenant}/graphql` (POST; GET only renders the local GraphiQL page outside production). */
export function registerGraphql(fastify: FastifyInstance, deps: GraphqlDeps): void {
  const { db, config, tokens, services } = deps;
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
    // yoga's GraphiQL loads from unpkg; outside production our own page (./graphiql) answers GET instead.
    graphiql: false,
    landingPage: false,
    cors: false,
    multipart: false,
    batching: false,
    logging,
    maskedErrors: { maskError: maskUnexpected, isDev: false },
    plugins: [contractStatuses, limits, ...(config.production ? [noIntrospection] : [])],
  });

  if (!config.production) registerGraphiqlAssets(fastify);

  const states = new WeakMap<FastifyRequest, GraphqlContext>();
  const access = fieldAccessTable(schema);

  /**
   * Permission rules of root fields that depend on their arguments (contracts/schema.graphql: "…; without
   * it, a signed-in user may still…"), asked before the document is validated, like REST's
   * (server/src/rest/users.ts `bodyPermissionChecks`): the same function of the users service decides.
   */
  const argumentChecks: Readonly<Record<string, (auth: AuthContext, args: Record<string, unknown>) => void>> = {
    updateUser: (auth, { id, ...fields }) =>
      assertMayChange(auth, typeof id === 'number' ? id : Number.NaN, Object.keys(fields)),
  };

  /** The route permissions a root field needs that the caller lacks; empty when it may run. */
  function missingRoutes(
    auth: AuthContext,
    operation: Reading['operation'],
    field: FieldNode,
    variables: unknown,
  ): readonly string[] {
    const table = operation === 'mutation' ? access.mutation : access.query;
    const name = field.name.value;
    const needed: FieldAccess | undefined = table.get(name);
    if (needed?.kind === 'routes') return allows(auth, needed.routes) ? [] : needed.routes;
    try {
      argumentChecks[name]?.(auth, givenArguments(field, variables));
      return [];
    } catch (error) {
      if (error instanceof DomainError && error.kind === 'forbidden') return error.details.required ?? [];
      throw error;
    }
  }

  /** The tenant of the path for this caller: undefined when it does not exist, else whether the caller may act in it. */
  async function pathTenant(
    name: string,
    auth: AuthContext | null,
  ): Promise<{ status: 404 | 403; body: Record<string, unknown> } | { tenant: TenantRef }> {
    const tenant = await services.tenants.findLive(name);
    if (!tenant) return { status: 404, body: TENANT_NOT_FOUND };
    if (auth && !auth.originBackoffice && auth.tenantId !== tenant.id)
      return { status: 403, body: errorsBody('Forbidden: this tenant is not yours', 'FORBIDDEN') };
    return { tenant };
  }

  /** Identity for a request whose body could not even be read: as for any document that does not parse. */
  async function identityOf(
    request: FastifyRequest,
    plan: Plan,
  ): Promise<{ auth: AuthContext } | { status: 401; body: Record<string, unknown> }> {
    const verified = await tokens.verify(bearerToken(request.headers.authorization), {
      allowRefreshable: plan === 'refresh',
    });
    if (!verified.ok) return { status: 401, body: verified.body };
    const auth = await loadAuthContext(db, verified.userId, verified.claims);
    if (!auth) return { status: 401, body: { status: 'Unauthorized' } };
    return { auth };
  }

  /**
   * Before yoga reads the document: identity (401), the tenant of the path (404, 403), the root fields'
   * route permissions (403), and only then the body itself (NUL characters, shape: 400), so a caller
   * without the permission learns nothing from how its input would have been judged (contracts/schema.graphql).
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
      const tenant = await services.tenants.findLive(request.params.tenant);
      if (!tenant) return reply.code(404).send(TENANT_NOT_FOUND);
      states.set(request, { auth: null, tenant, remoteAddress: request.ip });
      return undefined;
    }

    const reading = readingOf(request.body);
    let auth: AuthContext | null = null;
    if (reading.plan !== 'public') {
      const identity = await identityOf(request, reading.plan);
      if ('status' in identity) return reply.code(identity.status).send(identity.body);
      auth = identity.auth;
    }

    const place = await pathTenant(request.params.tenant, auth);
    if ('status' in place) return reply.code(place.status).send(place.body);
    const { tenant } = place;
    if (auth && reading.fields) {
      const caller = auth;
      const variables = (request.body as { variables?: unknown }).variables;
      const refused = reading.fields
        .map((field) => [field.name.value, missingRoutes(caller, reading.operation, field, variables)] as const)
        .filter(([, missing]) => missing.length > 0);
      if (refused.length > 0) {
        // Nothing of the document runs: a root field the caller may not use refuses the whole request.
        const errors = refused.map(([field, missing]) => ({
          message: `Forbidden: needs route permission ${missing.map((r) => `\`${r}\``).join(' or ')}`,
          path: [field],
          extensions: { code: 'FORBIDDEN' },
        }));
        return reply.code(403).send({ data: null, errors });
      }
    }
    const nul = nulIn(request);
    if (nul) {
      return reply
        .code(400)
        .send(errorsBody(`${nul.part}${nul.where ? `.${nul.where}` : ''} ${NUL_MESSAGE}`, 'BAD_USER_INPUT'));
    }
    if (!isRequestBody(request.body)) {
      return reply.code(400).send(errorsBody('The body must be a JSON object with a "query" string', 'BAD_REQUEST'));
    }
    states.set(request, { auth, tenant, remoteAddress: request.ip });
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
      const place = await pathTenant((request.params as { tenant: string }).tenant, identity.auth);
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
        return reply
          .type('text/html; charset=utf-8')
          .header('cache-control', 'no-cache')
          .send(graphiqlPage(request.params.tenant));
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
      reply.status(response.status);
      return reply.send(response.body);
    },
  });
}
