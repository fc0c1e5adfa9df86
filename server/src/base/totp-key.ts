/** The AES-256-GCM key of the two-factor secrets at rest (docs/security.md, Secrets encrypted at rest): its size and accepted forms. */
export const TOTP_KEY_BYTES = 32;

/**
 * Reads a 256-bit key written as 64 hexadecimal characters or as base64/base64url (43 characters, or 44
 * with `=` padding); surrounding white space is ignored. The error never repeats the value: it is a key.
 */
export function parseTotpEncryptionKey(text: string, source = 'TOTP_ENCRYPTION_KEY'): Buffer {
  const value = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(value)) return Buffer.from(value, 'hex');
  if (/^[A-Za-z0-9+/_-]{43}=?$/.test(value)) {
    const bytes = Buffer.from(value.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
    if (bytes.length === TOTP_KEY_BYTES) return bytes;
  }
  throw new Error(
    `${source} must be ${String(TOTP_KEY_BYTES)} bytes written as 64 hexadecimal characters or as base64/base64url ` +
      `(43 characters, or 44 with "=" padding), e.g. the output of \`openssl rand -base64 32\`; ` +
      `got ${String(value.length)} characters that are neither (the value is not shown)`,
  );
}
