/**
 * Who calls a service (docs/architecture.md, Floors and Who may do what): every service operation
 * takes its caller as the first argument and checks its policy (./policies.ts) before anything else,
 * whichever adapter called it (REST, GraphQL, the socket, the server's own jobs).
 *
 * Floor 2: nothing here knows Fastify, GraphQL or SQL.
 */

/** Where a call came from: the request's id and the client's address, as the trusted proxies tell them. */
export interface Origin {
  requestId: string | null;
  address: string | null;
  /**
   * The bulk run a change belongs to (docs/lists.md, Bulk actions): the id of the batch's audit record,
   * written on each row's record (server/src/audit/trail.ts, `audit_log.batch_id`). Absent outside one.
   */
  batchId?: number;
}

/** The claims of a session token (server/src/auth/tokens.ts; docs/security.md §1). */
export interface SessionClaims {
  /** user id */
  sub: string;
  /** family id: one sign-in */
  fam: string;
  jti: string;
  /** the user's token_version when issued: bumping it revokes every token of the user at once */
  tv: number;
  /** end of the refresh window (seconds since epoch), fixed at sign-in and kept through rotations */
  rxp: number;
  iat: number;
  exp: number;
}

/** A signed-in user, resolved once per request from its token and its stored role and tenant. */
export interface Actor {
  kind: 'user';
  userId: number;
  tenantId: number;
  tenantName: string;
  roleId: number;
  /** The role's machine name (`administrador`, `operador`, …). */
  role: string;
  /** Back-office staff: a user of the back-office tenant (BACKOFFICE_TENANT). */
  originBackoffice: boolean;
  /** The route permissions the role holds; `administrador` holds the whole catalogue. */
  permissions: ReadonlySet<string>;
  claims: SessionClaims;
  origin: Origin;
}

/** Nobody signed in: only operations whose policy is `anyone` (signing in, the health checks). */
export interface Anonymous {
  kind: 'anonymous';
  origin: Origin;
}

/** The server acting on its own (retention purge, demo activity, `npm run admin:create`). */
export interface ServerCaller {
  kind: 'server';
  /** What acts, for the logs: `audit-purge`, `demo-activity`, `admin-create`… */
  job: string;
  origin: Origin;
}

export type Caller = Actor | Anonymous | ServerCaller;

export const NO_ORIGIN: Origin = Object.freeze({ requestId: null, address: null });

export function anonymous(origin: Origin = NO_ORIGIN): Anonymous {
  return { kind: 'anonymous', origin };
}

/** The server itself, running `job`: never built from a request (docs/security.md, Who may do what). */
export function serverCaller(job: string): ServerCaller {
  return { kind: 'server', job, origin: NO_ORIGIN };
}

export function isActor(caller: Caller): caller is Actor {
  return caller.kind === 'user';
}
