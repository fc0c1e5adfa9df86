import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { operations } from '../../../src/generated/openapi';
import type { TokenService } from '../auth/tokens';
import type { ServerConfig } from '../base/config';
import type { Database } from '../db/schema';
import { unauthorized } from '../base/errors';
import type { EventBus } from '../base/events';
import type { Actor } from '../access/caller';
import type { Services } from '../services';
import type { FaultInjector } from '../plugins/faults';

export type OperationId = keyof operations;

type JsonOf<T> = T extends { content: { 'application/json': infer B } } ? B : never;

/** The JSON request body of an operation, from the generated contract types. */
export type BodyOf<Id extends OperationId> = operations[Id] extends { requestBody: infer R }
  ? JsonOf<NonNullable<R>>
  : never;
/** Query parameters of an operation. */
export type QueryOf<Id extends OperationId> = operations[Id]['parameters'] extends { query?: infer Q }
  ? NonNullable<Q>
  : never;
/** Path parameters of an operation. */
export type PathOf<Id extends OperationId> = operations[Id]['parameters'] extends { path?: infer P }
  ? NonNullable<P>
  : never;
/** The 2xx JSON answer of an operation. */
export type OkOf<Id extends OperationId> = operations[Id]['responses'] extends infer R
  ? R extends Record<number, unknown>
    ? JsonOf<R[200 extends keyof R ? 200 : 201 extends keyof R ? 201 : 202 extends keyof R ? 202 : never]>
    : never
  : never;

export interface HandlerDeps {
  db: Kysely<Database>;
  config: ServerConfig;
  tokens: TokenService;
  events: EventBus;
  /** The domain services (server/src/services.ts), shared with the GraphQL adapter. */
  services: Services;
  /** The fault injector (server/src/plugins/faults.ts), only with FAULT_INJECTION=1: faults per row of a bulk run. */
  faults?: FaultInjector | undefined;
}

export type Handler<Id extends OperationId> = (
  request: FastifyRequest<{ Body: BodyOf<Id>; Querystring: QueryOf<Id>; Params: PathOf<Id> }>,
  reply: FastifyReply,
) => Promise<OkOf<Id> | void>;

export type Operations = { [Id in OperationId]: Handler<Id> };

/**
 * A real bulk run's rows refused as `forbidden` are denials like the single action's 403 (server/src/app.ts
 * records those as `access.denied`): one record per such row, so probing by bulk leaves the same trail.
 * A dry run writes nothing, denials included: it asks what would happen and attempts nothing.
 */
export async function recordRowDenials(
  services: Services,
  actor: Actor,
  operation: string,
  required: readonly string[],
  results: readonly { id: number; outcome: string; reason?: string; message?: string }[],
  log: FastifyBaseLogger,
): Promise<void> {
  for (const row of results)
    if (row.reason === 'forbidden')
      await services.auth.recordDenial(
        actor,
        { operation, required, reason: `row ${row.id}: ${row.message ?? 'Forbidden'}` },
        log,
      );
}

/** The caller of an authenticated operation (the preHandler guarantees it is set). */
export function caller(request: FastifyRequest): Actor {
  if (!request.auth) throw unauthorized({ status: 'Authorization Token not found' });
  return request.auth;
}
