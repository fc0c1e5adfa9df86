import { isIP } from 'node:net';
import type { Kysely, Transaction } from 'kysely';
import { sql } from 'kysely';
import type { ServerConfig } from '../base/config';
import type { Database } from '../db/schema';
import type { SignInFailureReason } from '../base/sign-in-reasons';

/**
 * The sign-in throttle (docs/security.md §2, Throttling): every password or second-factor check is an
 * attempt, reserved before it is made and resolved after.
 *
 * - **Reserved first.** Under a transaction-level advisory lock on the e-mail and one on the address key
 *   (always in that order, so two reservations cannot wait on each other), the failures in the window are
 *   counted and, when no limit is reached, the attempt's `login_attempts` row is written with `success`
 *   null. Until it resolves it counts as a failure, so N attempts at once get at most the limit checked,
 *   on PostgreSQL with any number of connections and processes as on PGlite.
 * - **Waiting, not refusing, for attempts in flight.** When only unresolved reservations make up the
 *   limit, the newcomer waits for them (woken when one in this process resolves, else polling) and counts
 *   again: a burst of right passwords all get in, a burst of wrong ones stops at the limit.
 * - **Never locked for good.** A reservation left unresolved (a process that died mid-check) stops being
 *   "in flight" after {@link IN_FLIGHT_MS}: from then on it is a plain failure, which leaves the window
 *   like any other.
 * - **Limits**, in `LOGIN_WINDOW_SECONDS`: `LOGIN_MAX_FAILURES` per (e-mail, address key) and
 *   `LOGIN_MAX_FAILURES_PER_ADDRESS` per address key, each refusing until its oldest failure leaves the
 *   window; `LOGIN_MAX_FAILURES_PER_ACCOUNT` per e-mail across every address, past which each attempt
 *   waits `LOGIN_BACKOFF_SECONDS` after the last failure, doubled per further failure, at most the window.
 *   E-mails are counted whether or not an account has them, so the answers say nothing about which exist.
 * - **What counts** is `throttle_counted` (migration 0019): an attempt in flight, or a failure of the
 *   credentials (server/src/base/sign-in-reasons.ts `THROTTLE_COUNTED_REASONS`) that the support desk did
 *   not lift (`lifted_at`, server/src/support/service.ts). Every attempt says why it failed (`reason`);
 *   a sign-in the throttle refuses is recorded too (`throttled`), but not counted again.
 */

/** An unresolved reservation younger than this is an attempt in flight; older, a failure. */
export const IN_FLIGHT_MS = 30_000;
/** The longest an attempt waits for attempts in flight before it is refused. */
export const MAX_WAIT_MS = 10_000;
/** How often a waiting attempt counts again when nothing in this process woke it (another process's attempt). */
const POLL_MS = 100;

/**
 * The key an address is counted by: an IPv4 address as is, an IPv4-mapped IPv6 address
 * (`::ffff:192.0.2.1`) as its IPv4, any other IPv6 address by its /64 (`2001:db8:0:1::/64`), the block a
 * subscriber is given. Anything else (not an address) as is.
 */
export function addressKey(address: string): string {
  if (isIP(address) === 4) return address;
  const groups = ipv6Groups(address);
  if (!groups) return address;
  const [a = 0, b = 0, c = 0, d = 0, e = 0, f = 0, g = 0, h = 0] = groups;
  if (a === 0 && b === 0 && c === 0 && d === 0 && e === 0 && f === 0xffff)
    return [g >> 8, g & 0xff, h >> 8, h & 0xff].join('.');
  return `${[a, b, c, d].map((group) => group.toString(16)).join(':')}::/64`;
}

/** The eight 16-bit groups of an IPv6 address (a zone index ignored), or null when it is not one. */
function ipv6Groups(address: string): number[] | null {
  const plain = address.split('%')[0] ?? '';
  if (isIP(plain) !== 6) return null;
  // A dotted IPv4 tail is the last two groups.
  const text = plain.replace(/(\d+)\.(\d+)\.(\d+)\.(\d+)$/, (_all, p, q, r, s) =>
    [(Number(p) << 8) | Number(q), (Number(r) << 8) | Number(s)].map((group) => group.toString(16)).join(':'),
  );
  const parse = (part: string | undefined) => (part ? part.split(':').map((group) => parseInt(group, 16)) : []);
  const [head, tail] = text.split('::');
  if (tail === undefined) return parse(head);
  const first = parse(head);
  const last = parse(tail);
  return [...first, ...Array<number>(8 - first.length - last.length).fill(0), ...last];
}

/** Failures (resolved or not) of one scope in the window: how many, the oldest and the newest (ms). */
export interface Failures {
  n: number;
  oldest: number | null;
  newest: number | null;
}

/** The three scopes counted for one attempt. */
export interface Scopes {
  /** This e-mail from this address key. */
  pair: Failures;
  /** This address key, every e-mail. */
  address: Failures;
  /** This e-mail, every address. */
  account: Failures;
}

export type ThrottleLimits = Pick<
  ServerConfig,
  | 'loginMaxFailures'
  | 'loginMaxFailuresPerAddress'
  | 'loginMaxFailuresPerAccount'
  | 'loginBackoffSeconds'
  | 'loginWindowSeconds'
>;

/**
 * The wait past the per-account ceiling after `failures` failures: the back-off doubled per failure past
 * the ceiling, at most the window; 0 below the ceiling.
 */
export function backoffMs(limits: ThrottleLimits, failures: number): number {
  if (failures < limits.loginMaxFailuresPerAccount) return 0;
  const doublings = Math.min(failures - limits.loginMaxFailuresPerAccount, 52);
  return Math.min(limits.loginBackoffSeconds * 1000 * 2 ** doublings, limits.loginWindowSeconds * 1000);
}

/** Seconds until an attempt with these failures counted is accepted (at least 1), or null: accepted now. */
export function retryAfter(limits: ThrottleLimits, scopes: Scopes, now: number): number | null {
  const windowMs = limits.loginWindowSeconds * 1000;
  const untils: number[] = [];
  const flat = (failures: Failures, limit: number) => {
    if (failures.n >= limit) untils.push((failures.oldest ?? now) + windowMs);
  };
  flat(scopes.pair, limits.loginMaxFailures);
  flat(scopes.address, limits.loginMaxFailuresPerAddress);
  const backoff = backoffMs(limits, scopes.account.n);
  if (backoff > 0) untils.push((scopes.account.newest ?? now) + backoff);
  const until = Math.max(...untils.filter((at) => at > now));
  return Number.isFinite(until) ? Math.max(1, Math.ceil((until - now) / 1000)) : null;
}

/** Who attempts: the e-mail as typed (lower-cased here), the addresses, the user when known. */
export interface AttemptOf {
  email: string;
  /** What the client's IP lookup saw (may be null). */
  ip: string | null;
  /** The connection's own address: stored as is, counted by its {@link addressKey}. */
  remoteAddress: string;
  userId: number | null;
}

/** A reserved attempt: resolve it once its check is done. */
export interface Reservation {
  /** The check passed (a sign-in): the row becomes a success. */
  succeed(userId: number | null): Promise<void>;
  /**
   * The check failed, for `reason`: the row becomes a failure. Whether the throttle counts it follows the
   * reason (server/src/base/sign-in-reasons.ts); the login-failure report shows it unless the reason is
   * one recorded only since migration 0019 (a sign-in step).
   */
  fail(userId: number | null, reason: SignInFailureReason): Promise<void>;
  /** Nothing was decided (a right password that still needs its code, a right code outside sign-in): no row. */
  cancel(): Promise<void>;
  /**
   * Called when the work around the check ends, however: an attempt still unresolved (the work threw)
   * becomes a failure, so an error is never a free check. Best effort: if even that cannot be written,
   * the reservation counts as in flight, then as a failure, until it leaves the window.
   */
  close(): Promise<void>;
}

export type Reserved = { ok: true; reservation: Reservation } | { ok: false; retryAfter: number };

/** The throttle of one database, shared by sign-in and the second-factor routes of one server process. */
export interface AttemptGate {
  /**
   * Reserves an attempt, waiting for attempts in flight when only they stand in the way, or says how long
   * to wait. A refusal is recorded as a `throttled` attempt when `recordRefusal` (sign-in: the support desk
   * shows it), which the throttle does not count.
   */
  reserve(attempt: AttemptOf, options?: { recordRefusal?: boolean }): Promise<Reserved>;
}

type Counted = { counted: { all: Scopes; settled: Scopes }; at: number; inFlightOldest: number | null };

export function createAttemptGate(db: Kysely<Database>, config: ThrottleLimits): AttemptGate {
  // Attempts waiting in this process, by e-mail and address key: woken when an attempt of theirs resolves.
  const waiting = new Map<string, Set<() => void>>();
  const wake = (keys: readonly string[]) => {
    for (const key of keys) for (const resume of waiting.get(key) ?? []) resume();
  };
  const listen = (keys: readonly string[]) => {
    let resume = () => {};
    const woken = new Promise<void>((resolve) => (resume = resolve));
    for (const key of keys) waiting.set(key, (waiting.get(key) ?? new Set()).add(resume));
    const stop = () => {
      for (const key of keys) {
        const set = waiting.get(key);
        set?.delete(resume);
        if (set?.size === 0) waiting.delete(key);
      }
    };
    return { woken, stop };
  };

  async function count(trx: Transaction<Database>, email: string, key: string): Promise<Counted> {
    // Keyed by schema too: apps sharing a database in schemas of their own (the tests') never wait on each other.
    await sql`select pg_advisory_xact_lock(1, hashtext(current_schema() || ':' || ${email}))`.execute(trx);
    await sql`select pg_advisory_xact_lock(2, hashtext(current_schema() || ':' || ${key}))`.execute(trx);
    // After the locks: the statement's own time is the reservation's, and what the window ends at.
    const { rows: found } = await sql<{
      at: Date;
      of_account: boolean | null;
      of_address: boolean | null;
      in_flight: boolean | null;
      n: number | null;
      oldest: Date | null;
      newest: Date | null;
    }>`
      select now.at, f.*
      from (select statement_timestamp() as at) now
      left join lateral (
        select email = ${email} as of_account, address_key is not distinct from ${key} as of_address,
               (success is null and created_at > now.at - ${IN_FLIGHT_MS} * interval '1 millisecond') as in_flight,
               count(*)::int as n, min(created_at) as oldest, max(created_at) as newest
        from login_attempts
        where (email = ${email} or address_key = ${key})
          and throttle_counted
          and created_at > now.at - ${config.loginWindowSeconds} * interval '1 second'
        group by 1, 2, 3
      ) f on true`.execute(trx);
    const at = new Date(found[0]?.at ?? Date.now()).getTime();
    const rows = found.flatMap((row) =>
      row.n === null || row.oldest === null || row.newest === null
        ? []
        : [
            {
              ofAccount: row.of_account === true,
              ofAddress: row.of_address === true,
              inFlight: row.in_flight === true,
              n: row.n,
              oldest: new Date(row.oldest).getTime(),
              newest: new Date(row.newest).getTime(),
            },
          ],
    );
    type Row = (typeof rows)[number];
    const scopes = (settledOnly: boolean): Scopes => {
      const sum = (keep: (row: Row) => boolean): Failures => {
        const kept = rows.filter((row) => keep(row) && !(settledOnly && row.inFlight));
        return {
          n: kept.reduce((total, row) => total + row.n, 0),
          oldest: kept.length ? Math.min(...kept.map((row) => row.oldest)) : null,
          newest: kept.length ? Math.max(...kept.map((row) => row.newest)) : null,
        };
      };
      return {
        pair: sum((row) => row.ofAccount && row.ofAddress),
        address: sum((row) => row.ofAddress),
        account: sum((row) => row.ofAccount),
      };
    };
    const inFlight = rows.filter((row) => row.inFlight).map((row) => row.oldest);
    return {
      counted: { all: scopes(false), settled: scopes(true) },
      at,
      inFlightOldest: inFlight.length ? Math.min(...inFlight) : null,
    };
  }

  function reservationOf(id: number, keys: readonly string[]): Reservation {
    let open = true;
    const settle = async (write: () => Promise<unknown>) => {
      if (!open) return;
      open = false;
      try {
        await write();
      } finally {
        wake(keys);
      }
    };
    const resolve = (success: boolean, userId?: number | null, reason: SignInFailureReason | null = null) =>
      settle(() =>
        db
          .updateTable('login_attempts')
          .set(userId === undefined ? { success, reason } : { success, reason, user_id: userId })
          .where('id', '=', id)
          .execute(),
      );
    return {
      succeed: (userId) => resolve(true, userId),
      fail: (userId, reason) => resolve(false, userId, reason),
      cancel: () => settle(() => db.deleteFrom('login_attempts').where('id', '=', id).execute()),
      async close() {
        try {
          await resolve(false);
        } catch {
          // Left unresolved: in flight for IN_FLIGHT_MS, then a failure until it leaves the window.
        }
      },
    };
  }

  /** A refused sign-in, for the record (not counted: `throttled`); best effort, as the refusal stands anyway. */
  async function recordRefusal(attempt: AttemptOf, email: string, key: string): Promise<void> {
    try {
      await db
        .insertInto('login_attempts')
        .values({
          email,
          ip: attempt.ip,
          remote_address: attempt.remoteAddress,
          address_key: key,
          user_id: attempt.userId,
          success: false,
          reason: 'throttled',
        })
        .execute();
    } catch {
      // The refusal is answered whether or not its record could be written.
    }
  }

  return {
    async reserve(attempt, options = {}) {
      const email = attempt.email.trim().toLowerCase();
      const key = addressKey(attempt.remoteAddress);
      const keys = [`e:${email}`, `a:${key}`];
      const deadline = Date.now() + MAX_WAIT_MS;
      for (;;) {
        // Listening before counting: an attempt that resolves between the count and the wait still wakes us.
        const signal = listen(keys);
        try {
          const outcome = await db.transaction().execute(async (trx) => {
            const { counted, at, inFlightOldest } = await count(trx, email, key);
            if (retryAfter(config, counted.all, at) === null) {
              const row = await trx
                .insertInto('login_attempts')
                .values({
                  email,
                  ip: attempt.ip,
                  remote_address: attempt.remoteAddress,
                  address_key: key,
                  user_id: attempt.userId,
                  success: null,
                  created_at: new Date(at),
                })
                .returning('id')
                .executeTakeFirstOrThrow();
              return { kind: 'reserved', id: Number(row.id) } as const;
            }
            const settled = retryAfter(config, counted.settled, at);
            if (settled !== null) return { kind: 'refused', retryAfter: settled } as const;
            // Only attempts in flight stand in the way: wait for them, at most until they stop counting as such.
            const inFlightEnds = (inFlightOldest ?? at) + IN_FLIGHT_MS;
            return { kind: 'wait', retryAfter: Math.max(1, Math.ceil((inFlightEnds - at) / 1000)) } as const;
          });
          if (outcome.kind === 'reserved') return { ok: true, reservation: reservationOf(outcome.id, keys) };
          const left = deadline - Date.now();
          if (outcome.kind === 'refused' || left <= 0) {
            if (options.recordRefusal) await recordRefusal(attempt, email, key);
            return { ok: false, retryAfter: outcome.retryAfter };
          }
          let timer: NodeJS.Timeout | undefined;
          await Promise.race([
            signal.woken,
            new Promise<void>((resolve) => (timer = setTimeout(resolve, Math.min(POLL_MS, left)))),
          ]);
          clearTimeout(timer);
        } finally {
          signal.stop();
        }
      }
    },
  };
}
