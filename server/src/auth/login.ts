import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type { ServerConfig } from '../config';
import type { Database } from '../db/schema';
import { hashPassword, verifyPassword } from '../db/password';
import { loadUserDtos, type UserDto } from '../users/user-dto';
import type { TokenService } from './tokens';

/**
 * The one sign-in procedure behind REST `POST /api/auth/login` and GraphQL `logIn`: throttling per
 * account and address, argon2 verification (unknown e-mails pay for one too, so timing reveals
 * nothing), every attempt recorded, and a new token family on success.
 */

export interface LoginInput {
  email: string;
  password: string;
  /** What the client's IP lookup saw (may be null). */
  ip: string | null;
  /** The connection's own address. */
  remoteAddress: string;
  /**
   * When set (GraphQL, scoped to the path's tenant), a user of another tenant who is not back-office
   * staff is refused exactly like a wrong password.
   */
  tenantId?: number;
}

export type LoginResult =
  | { ok: true; user: UserDto; token: string; expiresIn: number }
  | { ok: false; reason: 'invalid' }
  | { ok: false; reason: 'throttled'; retryAfter: number };

export function createLogin(deps: { db: Kysely<Database>; config: ServerConfig; tokens: TokenService }): (input: LoginInput) => Promise<LoginResult> {
  const { db, config, tokens } = deps;
  // Unknown e-mails still pay for one argon2 verification, so timing does not reveal which exist.
  const dummyHash = hashPassword('not-a-real-password-' + Math.random());

  return async function login(input: LoginInput): Promise<LoginResult> {
    const email = input.email.trim().toLowerCase();
    const address = input.remoteAddress;
    const windowStart = new Date(Date.now() - config.loginWindowSeconds * 1000);
    const failures = await db
      .selectFrom('login_attempts')
      .select([sql<number>`count(*)::int`.as('n'), sql<Date | null>`min(created_at)`.as('oldest')])
      .where('email', '=', email)
      .where('remote_address', '=', address)
      .where('success', '=', false)
      .where('created_at', '>', windowStart)
      .executeTakeFirstOrThrow();
    if (failures.n >= config.loginMaxFailures) {
      const oldest = failures.oldest ? new Date(failures.oldest).getTime() : Date.now();
      const retryAfter = Math.max(1, Math.ceil((oldest + config.loginWindowSeconds * 1000 - Date.now()) / 1000));
      return { ok: false, reason: 'throttled', retryAfter };
    }

    const user = await db
      .selectFrom('users')
      .select(['id', 'tenant_id', 'origin_backoffice', 'password_hash', 'blocked', 'token_version'])
      .where(sql`lower(email)`, '=', email)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    const valid = await verifyPassword(user?.password_hash ?? (await dummyHash), input.password);
    const inTenant = !user || input.tenantId === undefined || user.tenant_id === input.tenantId || user.origin_backoffice;
    const ok = Boolean(user && valid && !user.blocked && inTenant);
    await db
      .insertInto('login_attempts')
      .values({ email, ip: input.ip, remote_address: address, user_id: user?.id ?? null, success: ok })
      .execute();
    if (!ok || !user) return { ok: false, reason: 'invalid' };

    const session = await tokens.issue(user.id, user.token_version);
    const [dto] = await loadUserDtos(db, { ids: [user.id] });
    if (!dto) return { ok: false, reason: 'invalid' };
    return { ok: true, user: dto, token: session.token, expiresIn: session.expiresIn };
  };
}
