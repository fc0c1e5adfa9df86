import type { Kysely } from 'kysely';
import { runStatements } from './statements';

/**
 * Socket tickets (contracts/socket.md §1.1; server/src/auth/socket-tickets.ts): the socket authenticates
 * with a short single-use ticket instead of the session token, so the token never travels in a URL.
 *
 * A ticket is kept only as its SHA-256 (hex), with the session it was issued from (user, token family,
 * the token's `token_version`, expiry and refresh window), so the socket can re-check that session when
 * the token's life ends. Single use across processes: redeeming is one `DELETE … RETURNING`, which
 * exactly one of several racing connections gets. Expired tickets are deleted as new ones are issued
 * (`socket_tickets_expires_idx`), and a ticket goes with its user or its token family.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    `create table socket_tickets (
      hash text primary key,
      user_id integer not null references users (id) on delete cascade,
      family_id text not null references token_families (id) on delete cascade,
      token_version integer not null,
      token_expires_at timestamptz not null,
      refresh_until timestamptz not null,
      expires_at timestamptz not null,
      created_at timestamptz not null default now()
    )`,
    `create index socket_tickets_expires_idx on socket_tickets (expires_at)`,
    `create index socket_tickets_family_idx on socket_tickets (family_id)`,
    `create index socket_tickets_user_idx on socket_tickets (user_id)`,
  ]);
}
