import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Actor } from '../access/caller';
import type { ServerConfig } from '../base/config';
import type { Database } from '../db/schema';
import { isBroken } from '../base/broken-promises';

/**
 * Socket tickets (contracts/socket.md §1.1, docs/security.md §4): a browser cannot put a header on a
 * WebSocket handshake, and a URL is kept by proxies, logs and history, so the socket never carries the
 * session token. The SPA asks `POST /api/auth/socket-ticket` (with its token, in a header) for a ticket
 * and opens the socket with it: random, short-lived (`SOCKET_TICKET_TTL`, 30 s), single use, bound to
 * the user and the token family (one sign-in) of the request, and kept only as its SHA-256.
 *
 * Single use holds across processes: redeeming is one `DELETE … RETURNING` on the shared database, so
 * of several connections racing with one ticket exactly one gets its row. Expired tickets are purged
 * as new ones are issued (at most once a minute per process); a redeemed one is gone already.
 */

/** The session a socket belongs to, as the ticket recorded it (times in ms since the epoch). */
export interface SocketSession {
  userId: number;
  familyId: string;
  /** The token's `tv`: a bumped `token_version` (block, delete, password change…) ends the session. */
  tokenVersion: number;
  /** The token's `exp`: when the socket re-checks the session (contracts/socket.md §5, Session life). */
  tokenExpiresAt: number;
  /** The token's `rxp`: after it the session cannot be refreshed, so it is over. */
  refreshUntil: number;
}

/** What the database says of a session now: who it is, and whether it still lives. */
export interface SessionState {
  alive: boolean;
  userId: number;
  tenantId: number;
  tenantName: string;
  roleId: number;
  /** The role's machine name (`administrador` holds every permission). */
  role: string;
  originBackoffice: boolean;
}

/** 32 random bytes, base64url: 43 characters. */
const TICKET = /^[A-Za-z0-9_-]{43}$/;
const PURGE_EVERY_MS = 60_000;

const hashOf = (ticket: string) => createHash('sha256').update(ticket, 'utf8').digest('hex');

export function createSocketTickets(db: Kysely<Database>, config: Pick<ServerConfig, 'socketTicketTtl'>) {
  let lastPurge = 0;

  /** Deletes the tickets whose time is over (never used); answers how many. */
  async function purgeExpired(): Promise<number> {
    const result = await db.deleteFrom('socket_tickets').where('expires_at', '<=', new Date()).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  return {
    /** A new ticket for the actor's session (its user and token family), usable once within the TTL. */
    async issue(actor: Actor): Promise<{ ticket: string; expiresIn: number }> {
      const ticket = randomBytes(32).toString('base64url');
      const now = Date.now();
      await db
        .insertInto('socket_tickets')
        .values({
          hash: hashOf(ticket),
          user_id: actor.userId,
          family_id: actor.claims.fam,
          token_version: actor.claims.tv,
          token_expires_at: new Date(actor.claims.exp * 1000),
          refresh_until: new Date(actor.claims.rxp * 1000),
          expires_at: new Date(now + config.socketTicketTtl * 1000),
        })
        .execute();
      if (now - lastPurge >= PURGE_EVERY_MS) {
        lastPurge = now;
        await purgeExpired();
      }
      return { ticket, expiresIn: config.socketTicketTtl };
    },

    /**
     * Uses a ticket up: its session, or null when it is malformed, unknown, already used or expired.
     * The row is deleted whatever follows, so a ticket never opens a second socket.
     */
    async redeem(ticket: string | null): Promise<SocketSession | null> {
      if (ticket === null || !TICKET.test(ticket)) return null;
      const columns = [
        'user_id',
        'family_id',
        'token_version',
        'token_expires_at',
        'refresh_until',
        'expires_at',
      ] as const;
      const row = isBroken('socket-ticket-reusable')
        ? await db.selectFrom('socket_tickets').select(columns).where('hash', '=', hashOf(ticket)).executeTakeFirst()
        : await db
            .deleteFrom('socket_tickets')
            .where('hash', '=', hashOf(ticket))
            .returning(columns)
            .executeTakeFirst();
      if (!row || row.expires_at.getTime() <= Date.now()) return null;
      return {
        userId: row.user_id,
        familyId: row.family_id,
        tokenVersion: row.token_version,
        tokenExpiresAt: row.token_expires_at.getTime(),
        refreshUntil: row.refresh_until.getTime(),
      };
    },

    purgeExpired,
  };
}

export type SocketTickets = ReturnType<typeof createSocketTickets>;

/** Families read per query: a bounded number of parameters (PostgreSQL allows 65,535), whatever the number of sockets due. */
const FAMILIES_PER_QUERY = 1000;

function stateRows(db: Kysely<Database>, families: readonly string[]) {
  return db
    .selectFrom('token_families as f')
    .innerJoin('users as u', 'u.id', 'f.user_id')
    .innerJoin('tenants as t', 't.id', 'u.tenant_id')
    .innerJoin('roles as r', 'r.id', 'u.role_id')
    .select([
      'f.id as family_id',
      'f.revoked_at',
      'u.id as user_id',
      'u.token_version',
      'u.blocked',
      'u.deleted_at',
      'u.origin_backoffice',
      'u.tenant_id',
      't.name as tenant_name',
      't.deleted_at as tenant_deleted_at',
      'u.role_id',
      'r.name as role_name',
    ])
    .where('f.id', 'in', families)
    .execute();
}

/**
 * The state of several sessions at once, by family (one query per thousand families: the socket
 * server re-checks every socket whose token's life ended in one go). A session lives while its family
 * is not revoked and belongs to its user, the user's `token_version` is the token's, the user is
 * neither blocked nor deleted, the user's tenant is not deleted, and its refresh window is not over —
 * what a refresh of its token would need (server/src/auth/tokens.ts `verify`). Families not found are
 * absent from the answer.
 */
export async function sessionStates(
  db: Kysely<Database>,
  sessions: readonly SocketSession[],
  now: number = Date.now(),
): Promise<Map<string, SessionState>> {
  const states = new Map<string, SessionState>();
  const families = [...new Set(sessions.map((s) => s.familyId))];
  const rows: Awaited<ReturnType<typeof stateRows>> = [];
  for (let i = 0; i < families.length; i += FAMILIES_PER_QUERY)
    rows.push(...(await stateRows(db, families.slice(i, i + FAMILIES_PER_QUERY))));
  const byFamily = new Map(rows.map((row) => [row.family_id, row]));
  for (const session of sessions) {
    const row = byFamily.get(session.familyId);
    if (!row) continue;
    states.set(session.familyId, {
      alive:
        row.user_id === session.userId &&
        row.revoked_at === null &&
        !row.blocked &&
        row.deleted_at === null &&
        row.token_version === session.tokenVersion &&
        row.tenant_deleted_at === null &&
        session.refreshUntil > now,
      userId: row.user_id,
      tenantId: row.tenant_id,
      tenantName: row.tenant_name,
      roleId: row.role_id,
      role: row.role_name,
      originBackoffice: row.origin_backoffice,
    });
  }
  return states;
}
