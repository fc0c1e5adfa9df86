import { randomBytes } from 'node:crypto';
import { SignJWT, type JWTPayload } from 'jose';
import type { ContractOperation } from './openapi-schema';

/**
 * The order of checks (contracts/openapi.yaml, conventions: identity, then permission, then input, then
 * state; contracts/schema.graphql, AUTHENTICATION FAILURES and FORBIDDEN): what the RBAC matrix and the
 * two fuzz suites share to prove it. Invalid requests derived from the contracts (each breaks one thing
 * a validator would refuse: ./ordering-invalid-rest.ts, ./ordering-graphql.ts), tokens that must be refused
 * as invalid, and the access an operation declares.
 */

// ------------------------------------------------------------------------------------------------------
// Bad tokens: all answer 401 {"status":"Token is Invalid"}
// ------------------------------------------------------------------------------------------------------

const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** Real claims signed with a key the server does not hold (a forged signature). */
export async function forgedToken(claims: JWTPayload, key: Uint8Array = randomBytes(32)): Promise<string> {
  return new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(key);
}

/** Real claims, unsigned (`alg: none`). */
export function unsignedToken(claims: JWTPayload): string {
  return `${base64url({ alg: 'none', typ: 'JWT' })}.${base64url(claims)}.`;
}

/** A real token whose payload was changed after signing (another subject): the signature no longer matches. */
export function tamperedToken(token: string, claims: JWTPayload): string {
  const [header, , signature] = token.split('.');
  return `${header}.${base64url({ ...claims, sub: String(Number(claims.sub ?? 0) + 1) })}.${signature}`;
}

/** Headers that carry no bearer token at all: all answer 401 {"status":"Authorization Token not found"}. */
export const NO_TOKEN_HEADERS: readonly (string | undefined)[] = [
  undefined,
  '',
  'Bearer',
  'Bearer   ',
  'Basic bWF0cml4OnNlY3JldA==',
  'Token abc.def.ghi',
];

export const UNAUTHORIZED_BODIES = {
  noToken: { status: 'Authorization Token not found' },
  invalid: { status: 'Token is Invalid' },
} as const;

// ------------------------------------------------------------------------------------------------------
// Bodies every operation refuses
// ------------------------------------------------------------------------------------------------------

let oversized: string | undefined;
/** A JSON body over the 1 MiB limit (README: bodies over 1 MiB answer 413). */
export function oversizedBody(): string {
  oversized ??= JSON.stringify({ pad: 'x'.repeat(1024 * 1024 + 16) });
  return oversized;
}

export const MALFORMED_JSON = '{"oops": ';

// ------------------------------------------------------------------------------------------------------
// REST: what an operation requires (contracts/openapi.yaml extensions) and who lacks it
// ------------------------------------------------------------------------------------------------------

export interface DeclaredAccess {
  /** `x-permission`: 'public', or route names (any one suffices; [] means any signed-in user). */
  permission: 'public' | readonly string[];
  staffOnly: boolean;
  forOthers: readonly string[] | null;
}

export function declaredAccess(op: ContractOperation): DeclaredAccess {
  const declared = op.op as ContractOperation['op'] & {
    'x-staff-only'?: boolean;
    'x-permission-for-others'?: string[];
  };
  const permission = declared['x-permission'];
  if (permission === undefined) throw new Error(`${op.operationId}: no x-permission in contracts/openapi.yaml`);
  return {
    permission: permission === 'public' ? 'public' : typeof permission === 'string' ? [] : permission,
    staffOnly: declared['x-staff-only'] === true,
    forOthers: declared['x-permission-for-others'] ?? null,
  };
}

/** A signed-in caller as the contract's rules see it. */
export interface Caller {
  id: number;
  /** Role `administrador` passes every route check. */
  administrador: boolean;
  /** Back-office staff (`origin_backoffice`). */
  staff: boolean;
  routes: ReadonlySet<string>;
}

/**
 * Whether the contract's conventions refuse this caller before reading any input (403), for the
 * operation's declared access and the path's `id` (for `x-permission-for-others`).
 */
export function refusedBeforeInput(caller: Caller, access: DeclaredAccess, pathId: unknown): boolean {
  if (access.permission === 'public') return false;
  const holds = (routes: readonly string[]) =>
    caller.administrador || routes.length === 0 || routes.some((r) => caller.routes.has(r));
  if (!holds(access.permission)) return true;
  if (access.staffOnly && !caller.staff) return true;
  if (access.forOthers && String(pathId) !== String(caller.id) && !holds(access.forOthers)) return true;
  return false;
}

/**
 * contracts/openapi.yaml `userUpdate`: without the `users` permission a user may change only its OWN
 * name or e-mail; a body naming a field of the whole object that only `users` may change (role,
 * department, instances, password) is refused before it is validated, whatever its values.
 */
export function namesManagedUserFields(payload: string | undefined): boolean {
  let body: unknown;
  try {
    body = payload === undefined ? undefined : JSON.parse(payload);
  } catch {
    return false;
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return false;
  return ['role_id', 'user_department_id', 'chosen_instances', 'password'].some((field) => field in body);
}
