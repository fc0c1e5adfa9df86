import type { FastifyInstance } from 'fastify';
import { anyBroken, isBroken, type BrokenPromise } from '../base/broken-promises';

/**
 * The broken variants of server/src/base/broken-promises.ts whose promise the answer's serialization keeps:
 * REST bodies are written by their contract schema (openapi-glue hands Fastify each response schema), so a
 * wrong body can only be made after that, and GraphQL data is shaped by the schema's execution, so a wrong
 * one only on the result. With no variant on, both return at once.
 */

interface BodyRewrite {
  variant: BrokenPromise;
  operationId: string;
  rewrite(body: Record<string, unknown>): void;
}

/** One promise of a response schema each (contracts/openapi.yaml, components/schemas). */
const BODY_REWRITES: readonly BodyRewrite[] = [
  // `Tenant.required` lists cnpj.
  { variant: 'tenant-missing-required-field', operationId: 'tenantCreate', rewrite: (body) => delete body.cnpj },
  // `Role` is `additionalProperties: false`.
  { variant: 'role-extra-property', operationId: 'roleGet', rewrite: (body) => (body.internal_note = 'extra') },
  // `Role.id` is an `Id` (integer).
  { variant: 'role-id-as-string', operationId: 'roleCreate', rewrite: (body) => (body.id = String(body.id)) },
];

/** Rewrites serialized REST answers; registered before compression, so it sees the JSON text. */
export function registerBrokenAnswers(fastify: FastifyInstance): void {
  fastify.addHook('onSend', async (request, reply, payload) => {
    if (!anyBroken()) return payload;
    const operationId = (request.routeOptions.schema as { operationId?: string } | undefined)?.operationId;
    // Every JSON answer of the contract is `application/json`.
    if (isBroken('json-wrong-content-type') && operationId === 'permissionCategories')
      reply.header('content-type', 'text/plain; charset=utf-8');
    const broken = BODY_REWRITES.find((r) => r.operationId === operationId && isBroken(r.variant));
    if (!broken || typeof payload !== 'string' || reply.statusCode >= 300) return payload;
    const body = JSON.parse(payload) as Record<string, unknown>;
    broken.rewrite(body);
    return JSON.stringify(body);
  });
}

/**
 * A GraphQL result with the `roles` query's data broken (contracts/schema.graphql `Role`, as
 * contracts/operations/roles.query.graphql selects it): a field it did not select, null in the non-null
 * `display_name`, `id` (Int!) as a string. Any other result as it is.
 */
export function breakGraphqlResult<R extends { data?: unknown }>(result: R): R {
  const data = result.data as { roles?: Record<string, unknown>[] } | null | undefined;
  const role = Array.isArray(data?.roles) ? data.roles[0] : undefined;
  if (!role) return result;
  if (isBroken('graphql-unselected-field')) role.unselected = true;
  if (isBroken('graphql-null-in-non-null')) role.display_name = null;
  if (isBroken('graphql-id-as-string')) role.id = String(role.id);
  return result;
}
