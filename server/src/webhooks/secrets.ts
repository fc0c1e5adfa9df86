import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { totpSecretCipherOf } from '../auth/totp-secrets';

/**
 * Webhook signing secrets (docs/webhooks.md, Signatures). The server signs every delivery with them, so
 * it reads them back: they are encrypted at rest with the cipher and key of the two-factor secrets
 * (server/src/auth/totp-secrets.ts, docs/security.md), bound to their endpoint's row, so a value copied
 * into another endpoint's row does not open. A secret is shown once, when made; lists show its hint.
 */

export const WEBHOOK_SECRET_PATTERN = /^whsec_[A-Za-z0-9_-]{43}$/;

/** A new secret: `whsec_` and 32 random bytes as base64url (43 characters). */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

/** `…` and the last four characters: enough to tell two secrets apart, nothing to sign with. */
export function webhookSecretHint(secret: string): string {
  return `…${secret.slice(-4)}`;
}

const context = (endpointId: number) => `webhook_endpoints:${String(endpointId)}`;

/** The stored form of endpoint `endpointId`'s secret (its `secret` or `previous_secret` column). */
export function sealWebhookSecret(db: Kysely<Database>, endpointId: number, secret: string): string {
  return totpSecretCipherOf(db).encryptFor(context(endpointId), secret);
}

/** The secret a stored value of endpoint `endpointId` holds, or null when it does not open. */
export function openWebhookSecret(db: Kysely<Database>, endpointId: number, stored: string): string | null {
  return totpSecretCipherOf(db).decryptFor(context(endpointId), stored);
}

/**
 * The secrets a delivery to this endpoint is signed with at `now`: the current one, then the previous one
 * while its grace period lasts (docs/webhooks.md, Signatures). Values that do not open are left out.
 */
export function signingSecrets(
  db: Kysely<Database>,
  endpoint: { id: number; secret: string; previous_secret: string | null; previous_secret_expires_at: Date | null },
  now: Date,
): string[] {
  const secrets: string[] = [];
  const current = openWebhookSecret(db, endpoint.id, endpoint.secret);
  if (current !== null) secrets.push(current);
  if (
    endpoint.previous_secret !== null &&
    endpoint.previous_secret_expires_at !== null &&
    now < endpoint.previous_secret_expires_at
  ) {
    const previous = openWebhookSecret(db, endpoint.id, endpoint.previous_secret);
    if (previous !== null) secrets.push(previous);
  }
  return secrets;
}
