import type { FastifyRequest } from 'fastify';
import { anonymous, type Actor, type Origin } from '../access/caller';
import { holdsAny, requireStaff } from '../access/permissions';
import type { AuthService } from '../auth/service';
import { forbidden } from '../base/domain-error';
import { isBroken } from '../base/broken-promises';

/** The audit origin of a request: its id and the caller's address. */
export function requestOrigin(request: Pick<FastifyRequest, 'id' | 'ip'>): Origin {
  return { requestId: String(request.id), address: request.ip };
}

export function bearerToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1] ?? '';
}

/**
 * What a REST operation requires before its input is read, from its contract extensions
 * (contracts/openapi.yaml, read off the route schema openapi-glue builds):
 * - `x-permission`: `public` (no token), `[]` (any signed-in user) or route names (any one suffices);
 * - `x-staff-only: true`: only back-office staff (`origin_backoffice`), whatever the role;
 * - `x-permission-for-others: [routes]`: when the path's `id` is another user than the caller, these
 *   route permissions too (a user acting on its own record needs only `x-permission`).
 */
export interface RouteAccess {
  required: readonly string[];
  staffOnly: boolean;
  forOthers: readonly string[] | null;
}

/** The access an operation's route schema declares; null for public operations and routes outside the contract. */
export function routeAccess(schema: unknown): RouteAccess | null {
  const declared = schema as
    { 'x-permission'?: string | string[]; 'x-staff-only'?: boolean; 'x-permission-for-others'?: string[] } | undefined;
  const permission = declared?.['x-permission'];
  if (permission === undefined || permission === 'public') return null;
  return {
    required: typeof permission === 'string' ? [] : permission,
    staffOnly: declared?.['x-staff-only'] === true,
    forOthers: declared?.['x-permission-for-others'] ?? null,
  };
}

const operationIdOf = (request: FastifyRequest): string | undefined =>
  (request.routeOptions.schema as { operationId?: string } | undefined)?.operationId;

/** A REST operation as the audit log names it: method and the contract's path (`DELETE /api/users/{id}`). */
export function restOperationName(request: Pick<FastifyRequest, 'method' | 'routeOptions' | 'url'>): string {
  const path = request.routeOptions.url ?? request.url.split('?')[0] ?? '';
  return `${request.method} ${path.replace(/:([A-Za-z0-9_]+)/g, '{$1}')}`;
}

/**
 * Verifies the bearer token (401 bodies of contracts/openapi.yaml `Unauthorized`) and the access the
 * operation declares (403), before anything of the request's body is read. The caller is on
 * `request.auth` before the permission checks, so a 403 is recorded with it (server/src/app.ts, onError).
 */
export async function authenticate(
  request: FastifyRequest,
  deps: { auth: AuthService; access: RouteAccess },
): Promise<Actor> {
  if (isBroken('forbidden-before-unauthorized') && !request.headers.authorization)
    throw forbidden(deps.access.required);
  const actor = await deps.auth.authenticate(
    anonymous(requestOrigin(request)),
    bearerToken(request.headers.authorization),
  );
  request.auth = actor;
  const { required, staffOnly, forOthers } = deps.access;
  const skipped = isBroken('permission-check-skipped') && operationIdOf(request) === 'departmentList';
  if (!holdsAny(actor, required) && !skipped) throw forbidden(required);
  if (staffOnly) requireStaff(actor, required);
  if (forOthers) {
    const id = Number((request.params as { id?: unknown } | undefined)?.id);
    if (id !== actor.userId && !holdsAny(actor, forOthers)) throw forbidden(forOthers);
  }
  return actor;
}
