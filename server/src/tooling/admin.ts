import { sql, type Kysely } from 'kysely';
import { isDomainError, isUniqueViolation } from '../base/domain-error';
import { checkEmail, checkName, checkPassword } from '../users/rules';
import { ADMIN_ROLE, ensureBackofficeTenant, ensureRbac } from '../db/catalog';
import { hashPassword } from '../db/password';
import type { Database } from '../db/schema';

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

/** A username from the e-mail's local part that fits the contract's `^[A-Za-z0-9._-]{3,40}$`. */
function usernameFor(email: string): string {
  const local = (email.split('@')[0] ?? '').replace(/[^A-Za-z0-9._-]/g, '').slice(0, 40);
  return local.length >= 3 ? local : `${local}adm`.slice(0, 40).padEnd(3, '0');
}

/** A value the users service's rules (server/src/users/rules.ts) accept, else the command's own refusal. */
function accepted<T>(code: AdminCreateErrorCode, message: (reason: string) => string, check: () => T): T {
  try {
    return check();
  } catch (error) {
    throw isDomainError(error) ? new AdminCreateError(code, message(error.message)) : error;
  }
}

/**
 * Creates a real administrator (role administrador, back-office origin) for `npm run admin:create`.
 * Creates the back-office tenant, the permissions and the built-in roles first when missing, so it
 * works on an empty, freshly migrated database.
 *
 * @returns the new user's id and stored (lower-cased) e-mail
 * @throws AdminCreateError when the input is invalid or a live user already has the e-mail
 */
export async function createAdmin(
  db: Kysely<Database>,
  input: CreateAdminInput,
): Promise<{ id: number; email: string; tenantName: string }> {
  const email = accepted(
    'invalid_email',
    () => `Not a valid e-mail address: "${input.email}"`,
    () => checkEmail(input.email.trim()),
  );
  const name = accepted(
    'invalid_name',
    () => 'The name must have 1 to 120 characters',
    () => checkName(input.name),
  );
  accepted(
    'weak_password',
    (reason) => `The ${reason}`,
    () => checkPassword(input.password),
  );
  const tenantName = input.tenantName ?? 'backoffice';
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
