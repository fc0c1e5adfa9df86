import type { Kysely } from 'kysely';
import { runStatements } from './statements';

/**
 * Campaign-status webhooks for real (docs/webhooks.md).
 *
 * - `webhook_runs`: one generation of one status type for a tenant and a range of days (the table 0003
 *   called `webhook_deliveries`, whose `deliveries` count becomes `total`); `finished_at` is set when its
 *   last delivery settles.
 * - `campaign_messages` and `campaign_message_statuses`: the messages a tenant's campaigns sent and when
 *   each reached each status, seeded by the demo data; a run queues one delivery per message that
 *   reached its type within its range.
 * - `webhook_endpoints`: where a tenant's webhooks go. `secret` and `previous_secret` are encrypted by
 *   the server (the cipher of the two-factor secrets, docs/security.md); `url_key` is the address as the
 *   service normalises it, unique among a tenant's live endpoints. Deleted endpoints stay (soft delete)
 *   for their deliveries' history.
 * - `webhook_deliveries`: the queue and its history. A worker claims due `pending` rows with
 *   `FOR UPDATE SKIP LOCKED`, sets `sending` and `locked_until` (a lease: a process that dies mid-send
 *   leaves the row to be claimed again once the lease ends), and settles it. `idempotency_key` is sent
 *   with every attempt of the delivery so a receiver can drop repeats; `body` is fixed when queued, so a
 *   redelivery sends the same JSON.
 * - `webhook_attempts`: every attempt, with its status code or error and the answer's first bytes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    `alter table webhook_deliveries rename to webhook_runs`,
    `alter table webhook_runs rename column deliveries to total`,
    `alter index webhook_deliveries_tenant_idx rename to webhook_runs_tenant_idx`,
    `alter table webhook_runs add column finished_at timestamptz`,

    `create table campaign_messages (
      id serial primary key,
      tenant_id integer not null references tenants (id) on delete cascade,
      campaign text not null,
      recipient text not null,
      created_at timestamptz not null default now()
    )`,
    `create index campaign_messages_tenant_idx on campaign_messages (tenant_id)`,
    `create table campaign_message_statuses (
      message_id integer not null references campaign_messages (id) on delete cascade,
      tenant_id integer not null references tenants (id) on delete cascade,
      status text not null check (status in ('sent', 'delivered', 'read', 'failed', 'replied')),
      at timestamptz not null,
      primary key (message_id, status)
    )`,
    `create index campaign_message_statuses_tenant_idx on campaign_message_statuses (tenant_id, status, at)`,

    `create table webhook_endpoints (
      id serial primary key,
      tenant_id integer not null references tenants (id) on delete cascade,
      url text not null check (char_length(url) <= 2048),
      url_key text not null,
      types text[] not null check (cardinality(types) between 1 and 5
        and types <@ array['sent', 'delivered', 'read', 'failed', 'replied']),
      description text not null default '' check (char_length(description) <= 200),
      active boolean not null default true,
      secret text not null,
      previous_secret text,
      previous_secret_expires_at timestamptz,
      version integer not null default 1,
      created_by integer references users (id) on delete set null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      deleted_at timestamptz,
      check ((previous_secret is null) = (previous_secret_expires_at is null))
    )`,
    `create unique index webhook_endpoints_url_key on webhook_endpoints (tenant_id, url_key) where deleted_at is null`,

    `create table webhook_deliveries (
      id serial primary key,
      run_id integer not null references webhook_runs (id) on delete cascade,
      tenant_id integer not null references tenants (id) on delete cascade,
      endpoint_id integer not null references webhook_endpoints (id) on delete cascade,
      message_id integer not null references campaign_messages (id) on delete cascade,
      type text not null check (type in ('sent', 'delivered', 'read', 'failed', 'replied')),
      idempotency_key uuid not null unique,
      body text not null,
      state text not null default 'pending'
        check (state in ('pending', 'sending', 'succeeded', 'failed', 'cancelled')),
      attempts integer not null default 0 check (attempts >= 0),
      next_attempt_at timestamptz,
      locked_until timestamptz,
      last_status_code integer,
      last_error text check (last_error in
        ('timeout', 'connection', 'address_refused', 'redirect', 'http_status', 'too_many_requests')),
      created_at timestamptz not null default now(),
      completed_at timestamptz,
      unique (run_id, endpoint_id, message_id),
      check ((state = 'pending') = (next_attempt_at is not null)),
      check ((state = 'sending') = (locked_until is not null))
    )`,
    `create index webhook_deliveries_due_idx on webhook_deliveries (next_attempt_at) where state = 'pending'`,
    `create index webhook_deliveries_lease_idx on webhook_deliveries (locked_until) where state = 'sending'`,
    `create index webhook_deliveries_tenant_idx on webhook_deliveries (tenant_id, id)`,
    `create index webhook_deliveries_run_idx on webhook_deliveries (run_id, state)`,
    `create index webhook_deliveries_endpoint_idx on webhook_deliveries (endpoint_id, id)`,

    `create table webhook_attempts (
      delivery_id integer not null references webhook_deliveries (id) on delete cascade,
      number integer not null check (number >= 1),
      started_at timestamptz not null,
      duration_ms integer not null check (duration_ms >= 0),
      status_code integer check (status_code between 100 and 599),
      error text check (error in
        ('timeout', 'connection', 'address_refused', 'redirect', 'http_status', 'too_many_requests')),
      response_excerpt text not null default '',
      retry_at timestamptz,
      primary key (delivery_id, number)
    )`,
  ]);
}
