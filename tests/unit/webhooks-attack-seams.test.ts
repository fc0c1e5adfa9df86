import { checkWebhookDescription, checkWebhookUrl } from '../../server/src/webhooks/endpoints';
import {
  descriptionProblem,
  endpointProblems,
  serverUrlProblem,
  urlProblem,
} from '../../src/machines/webhooks/webhook-endpoint-checks';

/**
 * The seam between the webhook endpoint form's rules (src/machines/webhooks/webhook-endpoint-checks.ts) and
 * the server's (server/src/webhooks/endpoints.ts): what the form lets through, the server must take, but for
 * the two rules the form leaves to it (https and a public host, docs/webhooks.md, Addresses); and the words
 * the form shows for a server refusal name the rule actually broken. Part of the webhooks attack
 * (server/src/security/webhooks-attack.test.ts).
 */

const refused = (work: () => unknown) => {
  try {
    work();
    return false;
  } catch {
    return true;
  }
};
const PRODUCTION = { allowLoopback: false };
const DEVELOPMENT = { allowLoopback: true };

const URLS = [
  'https://erp.farmacia.example/hooks',
  'https://127.0.0.1/',
  'https://2130706433/',
  'https://[::ffff:7f00:1]/',
  'https://169.254.169.254/',
  'https://localhost./',
  'https://public.example@127.0.0.1/',
  'https://pub\tlic.example/',
  'https://public.example/a\r\nb',
  'https://public.example/\u0085',
  'https://public.example/\u009b',
  'http://public.example/',
  'ftp://public.example/',
  'https://a.example/#frag',
  `https://a.example/${'é'.repeat(1000)}`,
  `https://a.example/${'a'.repeat(2100)}`,
  'https://',
  'not a url',
];

describe('webhook endpoint form against the server', () => {
  it.each(URLS)('address %j: what the form lets through the server takes, but for https or a public host', (url) => {
    const form = urlProblem(url);
    if (form !== null) {
      // The form refused it: the server does too (the form is never stricter about an address).
      expect(refused(() => checkWebhookUrl(url, DEVELOPMENT))).toBe(true);
      return;
    }
    if (!refused(() => checkWebhookUrl(url, DEVELOPMENT))) return;
    // Refused by the server only: for the scheme or the host, and worded so.
    const parsed = new URL(url.trim());
    const word = serverUrlProblem(url);
    if (parsed.protocol !== 'https:') expect(word).toBe('webhooks.endpoints.errors.urlNotHttps');
    else {
      expect(refused(() => checkWebhookUrl(`https://${parsed.host}/`, PRODUCTION))).toBe(true);
      expect(word).toBe('webhooks.endpoints.errors.urlNotPublic');
    }
  });

  it('a control character in the address: refused by both, worded as an invalid address', () => {
    for (const url of ['https://pub\tlic.example/', 'https://public.example/a\r\nb', 'https://public.example/\u009b']) {
      expect(refused(() => checkWebhookUrl(url, PRODUCTION))).toBe(true);
      expect(urlProblem(url)).toBe('webhooks.endpoints.errors.urlInvalid');
      expect(serverUrlProblem(url)).toBe('webhooks.endpoints.errors.urlInvalid');
    }
  });

  it('an address within 2,048 characters as typed but longer once escaped: too long on both sides', () => {
    const escaped = `https://a.example/${'é'.repeat(1000)}`;
    expect(refused(() => checkWebhookUrl(escaped, PRODUCTION))).toBe(true);
    expect(urlProblem(escaped)).toBe('webhooks.endpoints.errors.urlTooLong');
  });

  it.each([
    ['200 emoji', '🎉'.repeat(200)],
    ['201 emoji', '🎉'.repeat(201)],
    ['200 letters between spaces', ` ${'a'.repeat(200)} `],
    ['201 letters', 'a'.repeat(201)],
    ['a tab', 'a\tb'],
    ['a C1 control', 'a\u0085b'],
    ['a line break', 'linha\nquebrada'],
    ['plain', 'ERP da matriz'],
  ])('description with %s: the form and the server agree', (_what, text) => {
    expect(descriptionProblem(text) === null).toBe(!refused(() => checkWebhookDescription(text)));
    const fields = { url: 'https://erp.farmacia.example/hooks', types: ['sent' as const], description: text };
    expect('description' in endpointProblems(fields)).toBe(descriptionProblem(text) !== null);
  });

  it('a description with a control character is worded as such, not as too long', () => {
    expect(descriptionProblem('a\tb')).toBe('webhooks.endpoints.errors.descriptionInvalid');
    expect(descriptionProblem('a'.repeat(201))).toBe('webhooks.endpoints.errors.descriptionTooLong');
  });
});
