import { createServer } from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { excerptText, EXCERPT_BYTES, retryAfterMs, sendAttempt, statusError } from './send';
import { signatureHeader, signPayload, verifySignature } from './signature';
import { backoffMs, isRetried } from './worker';

/**
 * The pieces of one attempt (docs/webhooks.md): the signature a receiver checks, `Retry-After`, the
 * answer's excerpt, what is retried and the back-off. The worker with a real receiver:
 * server/src/webhooks/worker.test.ts.
 */
describe('webhook signatures', () => {
  const body = '{"id":"k","type":"campaign.message.delivered"}';
  const now = 1_795_003_201;

  it('signs <timestamp>.<body> with HMAC-SHA256, one v1 per secret, and verifies with either', () => {
    const header = signatureHeader(['whsec_new', 'whsec_old'], now, body);
    expect(header).toBe(`t=${now},v1=${signPayload('whsec_new', now, body)},v1=${signPayload('whsec_old', now, body)}`);
    expect(signPayload('whsec_new', now, body)).toMatch(/^[0-9a-f]{64}$/);
    expect(verifySignature(header, body, 'whsec_new', now)).toBe(true);
    expect(verifySignature(header, body, 'whsec_old', now)).toBe(true);
    expect(verifySignature(header, body, 'whsec_other', now)).toBe(false);
  });

  it('refuses a changed body, a missing or malformed header and a timestamp more than 5 minutes away', () => {
    const header = signatureHeader(['whsec_a'], now, body);
    expect(verifySignature(header, `${body} `, 'whsec_a', now)).toBe(false);
    expect(verifySignature(undefined, body, 'whsec_a', now)).toBe(false);
    expect(verifySignature('v1=abc', body, 'whsec_a', now)).toBe(false);
    expect(verifySignature(header, body, 'whsec_a', now + 300)).toBe(true);
    expect(verifySignature(header, body, 'whsec_a', now + 301)).toBe(false);
    expect(verifySignature(header, body, 'whsec_a', now - 301)).toBe(false);
  });
});

describe('an attempt', () => {
  it('reads Retry-After as seconds or an HTTP date, and nothing else', () => {
    const nowMs = Date.parse('2026-11-08T12:00:00Z');
    expect(retryAfterMs('7', nowMs)).toBe(7000);
    expect(retryAfterMs(' 0 ', nowMs)).toBe(0);
    expect(retryAfterMs('Sun, 08 Nov 2026 12:01:30 GMT', nowMs)).toBe(90_000);
    expect(retryAfterMs('Sun, 08 Nov 2026 11:00:00 GMT', nowMs)).toBe(0);
    expect(retryAfterMs(undefined, nowMs)).toBeNull();
    expect(retryAfterMs('soon', nowMs)).toBeNull();
    expect(retryAfterMs('-5', nowMs)).toBeNull();
  });

  it('keeps the first 1,024 bytes of an answer as UTF-8, invalid sequences and NUL replaced', () => {
    expect(excerptText(Buffer.from([0x6f, 0x6b, 0xff, 0x00, 0x21]))).toBe('ok\uFFFD\uFFFD!');
    const long = Buffer.from('é'.repeat(600)); // 1,200 bytes: the 1,024th byte splits a character
    const text = excerptText(long);
    expect(Buffer.byteLength(text.replaceAll('\uFFFD', ''))).toBeLessThanOrEqual(EXCERPT_BYTES);
    expect(text.startsWith('é'.repeat(511))).toBe(true);
    expect(text.length).toBeLessThanOrEqual(EXCERPT_BYTES);
  });

  it('names what each status means and what is retried', () => {
    expect([200, 204, 301, 308, 400, 404, 429, 500, 503].map(statusError)).toEqual([
      null,
      null,
      'redirect',
      'redirect',
      'http_status',
      'http_status',
      'too_many_requests',
      'http_status',
      'http_status',
    ]);
    expect(isRetried({ statusCode: 500, error: 'http_status' })).toBe(true);
    expect(isRetried({ statusCode: 429, error: 'too_many_requests' })).toBe(true);
    expect(isRetried({ statusCode: null, error: 'timeout' })).toBe(true);
    expect(isRetried({ statusCode: null, error: 'connection' })).toBe(true);
    expect(isRetried({ statusCode: 400, error: 'http_status' })).toBe(false);
    expect(isRetried({ statusCode: 301, error: 'redirect' })).toBe(false);
    expect(isRetried({ statusCode: null, error: 'address_refused' })).toBe(false);
    expect(isRetried({ statusCode: 200, error: null })).toBe(false);
  });

  it('waits a full-jitter share of base × 2^(n−1), never more than the longest retry', () => {
    const settings = { retryBaseMs: 1000, retryMaxMs: 10_000 };
    expect([1, 2, 3, 4, 5].map((n) => backoffMs(settings, n, 0.5))).toEqual([500, 1000, 2000, 4000, 5000]);
    expect(backoffMs(settings, 1, 0)).toBe(0);
    expect(backoffMs(settings, 60, 0.999)).toBe(9990);
  });

  it('reads at most 1,024 bytes of a long answer, and sends the headers and body it is given', async () => {
    let received = '';
    const server = createServer((req, res) => {
      req.on('data', (chunk: Buffer) => (received += chunk.toString()));
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end('x'.repeat(64 * 1024));
      });
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const result = await sendAttempt({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
        body: '{"a":1}',
        headers: { 'Content-Type': 'application/json' },
        timeoutMs: 5000,
        rules: { allowLoopback: true },
      });
      expect(result).toMatchObject({ statusCode: 200, error: null, retryAfterMs: null });
      expect(result.excerpt).toBe('x'.repeat(EXCERPT_BYTES));
      expect(received).toBe('{"a":1}');
      // Without loopback allowed, `http` and the loopback address are refused before any connection.
      const refused = await sendAttempt({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
        body: '{}',
        headers: {},
        timeoutMs: 5000,
        rules: { allowLoopback: false },
      });
      expect(refused).toMatchObject({ statusCode: null, error: 'address_refused' });
    } finally {
      server.close();
    }
  });
});
