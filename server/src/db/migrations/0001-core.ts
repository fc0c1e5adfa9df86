import type { Kysely } from 'kysely';
import { runStatements } from './statements';

/** Tenants, plans, features, roles and permissions, departments, users, instances and connections. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    `create table plans (
      name text primary key check (name in ('starter', 'professional', 'enterprise')),
      display_name text not null,
      default_user_limit integer not null check (default_user_limit >= 1),
      default_ticket_limit integer not null check (default_ticket_limit >= 1)
    )`,
    `insert into plans (name, display_name, default_user_limit, default_ticket_limit) values
      ('starter', 'Inicial', 5, 1000),
      ('professional', 'Profissional', 25, 10000),
      ('enterprise', 'Empresarial', 200, 100000)`,

    `create table feature_options (
      option text primary key check (option ~ '^[a-z][a-z0-9_-]{1,39}$'),
      display_name text not null
    )`,
    `insert into feature_options (option, display_name) values
      ('campaigns', 'Campanhas'),
      ('chat', 'Chat'),
      ('chatbot', 'Chatbot'),
      ('analytics', 'Análises'),
      ('webhooks', 'Webhooks'),
      ('blacklist', 'Contatos bloqueados'),
      ('reports', 'Relatórios')`,

    `create table tenants (
      id serial primary key,
      name text not null constraint tenants_name_key unique
        check (name ~ '^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$'),
      cnpj text not null check (cnpj ~ '^[0-9]{2}\\.[0-9]{3}\\.[0-9]{3}/[0-9]{4}-[0-9]{2}$'),
      cnpj_digits text generated always as (regexp_replace(cnpj, '[^0-9]', '', 'g')) stored,
      template text not null,
      pool text not null,
      plan text not null references plans (name)
        check (plan in ('starter', 'professional', 'enterprise')),
      user_limit integer not null check (user_limit >= 0),
      ticket_limit integer not null check (ticket_limit >= 0),
      created_at timestamptz not null default now(),
      deleted_at timestamptz
    )`,
    `create index tenants_live_idx on tenants (id) where deleted_at is null`,

    `create table tenant_features (
      tenant_id integer not null references tenants (id) on delete cascade,
      option text not null references feature_options (option) on delete cascade,
      enabled boolean not null default false,
      updated_at timestamptz not null default now(),
      primary key (tenant_id, option)
    )`,

    `create table roles (
      id serial primary key,
      name text not null constraint roles_name_key unique check (name ~ '^[a-z0-9_-]{2,40}$'),
      display_name text not null check (length(display_name) between 1 and 80)
    )`,
    `create table permissions (
      id serial primary key,
      route_name text not null constraint permissions_route_name_key unique check (route_name ~ '^[a-z0-9-]{1,64}$'),
      display_name text not null,
      category text not null
    )`,
    `create table role_permissions (
      role_id integer not null references roles (id) on delete cascade,
      permission_id integer not null references permissions (id) on delete cascade,
      primary key (role_id, permission_id)
    )`,
    `create index role_permissions_permission_idx on role_permissions (permission_id)`,

    `create table departments (
      id serial primary key,
      tenant_id integer not null references tenants (id) on delete cascade,
      name text not null,
      activated boolean not null default true,
      constraint departments_tenant_name_key unique (tenant_id, name)
    )`,

    `create table users (
      id serial primary key,
      tenant_id integer not null references tenants (id) on delete cascade,
      role_id integer not null references roles (id),
      department_id integer references departments (id) on delete set null,
      name text not null,
      username text not null,
      email text not null check (position('@' in email) > 1),
      password_hash text not null,
      image text,
      blocked boolean not null default false,
      two_factor_enabled boolean not null default false,
      is_connected boolean not null default false,
      origin_backoffice boolean not null default false,
      token_version integer not null default 0,
      created_at timestamptz not null default now(),
      deleted_at timestamptz
    )`,
    // Case-insensitive uniqueness among live users, so a deleted user's address can be reused.
    `create unique index users_email_lower_key on users (lower(email)) where deleted_at is null`,
    `create index users_tenant_idx on users (tenant_id) where deleted_at is null`,
    `create index users_role_idx on users (role_id)`,

    `create table instances (
      id serial primary key,
      tenant_id integer not null references tenants (id) on delete cascade,
      name text not null,
      activated boolean not null default true,
      is_official boolean not null default false,
      is_unlimited boolean not null default false,
      status text not null default 'idle' check (status in ('idle', 'syncing', 'done', 'failed')),
      sync_progress integer not null default 0 check (sync_progress between 0 and 100),
      synced_messages integer not null default 0 check (synced_messages >= 0),
      total_messages integer check (total_messages >= 0),
      created_at timestamptz not null default now()
    )`,
    `create index instances_tenant_idx on instances (tenant_id)`,

    `create table user_instances (
      id serial primary key,
      user_id integer not null references users (id) on delete cascade,
      instance_id integer not null references instances (id) on delete cascade,
      constraint user_instances_user_instance_key unique (user_id, instance_id)
    )`,
    `create index user_instances_instance_idx on user_instances (instance_id)`,

    `create table connections (
      id serial primary key,
      tenant_id integer not null references tenants (id) on delete cascade,
      instance_id integer not null references instances (id) on delete cascade,
      phone text,
      status text not null default 'disconnected'
        check (status in ('connected', 'connecting', 'disconnected', 'qrcode')),
      last_seen_at timestamptz
    )`,
    `create index connections_tenant_idx on connections (tenant_id)`,
    `create index connections_instance_idx on connections (instance_id)`,
  ]);
}
