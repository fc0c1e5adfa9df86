import type { Kysely } from 'kysely';
import type { Actor } from '../access/caller';
import type { ServerConfig } from '../base/config';
import { invalid, throttled as throttledError } from '../base/domain-error';
import { verifyPassword } from '../db/password';
import type { Database } from '../db/schema';
import { recordAttempt, throttled } from './login';

/**
 * The caller proves it is still itself before a change only it should make: a new password or a new
 * e-mail of its own (docs/security.md, Credentials and sessions). A stolen session alone cannot take
 * the account over. The check runs under the sign-in throttle, and a wrong password counts as a failed
 * sign-in of the account from this address, so a session cannot be used to guess the password either.
 * `field` names the input at fault, as the contracts do (`current_password`).
 */
export async function assertCurrentPassword(
  db: Kysely<Database>,
  config: ServerConfig,
  actor: Actor,
  password: string | null | undefined,
  field = 'current_password',
): Promise<void> {
  if (password === undefined || password === null || password === '')
    throw invalid(field, 'your current password is required for this change');
  const user = await db
    .selectFrom('users')
    .select(['email', 'password_hash'])
    .where('id', '=', actor.userId)
    .executeTakeFirstOrThrow();
  const email = user.email.toLowerCase();
  const address = actor.origin.address ?? '';
  const wait = await throttled(db, config, email, address);
  if (wait !== null) throw throttledError(wait);
  if (await verifyPassword(user.password_hash, password)) return;
  await recordAttempt(db, { email, ip: null, remoteAddress: address, userId: actor.userId, success: false });
  throw invalid(field, 'the current password is not right');
}
