import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Webhook signatures (docs/webhooks.md, Signatures): `Webhook-Signature: t=<unix seconds>,v1=<hex>[,v1=<hex>…]`,
 * each `v1` the HMAC-SHA256 of `<t>.<body>` under one of the endpoint's secrets (the whole `whsec_…` text as
 * the key): the current one, and while a rotation's grace period lasts the previous one too.
 */

/** Older timestamps are refused by a receiver following docs/webhooks.md: a captured request cannot be replayed later. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

/** The hex HMAC-SHA256 of `<timestamp>.<body>` under `secret`. */
export function signPayload(secret: string, timestamp: number, body: string): string {
  return createHmac('sha256', secret)
    .update(`${String(timestamp)}.${body}`)
    .digest('hex');
}

/** The `Webhook-Signature` header's value: the timestamp, then one `v1=` per secret, in order. */
export function signatureHeader(secrets: readonly string[], timestamp: number, body: string): string {
  return [`t=${String(timestamp)}`, ...secrets.map((secret) => `v1=${signPayload(secret, timestamp, body)}`)].join(',');
}

/**
 * A receiver's check, as docs/webhooks.md shows it: the header parses, its timestamp is within
 * {@link SIGNATURE_TOLERANCE_SECONDS} of `nowSeconds`, and one of its `v1` values is the body's signature under
 * `secret` (compared in constant time).
 */
export function verifySignature(
  header: string | undefined,
  body: string,
  secret: string,
  nowSeconds: number = Math.floor(Date.now() / 1000),
): boolean {
  if (header === undefined) return false;
  let timestamp = Number.NaN;
  const candidates: string[] = [];
  for (const part of header.split(',')) {
    const [key, value] = part.split('=', 2);
    if (key === 't' && value !== undefined && /^\d{1,12}$/.test(value)) timestamp = Number(value);
    else if (key === 'v1' && value !== undefined) candidates.push(value);
  }
  if (!Number.isFinite(timestamp) || Math.abs(nowSeconds - timestamp) > SIGNATURE_TOLERANCE_SECONDS) return false;
  const expected = Buffer.from(signPayload(secret, timestamp, body), 'hex');
  return candidates.some((candidate) => {
    const given = Buffer.from(candidate, 'hex');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}
