import { ApiError, fieldErrors } from '../../api/api-error';
import type { components } from '../../generated/openapi';
import type { I18nKey } from '../../domain/i18n-key';
import { conflictCodeOf } from '../shared/request-error';

export type WebhookEndpoint = components['schemas']['WebhookEndpoint'];
export type CampaignStatusType = components['schemas']['CampaignStatusType'];

/** Every status type, in the contract's order (the checkboxes and filters list them so). */
export const WEBHOOK_TYPES: readonly CampaignStatusType[] = ['sent', 'delivered', 'read', 'failed', 'replied'];

/** The longest address the server takes (contracts/openapi.yaml `WebhookEndpointCreate.url`). */
export const WEBHOOK_URL_MAX = 2048;
/** The longest description (contracts/openapi.yaml `WebhookEndpointCreate.description`). */
export const WEBHOOK_DESCRIPTION_MAX = 200;

/** An endpoint form's values as typed. */
export interface EndpointFields {
  url: string;
  types: CampaignStatusType[];
  description: string;
}

/** The fields a refusal is shown beside; `form` is the form as a whole. */
export type EndpointField = 'url' | 'types' | 'description' | 'form';

// eslint-disable-next-line no-control-regex -- refusing control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/u;

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

/**
 * Whether a host is, on its face, not a public address: `localhost` and IP literals in the loopback,
 * private, link-local, shared and unspecified ranges. The server decides after DNS resolution
 * (docs/webhooks.md, Addresses); this only lets the person see the obvious case before sending.
 */
export function isObviouslyPrivateHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  const v4 = IPV4.exec(host);
  if (v4) {
    const [a, b] = [Number(v4[1]), Number(v4[2])];
    return (
      a === 0 ||
      a === 10 ||
      a === 127 ||
      (a === 100 && b >= 64 && b <= 127) ||
      (a === 169 && b === 254) ||
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168) ||
      a >= 224
    );
  }
  if (!host.includes(':')) return false;
  return host === '::' || host === '::1' || /^f[cd]/.test(host) || /^fe[89ab]/.test(host) || host.startsWith('::ffff:');
}

/**
 * What is wrong with an address before it is sent, or null: empty, too long, not an absolute http(s)
 * address, with a user name, password or fragment. `https` and public addresses are the server's to
 * require (it allows `http` and loopback receivers in development and tests, docs/webhooks.md), so
 * those refusals come back from it and are worded by {@link serverUrlProblem}.
 */
export function urlProblem(url: string): I18nKey | null {
  const text = url.trim();
  if (text === '') return 'webhooks.endpoints.errors.urlRequired';
  if (text.length > WEBHOOK_URL_MAX) return 'webhooks.endpoints.errors.urlTooLong';
  // The URL parser drops tabs and line breaks; the server refuses an address holding any control character.
  if (CONTROL.test(text)) return 'webhooks.endpoints.errors.urlInvalid';
  let parsed: URL;
  try {
    parsed = new URL(text);
  } catch {
    return 'webhooks.endpoints.errors.urlInvalid';
  }
  // The server counts the address as the parser writes it too (`%` escapes, punycode).
  if (parsed.href.length > WEBHOOK_URL_MAX) return 'webhooks.endpoints.errors.urlTooLong';
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return 'webhooks.endpoints.errors.urlNotHttps';
  if (parsed.username !== '' || parsed.password !== '' || text.includes('#'))
    return 'webhooks.endpoints.errors.urlInvalid';
  return null;
}

/**
 * The words for the server's 400 on `url`: its message is for developers, so the address itself says
 * which rule it broke (contracts/openapi.yaml `webhookEndpointCreate`): not an address, not https, or
 * (the rest) a host that is not public.
 */
export function serverUrlProblem(url: string): I18nKey {
  const own = urlProblem(url);
  if (own) return own;
  const parsed = new URL(url.trim());
  if (parsed.protocol !== 'https:') return 'webhooks.endpoints.errors.urlNotHttps';
  return 'webhooks.endpoints.errors.urlNotPublic';
}

/**
 * What is wrong with a description, or null: the server's rule (server/src/webhooks/endpoints.ts
 * `checkWebhookDescription`): trimmed, at most 200 characters counted as code points (an emoji is one),
 * no control characters.
 */
export function descriptionProblem(description: string): I18nKey | null {
  const text = description.trim();
  if ([...text].length > WEBHOOK_DESCRIPTION_MAX) return 'webhooks.endpoints.errors.descriptionTooLong';
  if (CONTROL.test(text)) return 'webhooks.endpoints.errors.descriptionInvalid';
  return null;
}

/** Every problem of the form before it is sent, by field (empty when it may be sent). */
export function endpointProblems(fields: EndpointFields): Partial<Record<EndpointField, I18nKey>> {
  const out: Partial<Record<EndpointField, I18nKey>> = {};
  const url = urlProblem(fields.url);
  if (url) out.url = url;
  if (fields.types.length === 0) out.types = 'webhooks.endpoints.errors.typesRequired';
  const description = descriptionProblem(fields.description);
  if (description) out.description = description;
  return out;
}

/**
 * A refused save, by field: 400 per field (`url` worded by the address), 409 `webhook_endpoint_taken`
 * beside the address, 409 `webhook_endpoint_limit` on the form; anything else on the form with its
 * generic reason. A stale refusal is not here: the form shows its notice (see the machine).
 */
export function endpointRefusal(
  error: unknown,
  fields: EndpointFields,
  reason: I18nKey,
): Partial<Record<EndpointField, I18nKey>> {
  const code = conflictCodeOf(error);
  if (code === 'webhook_endpoint_taken') return { url: 'webhooks.refusals.endpointTaken' };
  if (code === 'webhook_endpoint_limit') return { form: 'webhooks.refusals.endpointLimit' };
  if (error instanceof ApiError && error.status === 400) {
    const refused = fieldErrors(error);
    const out: Partial<Record<EndpointField, I18nKey>> = {};
    if ('url' in refused) out.url = serverUrlProblem(fields.url);
    if ('types' in refused || Object.keys(refused).some((f) => f.startsWith('types/')))
      out.types = 'webhooks.endpoints.errors.typesRequired';
    if ('description' in refused)
      out.description = descriptionProblem(fields.description) ?? 'webhooks.endpoints.errors.descriptionTooLong';
    if (Object.keys(out).length > 0) return out;
  }
  return { form: reason };
}
