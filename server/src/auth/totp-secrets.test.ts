import fc from 'fast-check';
import { randomBytes } from 'node:crypto';
import { loadConfig } from '../base/config';
import { base32Encode, newTotpSecret } from './totp';
import { parseTotpEncryptionKey } from '../base/totp-key';
import { TotpSecretCipher, totpKeyId, type TotpSecretLog } from './totp-secrets';

/**
 * TOTP secrets at rest, without a database: the key setting (formats accepted, malformed ones refused
 * without echoing them), the stored form, and every way a stored value must fail to decrypt — altered
 * bytes, another user or column (the additional authenticated data), another key — logged once with
 * the user id and never with the secret. The database side (start-up step, upgrade, logins) is in
 * totp-encryption.test.ts.
 */

function spyLog(): TotpSecretLog & { entries: { fields: Record<string, unknown>; message: string }[] } {
  const entries: { fields: Record<string, unknown>; message: string }[] = [];
  return { entries, error: (fields, message) => entries.push({ fields, message }) };
}

const KEY = randomBytes(32);
const STORED_FORM = /^v1:[A-Za-z0-9_-]{8}:[A-Za-z0-9_-]{16}:[A-Za-z0-9_-]+$/;

describe('TOTP_ENCRYPTION_KEY', () => {
  it('accepts 32 bytes as 64 hex characters (either case), base64 with or without padding, and base64url; white space around is ignored', () => {
    const forms = [
      KEY.toString('hex'),
      KEY.toString('hex').toUpperCase(),
      KEY.toString('base64'),
      KEY.toString('base64').replace(/=$/, ''),
      KEY.toString('base64url'),
      `  ${KEY.toString('base64url')}\n`,
    ];
    for (const form of forms) expect(parseTotpEncryptionKey(form).equals(KEY), form).toBe(true);
    // A key with both base64 alphabets' special characters (+/ and -_) reads the same either way.
    const special = Buffer.alloc(32, 0xfb);
    expect(special.toString('base64')).toMatch(/[+/]/);
    expect(parseTotpEncryptionKey(special.toString('base64')).equals(special)).toBe(true);
    expect(parseTotpEncryptionKey(special.toString('base64url')).equals(special)).toBe(true);
  });

  it.each([
    ['empty', ''],
    ['white space only', '   '],
    ['63 hex characters', KEY.toString('hex').slice(1)],
    ['65 hex characters', `${KEY.toString('hex')}a`],
    ['64 characters, not all hex', `${KEY.toString('hex').slice(1)}g`],
    ['31 bytes in base64', randomBytes(31).toString('base64')],
    ['33 bytes in base64', randomBytes(33).toString('base64')],
    ['48 bytes in base64 (a JWT_SECRET-sized value)', randomBytes(48).toString('base64url')],
    ['a character outside base64', `${KEY.toString('base64url').slice(0, 42)}!`],
    ['white space inside', `${KEY.toString('base64url').slice(0, 20)} ${KEY.toString('base64url').slice(21)}`],
    ['a passphrase', 'correct horse battery staple'],
  ])('refuses %s, naming the setting and the accepted forms but not the value', (_label, value) => {
    let error: unknown;
    try {
      parseTotpEncryptionKey(value);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(Error);
    const message = (error as Error).message;
    expect(message).toMatch(
      /^TOTP_ENCRYPTION_KEY must be 32 bytes written as 64 hexadecimal characters or as base64\/base64url/,
    );
    if (value.trim().length >= 4) expect(message).not.toContain(value.trim());
  });

  describe('in loadConfig', () => {
    const saved = process.env.TOTP_ENCRYPTION_KEY;
    afterEach(() => {
      if (saved === undefined) delete process.env.TOTP_ENCRYPTION_KEY;
      else process.env.TOTP_ENCRYPTION_KEY = saved;
    });

    it('is unset by default (the key then lives in the database)', () => {
      delete process.env.TOTP_ENCRYPTION_KEY;
      expect(loadConfig().totpEncryptionKey).toBeUndefined();
      process.env.TOTP_ENCRYPTION_KEY = '';
      expect(loadConfig().totpEncryptionKey).toBeUndefined();
    });

    it('keeps a well-formed key and refuses a malformed one, so the server does not start', () => {
      process.env.TOTP_ENCRYPTION_KEY = KEY.toString('hex');
      expect(loadConfig().totpEncryptionKey).toBe(KEY.toString('hex'));
      process.env.TOTP_ENCRYPTION_KEY = 'tooShortToBeAKey0123';
      expect(() => loadConfig()).toThrow(/TOTP_ENCRYPTION_KEY must be 32 bytes/);
      expect(() => loadConfig()).not.toThrow(/tooShortToBeAKey0123/);
    });
  });
});

describe('TotpSecretCipher', () => {
  it('round-trips any base32 secret for any user and column, in the v1 form, with a fresh IV each time', () => {
    const cipher = new TotpSecretCipher(KEY, spyLog());
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 10, maxLength: 64 }),
        fc.integer({ min: 1, max: 2_147_483_647 }),
        fc.constantFrom('two_factor_secret' as const, 'two_factor_pending_secret' as const),
        (bytes, userId, column) => {
          const secret = base32Encode(bytes);
          const stored = cipher.encrypt(userId, column, secret);
          expect(stored).toMatch(STORED_FORM);
          expect(stored).not.toContain(secret);
          expect(cipher.decrypt(userId, column, stored)).toBe(secret);
        },
      ),
      { numRuns: 300 },
    );
    const secret = newTotpSecret();
    const values = Array.from({ length: 50 }, () => cipher.encrypt(7, 'two_factor_secret', secret));
    expect(new Set(values).size).toBe(50);
    expect(new Set(values.map((v) => v.split(':')[2])).size).toBe(50);
  });

  it('names its key by a fingerprint that does not depend on how the key was written', () => {
    const cipher = new TotpSecretCipher(parseTotpEncryptionKey(KEY.toString('hex')));
    expect(cipher.keyId).toBe(new TotpSecretCipher(parseTotpEncryptionKey(KEY.toString('base64'))).keyId);
    expect(cipher.keyId).toBe(totpKeyId(KEY));
    expect(cipher.keyId).not.toBe(totpKeyId(randomBytes(32)));
    expect(cipher.encrypt(1, 'two_factor_secret', newTotpSecret()).split(':')[1]).toBe(cipher.keyId);
    expect(() => new TotpSecretCipher(randomBytes(16))).toThrow(/32 bytes/);
  });

  it('detects every altered byte of the IV, the ciphertext and the tag', () => {
    const log = spyLog();
    const cipher = new TotpSecretCipher(KEY, log);
    const stored = cipher.encrypt(42, 'two_factor_secret', newTotpSecret());
    const [scheme, keyId, ivText, sealedText] = stored.split(':') as [string, string, string, string];
    const iv = Buffer.from(ivText, 'base64url');
    const sealed = Buffer.from(sealedText, 'base64url');
    let altered = 0;
    for (const [part, bytes] of [
      ['iv', iv],
      ['sealed', sealed],
    ] as const) {
      for (let i = 0; i < bytes.length; i += 1) {
        const copy = Buffer.from(bytes);
        copy[i] = (copy[i] ?? 0) ^ 0x01;
        const value =
          part === 'iv'
            ? `${scheme}:${keyId}:${copy.toString('base64url')}:${sealedText}`
            : `${scheme}:${keyId}:${ivText}:${copy.toString('base64url')}`;
        expect(cipher.decrypt(42, 'two_factor_secret', value), `${part}[${String(i)}]`).toBeNull();
        altered += 1;
      }
    }
    expect(altered).toBe(12 + 32 + 16);
    expect(log.entries).toHaveLength(altered);
    expect(log.entries.every((e) => e.fields.reason === 'authentication' && e.fields.userId === 42)).toBe(true);
  });

  it.each([
    ['a plain base32 secret', () => newTotpSecret()],
    ['an unknown version', (stored: string) => stored.replace(/^v1:/, 'v2:')],
    ['a missing part', (stored: string) => stored.split(':').slice(0, 3).join(':')],
    ['an extra part', (stored: string) => `${stored}:x`],
    ['a truncated IV', (stored: string) => stored.replace(/^(v1:[^:]+:)[^:]{4}/, '$1')],
    ['a ciphertext shorter than the tag', (stored: string) => stored.replace(/:[^:]+$/, ':AAAA')],
  ])('refuses %s as not in the stored form', (_label, make) => {
    const log = spyLog();
    const cipher = new TotpSecretCipher(KEY, log);
    const value = make(cipher.encrypt(5, 'two_factor_secret', newTotpSecret()));
    expect(cipher.decrypt(5, 'two_factor_secret', value)).toBeNull();
    expect(log.entries).toEqual([
      expect.objectContaining({ fields: expect.objectContaining({ userId: 5, reason: 'format' }) }),
    ]);
  });

  it('binds a value to its user and its column (additional authenticated data)', () => {
    const log = spyLog();
    const cipher = new TotpSecretCipher(KEY, log);
    const secret = newTotpSecret();
    const stored = cipher.encrypt(10, 'two_factor_secret', secret);
    expect(cipher.decrypt(11, 'two_factor_secret', stored)).toBeNull();
    expect(cipher.decrypt(10, 'two_factor_pending_secret', stored)).toBeNull();
    const pending = cipher.encrypt(10, 'two_factor_pending_secret', secret);
    expect(cipher.decrypt(10, 'two_factor_secret', pending)).toBeNull();
    // The key id is authenticated too: a value relabelled with another key's id does not decrypt either.
    const relabelled = stored.replace(`:${cipher.keyId}:`, ':AAAAAAAA:');
    expect(new TotpSecretCipher(KEY, log).decrypt(10, 'two_factor_secret', relabelled)).toBeNull();
    expect(log.entries.map((e) => [e.fields.userId, e.fields.column, e.fields.reason])).toEqual([
      [11, 'two_factor_secret', 'authentication'],
      [10, 'two_factor_pending_secret', 'authentication'],
      [10, 'two_factor_secret', 'authentication'],
      [10, 'two_factor_secret', 'key'],
    ]);
    expect(cipher.decrypt(10, 'two_factor_secret', stored)).toBe(secret);
  });

  it('recognises a value of another key and says so, with both fingerprints', () => {
    const log = spyLog();
    const other = new TotpSecretCipher(randomBytes(32));
    const cipher = new TotpSecretCipher(KEY, log);
    const stored = other.encrypt(3, 'two_factor_secret', newTotpSecret());
    expect(cipher.decrypt(3, 'two_factor_secret', stored)).toBeNull();
    expect(log.entries).toEqual([
      {
        fields: {
          userId: 3,
          column: 'two_factor_secret',
          reason: 'key',
          keyId: cipher.keyId,
          storedKeyId: other.keyId,
        },
        message: expect.stringMatching(/^unusable two-factor secret of user 3: it was encrypted under another key/),
      },
    ]);
  });

  it('refuses a value that decrypts to something other than a base32 secret', () => {
    const log = spyLog();
    const cipher = new TotpSecretCipher(KEY, log);
    expect(cipher.decrypt(8, 'two_factor_secret', cipher.encrypt(8, 'two_factor_secret', 'not base32!'))).toBeNull();
    expect(cipher.decrypt(8, 'two_factor_secret', cipher.encrypt(8, 'two_factor_secret', ''))).toBeNull();
    expect(log.entries.map((e) => e.fields.reason)).toEqual(['content', 'format']);
  });

  it('logs an unusable value once per user, column and value, with the user id and never the secret or the stored value', () => {
    const log = spyLog();
    const other = new TotpSecretCipher(randomBytes(32));
    const cipher = new TotpSecretCipher(KEY, log);
    const secret = newTotpSecret();
    const foreign = other.encrypt(21, 'two_factor_secret', secret);
    for (let i = 0; i < 5; i += 1) expect(cipher.decrypt(21, 'two_factor_secret', foreign)).toBeNull();
    expect(log.entries).toHaveLength(1);
    // Another value, or the same value for another user, is another event.
    expect(cipher.decrypt(21, 'two_factor_secret', other.encrypt(21, 'two_factor_secret', secret))).toBeNull();
    expect(cipher.decrypt(22, 'two_factor_secret', foreign)).toBeNull();
    expect(log.entries.map((e) => e.fields.userId)).toEqual([21, 21, 22]);
    const dump = JSON.stringify(log.entries);
    expect(dump).not.toContain(secret);
    expect(dump).not.toContain(foreign.split(':')[3]);
    expect(dump).not.toContain(foreign.split(':')[2]);
  });
});
