import { sql, type Kysely } from 'kysely';
import { passwordRefusal } from '../users/password-policy';
import { ADMIN_ROLE, ensureBackofficeTenant, ensureRbac } from './catalog';
import { hashPassword } from './password';
import type { Database } from './schema';

export type AdminCreateErrorCode = 'invalid_email' | 'invalid_name' | 'weak_password' | 'email_exists';

/** A refusal `npm run admin:create` should print as-is (no stack trace). */
export class AdminCreateError extends Error {
  constructor(
    readonly code: AdminCreateErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'AdminCreateError';
  }
}

export interface CreateAdminInput {
  email: string;
  password: string;
  name: string;
  /** Staff home tenant, created if missing (default `backoffice`). */
  tenantName?: string;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** A username from the e-mail's local part that fits the contract's `^[A-Za-z0-9._-]{3,40}$`. */
function usernameFor(email: string): string {
  const local = (email.split('@')[0] ?? '').replace(/[^A-Za-z0-9._-]/g, '').slice(0, 40);
  return local.length >= 3 ? local : `${local}adm`.slice(0, 40).padEnd(3, '0');
}

/**
 * Creates a real administrator (role administrador, back-office origin) for `npm run admin:create`.
 * Creates the back-office tenant, the permissions and the built-in roles first when missing, so it
 * works on an empty, freshly migrated database.
 *
 * @returns the new user's id and stored (lower-cased) e-mail
 * @throws AdminCreateError when the input is invalid or a live user already has the e-mail
 */
export async function createAdmin(db: Kysely<Database>, input: CreateAdminInput): Promise<{ id: number; email: string; tenantName: string }> {
  const email = input.email.trim().toLowerCase();
  const name = input.name.trim();
  const tenantName = input.tenantName ?? 'backoffice';
  if (!EMAIL.test(email) || email.length > 254) throw new AdminCreateError('invalid_email', `Not a valid e-mail address: "${input.email}"`);
  if (name.length < 1 || name.length > 120) throw new AdminCreateError('invalid_name', 'The name must have 1 to 120 characters');
  const refusal = passwordRefusal(input.password);
  if (refusal) {
    throw new AdminCreateError('weak_password', `The ${refusal}`);
  }
  // Hash before the transaction: on PGlite the transaction holds the only connection.
  const passwordHash = await hashPassword(input.password);
  const exists = () => new AdminCreateError('email_exists', `A user with e-mail ${email} already exists`);

  try {
    return await db.transaction().execute(async (trx) => {
      const taken = await trx
        .selectFrom('users')
        .select('id')
        .where(sql<string>`lower(email)`, '=', email)
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
      if (taken) throw exists();
      const tenantId = await ensureBackofficeTenant(trx, tenantName);
      const roles = await ensureRbac(trx);
      const roleId = roles.get(ADMIN_ROLE);
      if (roleId === undefined) throw new Error('role administrador missing after ensureRbac');
      const { id } = await trx
        .insertInto('users')
        .values({
          tenant_id: tenantId,
          role_id: roleId,
          name,
          username: usernameFor(email),
          email,
          password_hash: passwordHash,
          origin_backoffice: true,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return { id, email, tenantName };
    });
  } catch (error) {
    // Another process created the same address between our check and insert.
    if (isUniqueViolation(error)) throw exists();
    throw error;
  }
}

function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'code' in error && (error as { code: unknown }).code === '23505';
}
