import type { Kysely } from 'kysely';
import { runStatements } from './statements';

/** Chat data behind dashboards and sheets, their daily aggregates, and webhook deliveries. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    `create table webhook_deliveries (
      id serial primary key,
      tenant_id integer not null references tenants (id) on delete cascade,
      type text not null check (type in ('sent', 'delivered', 'read', 'failed', 'replied')),
      start_at date not null,
      finish_at date not null,
      deliveries integer not null default 0 check (deliveries >= 0),
      created_by integer references users (id) on delete set null,
      created_at timestamptz not null default now(),
      check (finish_at >= start_at)
    )`,
    `create index webhook_deliveries_tenant_idx on webhook_deliveries (tenant_id, created_at)`,

    `create table analytics_daily (
      tenant_id integer not null references tenants (id) on delete cascade,
      day date not null,
      orders integer not null default 0 check (orders >= 0),
      revenue numeric(14, 2) not null default 0,
      attendances integer not null default 0 check (attendances >= 0),
      tickets_open integer not null default 0 check (tickets_open >= 0),
      tickets_closed integer not null default 0 check (tickets_closed >= 0),
      computed_at timestamptz not null default now(),
      primary key (tenant_id, day)
    )`,

    `create table orders (
      id bigserial primary key,
      tenant_id integer not null references tenants (id) on delete cascade,
      created_at timestamptz not null default now(),
      customer_name text not null,
      website_id integer,
      status text not null check (status in ('pending', 'confirmed', 'delivered', 'cancelled')),
      items integer not null check (items >= 0),
      total numeric(12, 2) not null check (total >= 0)
    )`,
    `create index orders_tenant_created_idx on orders (tenant_id, created_at)`,

    `create table attendances (
      id bigserial primary key,
      tenant_id integer not null references tenants (id) on delete cascade,
      user_id integer references users (id) on delete set null,
      started_at timestamptz not null,
      finished_at timestamptz,
      website_id integer,
      estimation boolean not null default false,
      estimation_value numeric(12, 2) check (estimation_value >= 0),
      first_response_seconds integer check (first_response_seconds >= 0),
      handling_seconds integer check (handling_seconds >= 0),
      ticket_status text not null check (ticket_status in ('open', 'pending', 'closed', 'transferred')),
      check (finished_at is null or finished_at >= started_at)
    )`,
    `create index attendances_tenant_started_idx on attendances (tenant_id, started_at)`,
    `create index attendances_user_started_idx on attendances (user_id, started_at)`,

    `create table instance_logs (
      id bigserial primary key,
      tenant_id integer not null references tenants (id) on delete cascade,
      instance_id integer not null references instances (id) on delete cascade,
      created_at timestamptz not null default now(),
      event text not null
        check (event in ('connected', 'disconnected', 'qrcode', 'sync_started', 'sync_finished', 'error')),
      detail text
    )`,
    `create index instance_logs_tenant_created_idx on instance_logs (tenant_id, created_at)`,
    `create index instance_logs_instance_idx on instance_logs (instance_id)`,

    `create table reasons (
      id serial primary key,
      name text not null constraint reasons_name_key unique
    )`,
    `insert into reasons (name) values
      ('Preço'), ('Falta de estoque'), ('Entrega'), ('Receita médica'), ('Dúvida'), ('Outro')`,

    `create table attendance_reasons (
      id bigserial primary key,
      tenant_id integer not null references tenants (id) on delete cascade,
      reason_id integer not null references reasons (id),
      attendance_id bigint references attendances (id) on delete set null,
      created_at timestamptz not null default now()
    )`,
    `create index attendance_reasons_tenant_created_idx on attendance_reasons (tenant_id, created_at)`,
    `create index attendance_reasons_attendance_idx on attendance_reasons (attendance_id)`,
  ]);
}
