import type { Caller } from './ordering';
import { UNAUTHORIZED, m, users } from './rbac-matrix';
import { GRAPHQL_TABLE, G_AUDIT, G_TENANTS, G_USERS } from './rbac-graphql-table';

// ------------------------------------------------------------------------------------------------------
// ORDER OF CHECKS: who is refused before the input is read
// ------------------------------------------------------------------------------------------------------

/** The callers that hold no token the server accepts: no header, a malformed token, a forged signature. */
export const UNAUTHENTICATED = ['anon', 'malf', 'forged'] as const;
export const UNAUTHENTICATED_BODY: Record<(typeof UNAUTHENTICATED)[number], unknown> = {
  anon: UNAUTHORIZED.anon,
  malf: UNAUTHORIZED.malf,
  forged: UNAUTHORIZED.malf,
};
/** Signed-in callers; `opSelf` is op aimed at its own record (x-permission-for-others). */
export type SignedIn = 'op' | 'opSelf' | 'none' | 'AtoB' | 'admin';
/** A path `id` no record has: a request that got past validation would meet "not found", never a record. */
export const NOWHERE = 2_000_000_000;

/** What the contract's rules know of each signed-in caller. */
export function callerOf(who: SignedIn): Caller {
  switch (who) {
    case 'op':
    case 'opSelf':
      return { id: users.op.id, administrador: false, staff: true, routes: m.opRoutes };
    case 'none':
      return { id: users.none.id, administrador: false, staff: true, routes: new Set() };
    case 'AtoB':
      return { id: users.aAdmin.id, administrador: true, staff: false, routes: new Set() };
    case 'admin':
      return { id: users.admin.id, administrador: true, staff: true, routes: new Set() };
  }
}

/**
 * GraphQL root fields whose route permission op lacks, checked before the document is read (G_USERS,
 * G_TENANTS, G_AUDIT).
 * updateUser among them: its permission depends on its arguments (contracts/schema.graphql: "without
 * it, a signed-in user may still change its OWN …"), which the guard reads before validation; the
 * table's variables name another user, so op is refused whatever else they hold.
 */
export const G_ROUTE_FIELDS = new Set(
  GRAPHQL_TABLE.filter(([, , row]) => row === G_USERS || row === G_TENANTS || row === G_AUDIT).map(([name]) => name),
);

export const ordering = {
  rest: 0,
  graphql: 0,
  unauthenticated: 0,
  forbidden: 0,
  invalid: 0,
  inputless: [] as string[],
  unlisted: new Set<string>(),
};
