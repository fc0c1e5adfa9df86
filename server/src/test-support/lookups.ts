import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { NOT_REPORTED_REASONS } from '../base/sign-in-reasons';

/**
 * Reads of the database that protocol tests (server/src/graphql/, server/src/rest/) check their
 * answers against, kept here so the adapter folders hold no SQL of their own.
 */

export async function failedLoginCount(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom('login_attempts')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('success', '=', false)
    // As the login-failure report counts them (server/src/reports/sheets.ts): sign-in steps are no failure.
    .where((eb) => eb.or([eb('reason', 'is', null), eb('reason', 'not in', [...NOT_REPORTED_REASONS])]))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function someDeletedTenantName(db: Kysely<Database>): Promise<string> {
  return (await db.selectFrom('tenants').select('name').where('deleted_at', 'is not', null).executeTakeFirstOrThrow())
    .name;
}

/** A live customer-tenant user (not staff) who can sign in with a password alone: id, e-mail and tenant. */
export function someCustomerUser(db: Kysely<Database>) {
  return (
    db
      .selectFrom('users as u')
      .innerJoin('tenants as t', 't.id', 'u.tenant_id')
      .select(['u.id', 'u.email', 't.name as tenant', 't.id as tenantId'])
      .where('u.origin_backoffice', '=', false)
      .where('u.blocked', '=', false)
      // Seeded users with two-factor on need a code nobody holds.
      .where('u.two_factor_enabled', '=', false)
      .where('u.deleted_at', 'is', null)
      .where('t.deleted_at', 'is', null)
      .orderBy('u.id')
      .executeTakeFirstOrThrow()
  );
}

export async function roleId(db: Kysely<Database>, name: string): Promise<number> {
  return (await db.selectFrom('roles').select('id').where('name', '=', name).executeTakeFirstOrThrow()).id;
}

export async function tenantId(db: Kysely<Database>, name: string): Promise<number> {
  return (await db.selectFrom('tenants').select('id').where('name', '=', name).executeTakeFirstOrThrow()).id;
}

export async function someDepartmentOf(db: Kysely<Database>, tenant: number): Promise<number> {
  return (await db.selectFrom('departments').select('id').where('tenant_id', '=', tenant).executeTakeFirstOrThrow()).id;
}

export async function instanceIdsOf(db: Kysely<Database>, tenant: number): Promise<number[]> {
  return (await db.selectFrom('instances').select('id').where('tenant_id', '=', tenant).orderBy('id').execute()).map(
    (r) => r.id,
  );
}

/** An instance of any tenant but the named one. */
export async function someInstanceOutside(db: Kysely<Database>, tenantName: string): Promise<number> {
  return (
    await db
      .selectFrom('instances as i')
      .innerJoin('tenants as t', 't.id', 'i.tenant_id')
      .select('i.id')
      .where('t.name', '!=', tenantName)
      .executeTakeFirstOrThrow()
  ).id;
}

export async function userIdByEmail(db: Kysely<Database>, email: string): Promise<number> {
  return (await db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id;
}

export async function isConnected(db: Kysely<Database>, userId: number): Promise<boolean> {
  return (await db.selectFrom('users').select('is_connected').where('id', '=', userId).executeTakeFirstOrThrow())
    .is_connected;
}
