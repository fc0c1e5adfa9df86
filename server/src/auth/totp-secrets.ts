import { parseTotpEncryptionKey, TOTP_KEY_BYTES } from '../base/totp-key';
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type { ServerConfig } from '../base/config';
import type { Database } from '../db/schema';
import { base32Decode } from './totp';
import { processLog } from '../base/log';

/**
 * TOTP secrets at rest (docs/security.md §2). The server has to read a secret back to check a code,
 * so it cannot be hashed like a password; it is encrypted instead, with AES-256-GCM under a server key:
 * `TOTP_ENCRYPTION_KEY`, else a random key generated once and kept in `server_secrets` so every process
 * of a deployment shares it.
 *
 * Stored form: `v1:<key id>:<iv>:<ciphertext‖tag>` (base64url parts). `v1` names the scheme (AES-256-GCM,
 * 12-byte random IV, 16-byte tag); the key id is a fingerprint of the key, so a value encrypted under
 * another key is recognised as such (a clear log line instead of a bare authentication failure) and a
 * later rotation can tell which rows still need re-encrypting. The additional authenticated data is the
 * scheme, the key id, the column and the user id: a value copied into another user's row, or from the
 * pending column into the enrolled one, fails authentication like a tampered one.
 *
 * A value that does not decrypt is "no usable secret" for the caller (a login answers
 * invalid_two_factor_code, never a 500); it is logged once per process with the user id, never with
 * the secret or the stored value.
 */

export type TotpSecretColumn = 'two_factor_secret' | 'two_factor_pending_secret';

/** Why a stored value could not be used. */
export type TotpSecretFailure =
  /** Not `v1:<key id>:<iv>:<ciphertext>`: not a value this server writes (unknown version, plain text). */
  | 'format'
  /** Encrypted under another key than the configured one. */
  | 'key'
  /** The GCM tag does not verify: the value was altered, or copied from another user or column. */
  | 'authentication'
  /** Decrypts, but not to a base32 TOTP secret. */
  | 'content';

/** What the cipher needs of a logger; Fastify's (pino) fits. */
export interface TotpSecretLog {
  error(fields: Record<string, unknown>, message: string): void;
}

const consoleLog: TotpSecretLog = {
  error: (fields, message) => processLog.error(fields, message),
};

const SCHEME = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** Distinct failures remembered for "log once"; past this the memory is cleared rather than grown. */
const REPORTED_LIMIT = 10_000;

/**
 * Rows holding a value that is not in a versioned stored form (`v<n>:…`), i.e. a plain base32 secret.
 * Kept textually identical to the predicate of the partial index of migration 0009, so the startup
 * step's query can use that index. A base32 secret never contains `:`, so it never matches `^v[0-9]+:`.
 */
export const PLAIN_TOTP_SECRET_ROWS = `two_factor_secret !~ '^v[0-9]+:' or two_factor_pending_secret !~ '^v[0-9]+:'`;
const isPlain = (value: string | null): value is string => value !== null && !/^v[0-9]+:/.test(value);

/** A short public fingerprint of a key (48 bits of a SHA-256 over a label and the key). */
export function totpKeyId(key: Uint8Array): string {
  return createHash('sha256').update('totp-secret-key-id\u0000').update(key).digest('base64url').slice(0, 8);
}

export class TotpSecretCipher {
  readonly keyId: string;
  private readonly key: Buffer;
  private readonly reported = new Set<string>();

  constructor(
    key: Uint8Array,
    private readonly log: TotpSecretLog = consoleLog,
  ) {
    if (key.length !== TOTP_KEY_BYTES)
      throw new Error(`a TOTP encryption key has ${String(TOTP_KEY_BYTES)} bytes, got ${String(key.length)}`);
    this.key = Buffer.from(key);
    this.keyId = totpKeyId(this.key);
  }

  private aad(keyId: string, userId: number, column: TotpSecretColumn): Buffer {
    return Buffer.from(`${SCHEME}:${keyId}:users.${column}:${String(userId)}`, 'utf8');
  }

  /** The stored form of `secret` for `column` of user `userId`; a fresh random IV every time. */
  encrypt(userId: number, column: TotpSecretColumn, secret: string): string {
    return this.seal(this.aad(this.keyId, userId, column), secret);
  }

  /**
   * The stored form of another server-read secret (a webhook endpoint's signing secret,
   * server/src/webhooks/secrets.ts), bound to `context` (its table and row, e.g. `webhook_endpoints:12`):
   * the same scheme, key and stored form as a TOTP secret, so the key's handling covers both.
   */
  encryptFor(context: string, secret: string): string {
    return this.seal(Buffer.from(`${SCHEME}:${this.keyId}:${context}`, 'utf8'), secret);
  }

  /** The secret `encryptFor(context, …)` stored, or null when it does not open (another key, another row, altered). */
  decryptFor(context: string, stored: string): string | null {
    const parts = stored.split(':');
    const [scheme, keyId, ivText, sealedText] = parts;
    if (parts.length !== 4 || scheme !== SCHEME || keyId !== this.keyId || !ivText || !sealedText) return null;
    const iv = Buffer.from(ivText, 'base64url');
    const sealed = Buffer.from(sealedText, 'base64url');
    if (iv.length !== IV_BYTES || sealed.length <= TAG_BYTES) return null;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, iv, { authTagLength: TAG_BYTES });
      decipher.setAAD(Buffer.from(`${SCHEME}:${keyId}:${context}`, 'utf8'));
      decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
      return Buffer.concat([decipher.update(sealed.subarray(0, sealed.length - TAG_BYTES)), decipher.final()]).toString(
        'utf8',
      );
    } catch {
      return null;
    }
  }

  private seal(aad: Buffer, secret: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(aad);
    const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final(), cipher.getAuthTag()]);
    return `${SCHEME}:${this.keyId}:${iv.toString('base64url')}:${sealed.toString('base64url')}`;
  }

  /** The secret a stored value holds, or null (logged once) when it cannot be used. */
  decrypt(userId: number, column: TotpSecretColumn, stored: string): string | null {
    const opened = this.open(userId, column, stored);
    if (typeof opened === 'string') return opened;
    this.report(userId, column, stored, opened.failure, opened.storedKeyId);
    return null;
  }

  private open(
    userId: number,
    column: TotpSecretColumn,
    stored: string,
  ): string | { failure: TotpSecretFailure; storedKeyId?: string } {
    const parts = stored.split(':');
    const [scheme, keyId, ivText, sealedText] = parts;
    if (parts.length !== 4 || scheme !== SCHEME || !keyId || !ivText || !sealedText) return { failure: 'format' };
    if (keyId !== this.keyId) return { failure: 'key', storedKeyId: keyId };
    const iv = Buffer.from(ivText, 'base64url');
    const sealed = Buffer.from(sealedText, 'base64url');
    if (iv.length !== IV_BYTES || sealed.length <= TAG_BYTES) return { failure: 'format' };
    let secret: string;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, iv, { authTagLength: TAG_BYTES });
      decipher.setAAD(this.aad(keyId, userId, column));
      decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
      secret = Buffer.concat([
        decipher.update(sealed.subarray(0, sealed.length - TAG_BYTES)),
        decipher.final(),
      ]).toString('utf8');
    } catch {
      return { failure: 'authentication' };
    }
    try {
      if (base32Decode(secret).length === 0) return { failure: 'content' };
    } catch {
      return { failure: 'content' };
    }
    return secret;
  }

  private report(
    userId: number,
    column: TotpSecretColumn,
    stored: string,
    failure: TotpSecretFailure,
    storedKeyId?: string,
  ): void {
    const seen = `${String(userId)}\u0000${column}\u0000${stored}`;
    if (this.reported.has(seen)) return;
    if (this.reported.size >= REPORTED_LIMIT) this.reported.clear();
    this.reported.add(seen);
    const why: Record<TotpSecretFailure, string> = {
      format: 'it is not in the v1 encrypted form',
      key: 'it was encrypted under another key than the configured TOTP key',
      authentication: 'it fails authentication (altered, or copied from another user or column)',
      content: 'it does not decrypt to a base32 secret',
    };
    this.log.error(
      {
        userId,
        column,
        reason: failure,
        keyId: this.keyId,
        // Only a well-formed fingerprint: the rest of a stored value is never logged.
        ...(storedKeyId && /^[A-Za-z0-9_-]{1,16}$/.test(storedKeyId) ? { storedKeyId } : {}),
      },
      `unusable two-factor secret of user ${String(userId)}: ${why[failure]}; the user cannot sign in with the authenticator app (a recovery code or an administrator's reset still works)`,
    );
  }
}

/** The database-kept key: generated once, `on conflict do nothing` then read back, so concurrent starts agree. */
async function databaseKey(db: Kysely<Database>): Promise<Buffer> {
  const candidate = randomBytes(TOTP_KEY_BYTES).toString('base64url');
  await db
    .insertInto('server_secrets')
    .values({ name: 'totp', value: candidate })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const row = await db
    .selectFrom('server_secrets')
    .select('value')
    .where('name', '=', 'totp')
    .executeTakeFirstOrThrow();
  return parseTotpEncryptionKey(row.value, "server_secrets row 'totp'");
}

/**
 * Encrypts every plain secret (enrolled and pending) in one transaction: the upgrade of a database
 * written before encryption, and the demo seed, which writes plain secrets because it runs without the
 * key. Idempotent: a second run finds nothing. Rows are locked in id order, so processes starting
 * together on one PostgreSQL wait for each other instead of encrypting a value twice.
 *
 * @returns how many users' rows were rewritten
 */
export async function encryptPlainTotpSecrets(db: Kysely<Database>, cipher: TotpSecretCipher): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const rows = await trx
      .selectFrom('users')
      .select(['id', 'two_factor_secret', 'two_factor_pending_secret'])
      .where(sql<boolean>`${sql.raw(PLAIN_TOTP_SECRET_ROWS)}`)
      .orderBy('id')
      .forUpdate()
      .execute();
    for (const row of rows) {
      const secret = row.two_factor_secret;
      const pending = row.two_factor_pending_secret;
      await trx
        .updateTable('users')
        .set({
          two_factor_secret: isPlain(secret) ? cipher.encrypt(row.id, 'two_factor_secret', secret) : secret,
          two_factor_pending_secret: isPlain(pending)
            ? cipher.encrypt(row.id, 'two_factor_pending_secret', pending)
            : pending,
        })
        .where('id', '=', row.id)
        .execute();
    }
    return rows.length;
  });
}

/** Stored secrets per key id other than the configured key's (values in the v1 form only). */
async function foreignKeyCounts(db: Kysely<Database>, keyId: string): Promise<Record<string, number>> {
  const { rows } = await sql<{ key_id: string; n: number }>`
    select key_id, count(*)::int as n from (
      select split_part(two_factor_secret, ':', 2) as key_id from users where two_factor_secret like 'v1:%'
      union all
      select split_part(two_factor_pending_secret, ':', 2) from users where two_factor_pending_secret like 'v1:%'
    ) stored
    where key_id <> ${keyId}
    group by key_id
    order by key_id
  `.execute(db);
  return Object.fromEntries(rows.map((r) => [r.key_id, Number(r.n)]));
}

const ciphers = new WeakMap<Kysely<Database>, TotpSecretCipher>();

/**
 * The server-start step for TOTP secrets, run after the migrations (beside the JWT key's
 * `TokenService.init`): resolves the key, encrypts any plain secret, reports (once, as an error) stored
 * secrets that are under another key, and makes the cipher the one `createTwoFactor(db)` uses for this
 * database handle.
 */
export async function initTotpEncryption(
  db: Kysely<Database>,
  config: Pick<ServerConfig, 'totpEncryptionKey'>,
  log: TotpSecretLog = consoleLog,
): Promise<{ cipher: TotpSecretCipher; encrypted: number }> {
  const key = config.totpEncryptionKey ? parseTotpEncryptionKey(config.totpEncryptionKey) : await databaseKey(db);
  const cipher = new TotpSecretCipher(key, log);
  const encrypted = await encryptPlainTotpSecrets(db, cipher);
  const foreign = await foreignKeyCounts(db, cipher.keyId);
  const total = Object.values(foreign).reduce((sum, n) => sum + n, 0);
  if (total > 0) {
    log.error(
      { keyId: cipher.keyId, otherKeys: foreign },
      `${String(total)} stored two-factor secret(s) were encrypted under another key than the configured TOTP key ` +
        `(${config.totpEncryptionKey ? 'TOTP_ENCRYPTION_KEY' : "the database's own key: TOTP_ENCRYPTION_KEY is unset"}); ` +
        'those users cannot sign in with their authenticator app until the right key is configured (docs/security.md)',
    );
  }
  ciphers.set(db, cipher);
  return { cipher, encrypted };
}

/** The cipher `initTotpEncryption` set up for this database handle. */
export function totpSecretCipherOf(db: Kysely<Database>): TotpSecretCipher {
  const cipher = ciphers.get(db);
  if (!cipher) throw new Error('initTotpEncryption(db, config) was not awaited for this database handle');
  return cipher;
}
