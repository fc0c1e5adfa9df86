import type { Kysely } from 'kysely';
import type { Actor } from '../access/caller';
import type { ServerConfig } from '../base/config';
import { invalid, throttled } from '../base/domain-error';
import { verifyPassword } from '../db/password';
import type { Database } from '../db/schema';
import { createAttemptGate, type AttemptGate } from './attempts';

/** One throttle per database, shared by every check of a current password in this process. */
const gates = new WeakMap<Kysely<Database>, AttemptGate>();

/**
 * The caller proves it is still itself before a change only it should make: a new password or a new
 * e-mail of its own (docs/security.md, Credentials and sessions). A stolen session alone cannot take
 * the account over. The check is an attempt of the sign-in throttle (./attempts.ts: reserved before it
 * is made, so a burst of guesses gets no more than the limit), and a wrong password is a failed sign-in
 * of the account from this address, so a session cannot be used to guess the password either.
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
  let gate = gates.get(db);
  if (!gate) gates.set(db, (gate = createAttemptGate(db, config)));
  const user = await db
    .selectFrom('users')
    .select(['email', 'password_hash'])
    .where('id', '=', actor.userId)
    .executeTakeFirstOrThrow();
  const reserved = await gate.reserve({
    email: user.email.toLowerCase(),
    ip: null,
    remoteAddress: actor.origin.address ?? '',
    userId: actor.userId,
  });
  if (!reserved.ok) throw throttled(reserved.retryAfter);
  const attempt = reserved.reservation;
  try {
    if (await verifyPassword(user.password_hash, password)) {
      // A right password decides nothing about signing in: no row, as a right second-factor code.
      await attempt.cancel();
      return;
    }
    await attempt.fail(actor.userId, 'wrong_password');
  } finally {
    await attempt.close();
  }
  throw invalid(field, 'the current password is not right');
}
