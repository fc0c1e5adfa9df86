import type { Kysely } from 'kysely';
import { runStatements } from './statements';

/**
 * The audit log (docs/product.md, Audit log; server/src/audit/): one row per successful change, sign-in,
 * sign-out, refresh-token reuse and permission denial, written in the transaction of the change.
 *
 * Rows are immutable: a trigger refuses every UPDATE and TRUNCATE, and every DELETE except the
 * retention purge's, which sets `panel.audit_purge` to `on` for its own transaction
 * (server/src/audit/retention.ts). Names of the actor, tenant and target are copied when written, so a
 * record still reads right after a rename or delete.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    `create table audit_log (
      id integer generated always as identity primary key,
      at timestamptz not null default now(),
      actor_user_id integer,
      actor_name text,
      actor_email text,
      actor_tenant_id integer,
      actor_tenant_name text,
      address text,
      request_id text,
      operation text not null,
      target_type text not null,
      target_id integer,
      target_name text,
      tenant_id integer,
      tenant_name text,
      changes jsonb not null default '[]'::jsonb
    )`,
    // Reads go newest first by id (server/src/audit/repository.ts): one index per filter, ending in id, so
    // a page is the first rows of an index scan; `at` alone serves time windows and the retention purge.
    // EXPLAIN on 120,000 records (docs/operations.md, Audit log): every filter shape reads well under a millisecond.
    `create index audit_log_at_idx on audit_log (at)`,
    `create index audit_log_tenant_idx on audit_log (tenant_id, id desc)`,
    `create index audit_log_actor_idx on audit_log (actor_user_id, id desc)`,
    `create index audit_log_target_idx on audit_log (target_type, target_id, id desc)`,
    `create index audit_log_operation_idx on audit_log (operation, id desc)`,
    `create function audit_log_immutable() returns trigger language plpgsql as $$
      begin
        if tg_op = 'DELETE' and coalesce(current_setting('panel.audit_purge', true), '') = 'on' then
          return old;
        end if;
        raise exception 'audit records cannot be changed or deleted' using errcode = 'insufficient_privilege';
      end
    $$`,
    `create trigger audit_log_immutable_rows before update or delete on audit_log
      for each row execute function audit_log_immutable()`,
    `create trigger audit_log_immutable_truncate before truncate on audit_log
      for each statement execute function audit_log_immutable()`,
  ]);
}
