import type { FaultRule } from '../base/fault-rules';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isDeepStrictEqual } from 'node:util';
import { DATABASE_RETRY_AFTER_SECONDS } from '../db/unavailable';

/**
 * Fault injection for tests and the e2e suite (docs/product.md, Availability), e.g. "bulk feature update with one failing
 * feature": a rule makes the server answer a chosen status instead of running an operation. Enabled
 * only with `FAULT_INJECTION=1` and never with `NODE_ENV=production` (the server refuses to start, see
 * server/src/base/config.ts). Rules come from `FAULTS` (a JSON array) at start and from the test-only endpoint
 * `POST /__test/faults` (`GET` lists them with what is left, `DELETE` clears them); neither the endpoint
 * nor the hook exist when the facility is off.
 *
 * A rule fires for requests of one operation: REST by `operationId` (contracts/openapi.yaml), GraphQL by
 * `operationName`. `match` narrows it to requests whose input (REST: path, query and body merged;
 * GraphQL: variables) has every listed property equal. `times` (default: unlimited) counts firings.
 *
 * Bulk operations ({@link ROW_OPERATIONS}) answer for one row too (docs/lists.md, Bulk actions): a rule of
 * such an operation whose `match` names `id` fires for the row with that id (the request's input with
 * `id` set to the row's), which then fails (`outcome: failed`) while the other rows run; the request
 * answers 200. Such a rule never fires for the whole request.
 * The hook runs after validation and authentication, so a faulted request is one the server would have
 * executed. Answers carry `x-fault-injected: <rule id>`.
 */
export interface ActiveFault extends FaultRule {
  id: number;
  /** Firings left; null for unlimited. */
  remaining: number | null;
  fired: number;
}

export const FAULT_RULE_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['operationId', 'status'],
  properties: {
    operationId: { type: 'string', minLength: 1, maxLength: 100 },
    match: { type: 'object' },
    status: { type: 'integer', minimum: 400, maximum: 599 },
    times: { type: 'integer', minimum: 1 },
    body: {},
    delayMs: { type: 'integer', minimum: 0, maximum: 30_000 },
  },
} as const;

function defaultBody(status: number, graphql: boolean): unknown {
  const message = `Injected fault (HTTP ${status})`;
  if (graphql)
    return { errors: [{ message, extensions: { code: status === 503 ? 'SERVICE_UNAVAILABLE' : 'INJECTED_FAULT' } }] };
  if (status === 503) return { status: 'unavailable', message };
  if (status === 400) return { message: 'Validation failed', errors: [{ field: 'body', message }] };
  return { message };
}

export interface FaultInjector {
  add(rules: readonly FaultRule[]): ActiveFault[];
  list(): ActiveFault[];
  clear(): void;
  /** A rule for one row of a bulk operation: the message the row fails with, or undefined (it runs). */
  row(operationId: string, input: Record<string, unknown>, id: number): string | undefined;
}

/** The operations whose rows run one by one, and so take a fault per row (`match: { id }`). */
export const ROW_OPERATIONS: ReadonlySet<string> = new Set(['userBulk', 'tenantFeatureBulk']);

const isRowRule = (rule: FaultRule) => ROW_OPERATIONS.has(rule.operationId) && rule.match?.id !== undefined;

export function registerFaults(fastify: FastifyInstance, initial: readonly FaultRule[]): FaultInjector {
  let nextId = 1;
  let active: ActiveFault[] = [];
  const injector: FaultInjector = {
    add(rules) {
      const added = rules.map((rule) => ({ ...rule, id: nextId++, remaining: rule.times ?? null, fired: 0 }));
      active.push(...added);
      return added;
    },
    list: () => active.map((rule) => ({ ...rule })),
    clear() {
      active = [];
    },
    row(operationId, input, id) {
      const rule = take(operationId, { ...input, id }, true);
      return rule === undefined ? undefined : `Injected fault (HTTP ${rule.status}, rule ${rule.id})`;
    },
  };
  injector.add(initial);
  fastify.log.warn({ rules: initial.length }, 'FAULT INJECTION IS ON (FAULT_INJECTION=1): test use only');

  function take(operationId: string, input: Record<string, unknown>, row = false): ActiveFault | undefined {
    const rule = active.find(
      (r) =>
        r.operationId === operationId &&
        isRowRule(r) === row &&
        (r.remaining === null || r.remaining > 0) &&
        Object.entries(r.match ?? {}).every(([key, value]) => isDeepStrictEqual(input[key], value)),
    );
    if (!rule) return undefined;
    rule.fired += 1;
    if (rule.remaining !== null) rule.remaining -= 1;
    return rule;
  }

  const asRecord = (value: unknown): Record<string, unknown> =>
    typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

  fastify.addHook('preHandler', async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.url.startsWith('/__test/')) return;
    const schema = request.routeOptions.schema as { operationId?: string } | undefined;
    const graphql = request.routeOptions.url === '/:tenant/graphql' && request.method === 'POST';
    const body = asRecord(request.body);
    const operationId = graphql
      ? typeof body.operationName === 'string'
        ? body.operationName
        : undefined
      : schema?.operationId;
    if (!operationId) return;
    const input = graphql
      ? asRecord(body.variables)
      : { ...asRecord(request.params), ...asRecord(request.query), ...body };
    const rule = take(operationId, input);
    if (!rule) return;
    if (rule.delayMs) await new Promise((resolve) => setTimeout(resolve, rule.delayMs));
    reply.header('x-fault-injected', String(rule.id));
    if (rule.status === 503) reply.header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS));
    return reply.code(rule.status).send(rule.body ?? defaultBody(rule.status, graphql));
  });

  fastify.post('/__test/faults', {
    schema: { body: { oneOf: [FAULT_RULE_SCHEMA, { type: 'array', items: FAULT_RULE_SCHEMA, maxItems: 100 }] } },
    handler: async (request, reply) => {
      const rules = Array.isArray(request.body) ? (request.body as FaultRule[]) : [request.body as FaultRule];
      return reply.code(201).send({ rules: injector.add(rules) });
    },
  });
  fastify.get('/__test/faults', async () => ({ rules: injector.list() }));
  fastify.delete('/__test/faults', async () => {
    injector.clear();
    return { rules: [] };
  });
  return injector;
}
