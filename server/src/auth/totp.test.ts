import fc from 'fast-check';
import { base32Decode, base32Encode, hotp, matchTotp, otpauthUri, timeStep, totp } from './totp';

/**
 * The published test vectors: RFC 4226 Appendix D (HOTP) and RFC 6238 Appendix B (TOTP, 8 digits, for
 * SHA-1, SHA-256 and SHA-512 with the RFC's ASCII seeds). The server uses 6 digits, which are the last
 * six of the same truncated value.
 */
const SEED_SHA1 = Buffer.from('12345678901234567890');
const SEED_SHA256 = Buffer.from('12345678901234567890123456789012');
const SEED_SHA512 = Buffer.from('1234567890123456789012345678901234567890123456789012345678901234');

const RFC6238: [number, string, string, string][] = [
  // time (s), SHA1, SHA256, SHA512
  [59, '94287082', '46119246', '90693936'],
  [1111111109, '07081804', '68084774', '25091201'],
  [1111111111, '14050471', '67062674', '99943326'],
  [1234567890, '89005924', '91819424', '93441116'],
  [2000000000, '69279037', '90698825', '38618901'],
  [20000000000, '65353130', '77737706', '47863826'],
];

const RFC4226 = ['755224', '287082', '359152', '969429', '338314', '254676', '287922', '162583', '399871', '520489'];

describe('HOTP (RFC 4226 Appendix D)', () => {
  it.each(RFC4226.map((code, counter) => [counter, code] as const))('counter %i → %s', (counter, code) => {
    expect(hotp(SEED_SHA1, counter)).toBe(code);
  });
});

describe('TOTP (RFC 6238 Appendix B)', () => {
  it.each(RFC6238)('T = %i s', (seconds, sha1, sha256, sha512) => {
    const step = timeStep(seconds * 1000);
    expect(hotp(SEED_SHA1, step, 8, 'sha1')).toBe(sha1);
    expect(hotp(SEED_SHA256, step, 8, 'sha256')).toBe(sha256);
    expect(hotp(SEED_SHA512, step, 8, 'sha512')).toBe(sha512);
    // The 6-digit code the server uses: base32 secret, SHA-1.
    expect(totp(base32Encode(SEED_SHA1), seconds * 1000)).toBe(sha1.slice(2));
  });
});

describe('base32 (RFC 4648)', () => {
  it('encodes the RFC seed as authenticator apps expect', () => {
    expect(base32Encode(SEED_SHA1)).toBe('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ');
    // RFC 4648 §10 vectors, without padding.
    expect(['', 'f', 'fo', 'foo', 'foob', 'fooba', 'foobar'].map((s) => base32Encode(Buffer.from(s)))).toEqual([
      '',
      'MY',
      'MZXQ',
      'MZXW6',
      'MZXW6YQ',
      'MZXW6YTB',
      'MZXW6YTBOI',
    ]);
  });

  it('round-trips any bytes, ignoring case, spaces and padding', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
        const text = base32Encode(bytes);
        expect([...base32Decode(text)]).toEqual([...bytes]);
        expect([...base32Decode(`${text.toLowerCase().replace(/(.{4})/g, '$1 ')}==`)]).toEqual([...bytes]);
      }),
    );
  });

  it('refuses characters outside the alphabet', () => {
    expect(() => base32Decode('ABC1')).toThrow(/base32/);
  });
});

describe('matchTotp', () => {
  const secret = base32Encode(SEED_SHA1);
  const at = 1_111_111_111_000;

  it('accepts the code of the current step and of one step either side, and names the step', () => {
    const step = timeStep(at);
    for (const delta of [-1, 0, 1]) {
      const code = totp(secret, at + delta * 30_000);
      expect(matchTotp(secret, code, at)).toBe(step + delta);
    }
  });

  it('refuses codes two steps away, malformed codes and other secrets', () => {
    expect(matchTotp(secret, totp(secret, at - 60_000), at)).toBeNull();
    expect(matchTotp(secret, totp(secret, at + 60_000), at)).toBeNull();
    expect(matchTotp(secret, '12345', at)).toBeNull();
    expect(matchTotp(secret, '1234567', at)).toBeNull();
    expect(matchTotp(secret, 'abcdef', at)).toBeNull();
    expect(matchTotp(base32Encode(SEED_SHA256), totp(secret, at), at)).toBeNull();
  });
});

describe('otpauthUri', () => {
  it('follows the Key Uri Format with issuer, account and the parameters spelled out', () => {
    const uri = new URL(otpauthUri('JBSWY3DPEHPK3PXP', 'ana@demo.local', 'Back-office'));
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.host).toBe('totp');
    expect(decodeURIComponent(uri.pathname)).toBe('/Back-office:ana@demo.local');
    expect(Object.fromEntries(uri.searchParams)).toEqual({
      secret: 'JBSWY3DPEHPK3PXP',
      issuer: 'Back-office',
      algorithm: 'SHA1',
      digits: '6',
      period: '30',
    });
  });
});
