import Fastify from 'fastify';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { saoPauloDay } from '../db/analytics';
import { startTestApp, type TestApp } from '../test-support/app';
import { sendCsv } from '../rest/csv-http';
import { DYNAMIC_THRESHOLD, preferredEncoding, registerCompression } from './compression';

describe('preferredEncoding', () => {
  it('prefers brotli, then gzip, honouring q-values, `*`, x-gzip and identity', () => {
    expect(preferredEncoding(undefined)).toBe('identity');
    expect(preferredEncoding('')).toBe('identity');
    expect(preferredEncoding('gzip, deflate, br, zstd')).toBe('br');
    expect(preferredEncoding('br, gzip')).toBe('br');
    expect(preferredEncoding('gzip')).toBe('gzip');
    expect(preferredEncoding('x-gzip')).toBe('gzip');
    expect(preferredEncoding('br;q=0.5, gzip;q=0.8')).toBe('gzip');
    expect(preferredEncoding('br;q=0, gzip')).toBe('gzip');
    expect(preferredEncoding('BR;Q=1.0')).toBe('br');
    expect(preferredEncoding('*')).toBe('br');
    expect(preferredEncoding('*, br;q=0')).toBe('gzip');
    expect(preferredEncoding('*;q=0')).toBe('identity');
    expect(preferredEncoding('identity')).toBe('identity');
    expect(preferredEncoding('deflate')).toBe('identity');
    expect(preferredEncoding('gzip;q=0.5, identity')).toBe('identity');
    expect(preferredEncoding('gzip, identity;q=0')).toBe('gzip');
    expect(preferredEncoding('br, gzip', ['gzip'])).toBe('gzip');
    expect(preferredEncoding('br', [])).toBe('identity');
  });
});

function decode(encoding: string | undefined, body: Buffer): Buffer {
  if (encoding === 'br') return brotliDecompressSync(body);
  if (encoding === 'gzip') return gunzipSync(body);
  if (encoding === undefined) return body;
  throw new Error(`unexpected content-encoding ${encoding}`);
}

describe('compressed dynamic answers', () => {
  let t: TestApp;
  let admin: { authorization: string };
  beforeAll(async () => {
    t = await startTestApp({ seed: { days: 3 } });
    admin = await t.auth('admin@demo.local');
  }, 180_000);
  afterAll(async () => t.close());

  const tenants = (acceptEncoding?: string) =>
    t.app.fastify.inject({
      method: 'POST',
      url: '/api/tenant/paginated',
      headers: { ...admin, ...(acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding }) },
      payload: {},
    });

  it('compresses JSON above the threshold: brotli when accepted, gzip otherwise, plain when neither', async () => {
    const plain = await tenants();
    expect(plain.statusCode).toBe(200);
    expect(plain.rawPayload.length).toBeGreaterThan(DYNAMIC_THRESHOLD);
    expect(plain.headers['content-encoding']).toBeUndefined();

    for (const [accept, expected] of [
      ['br, gzip', 'br'],
      ['gzip, deflate, br', 'br'],
      ['gzip', 'gzip'],
      ['br;q=0, gzip', 'gzip'],
      ['identity', undefined],
      ['deflate', undefined],
    ] as const) {
      const response = await tenants(accept);
      expect([accept, response.statusCode, response.headers['content-encoding']]).toEqual([accept, 200, expected]);
      if (expected) {
        expect(response.headers.vary).toMatch(/accept-encoding/i);
        expect(response.rawPayload.length).toBeLessThan(plain.rawPayload.length);
      }
      // Same JSON whatever the encoding (its tokens and timestamps aside, nothing differs per request).
      expect(JSON.parse(decode(expected, response.rawPayload).toString('utf8'))).toEqual(plain.json());
      // The security headers are still there.
      expect(response.headers['content-security-policy']).toMatch(/default-src 'self'/);
    }
  });

  it('sends small JSON as it is', async () => {
    const response = await t.app.fastify.inject({
      method: 'GET',
      url: '/healthz',
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(response.rawPayload.length).toBeLessThan(DYNAMIC_THRESHOLD);
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.json()).toBeTruthy();
  });

  it('answers HEAD with the headers of the GET and no body', async () => {
    const get = await t.app.fastify.inject({
      method: 'GET',
      url: '/api/auth/userInfo',
      headers: { ...admin, 'accept-encoding': 'br' },
    });
    const head = await t.app.fastify.inject({
      method: 'HEAD',
      url: '/api/auth/userInfo',
      headers: { ...admin, 'accept-encoding': 'br' },
    });
    expect(get.statusCode).toBe(200);
    expect(head.statusCode).toBe(200);
    expect(head.rawPayload.length).toBe(0);
    expect(head.headers['content-encoding']).toBe(get.headers['content-encoding']);
    expect(head.headers['content-type']).toBe(get.headers['content-type']);
  });

  it('compresses large GraphQL answers and leaves small ones plain', async () => {
    const gql = (query: string, acceptEncoding: string) =>
      t.app.fastify.inject({
        method: 'POST',
        url: '/backoffice/graphql',
        headers: {
          ...admin,
          'content-type': 'application/json',
          accept: 'application/graphql-response+json, application/json',
          'accept-encoding': acceptEncoding,
        },
        payload: JSON.stringify({ query }),
      });
    const USERS = 'query { __schema { types { name description fields { name description } } } }';
    const large = await gql(USERS, 'br, gzip');
    const plainLarge = await gql(USERS, 'identity');
    expect(plainLarge.rawPayload.length).toBeGreaterThan(DYNAMIC_THRESHOLD);
    expect(large.statusCode).toBe(200);
    expect(large.headers['content-encoding']).toBe('br');
    expect(large.headers.vary).toMatch(/accept-encoding/i);
    expect(JSON.parse(decode('br', large.rawPayload).toString('utf8'))).toEqual(plainLarge.json());

    const small = await gql('query { __typename }', 'br, gzip');
    expect(small.statusCode).toBe(200);
    expect(small.rawPayload.length).toBeLessThan(DYNAMIC_THRESHOLD);
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.json()).toEqual({ data: { __typename: 'Query' } });
  });

  it('streams a compressed CSV sheet that decompresses to the same CSV', async () => {
    const finishAt = saoPauloDay(new Date());
    const startAt = saoPauloDay(new Date(Date.now() - 29 * 86_400_000));
    const url = `/api/tenant/sheets/attendances?startAt=${startAt}&finishAt=${finishAt}`;
    const plain = await t.app.fastify.inject({ url, headers: { ...admin, accept: 'text/csv' } });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(DYNAMIC_THRESHOLD);
    for (const encoding of ['br', 'gzip'] as const) {
      const response = await t.app.fastify.inject({
        url,
        headers: { ...admin, accept: 'text/csv', 'accept-encoding': encoding },
      });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(response.headers['content-disposition']).toBe(plain.headers['content-disposition']);
      expect(response.headers['content-encoding']).toBe(encoding);
      expect(response.headers['content-length']).toBeUndefined();
      expect(response.headers.vary).toMatch(/accept-encoding/i);
      expect(decode(encoding, response.rawPayload).equals(plain.rawPayload)).toBe(true);
      expect(response.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
    }
  });
});

describe('a compressed stream stays a stream', () => {
  const ROWS = 100_000;
  // Rows like the sheets' (server/src/reports): repetitive, so they compress several times over.
  const sheetLine = (i: number) =>
    `${i};farmacia-central;2026-03-${String((i % 28) + 1).padStart(2, '0')} 10:${String(i % 60).padStart(2, '0')};Atendente ${i % 40};Loja ${i % 7};${(i * 37) % 1000},50\r\n`;
  // Random hex: about 2:1, so what sits in socket buffers is far from the whole sheet.
  const hexLine = (i: number) => `${i};${randomBytes(128).toString('hex')}\r\n`;

  async function slowly(line: (i: number) => string, encoding: 'br' | 'gzip') {
    // The plugin on a bare Fastify: the app's routes play no part here.
    const app = Fastify({ logger: false });
    await registerCompression(app, { precompressedPrefixes: [] });
    let produced = 0;
    const expected: string[] = [];
    app.get('/test/sheet', async (_request, reply) => {
      async function* lines() {
        for (let i = 0; i < ROWS; i += 1) {
          produced += 1;
          const text = line(i);
          expected.push(text);
          yield text;
        }
      }
      await sendCsv(reply, 'sheet.csv', lines());
    });
    try {
      await app.listen({ host: '127.0.0.1', port: 0 });
      const { port } = app.server.address() as AddressInfo;
      const request = httpRequest({
        host: '127.0.0.1',
        port,
        path: '/test/sheet',
        headers: { 'accept-encoding': encoding },
      });
      request.end();
      const [response] = (await once(request, 'response')) as [IncomingMessage];
      expect(response.headers['content-encoding']).toBe(encoding);
      expect(response.headers['transfer-encoding']).toBe('chunked');
      // The first bytes arrive; then the client stops reading for a while.
      const chunks: Buffer[] = [];
      let atFirstByte = -1;
      await new Promise<void>((resolve) => {
        response.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          if (atFirstByte >= 0) return;
          atFirstByte = produced;
          response.pause();
          resolve();
        });
      });
      await new Promise((resolve) => setTimeout(resolve, 500));
      const whilePaused = produced;
      response.resume();
      await once(response, 'end');
      expect(produced).toBe(ROWS);
      expect(decode(encoding, Buffer.concat(chunks)).toString('utf8')).toBe(expected.join(''));
      return { atFirstByte, whilePaused };
    } finally {
      await app.close();
    }
  }

  it.each(['br', 'gzip'] as const)(
    'sends the first %s bytes of a 100k-row sheet long before the last row is read',
    async (encoding) => {
      const { atFirstByte } = await slowly(sheetLine, encoding);
      expect(atFirstByte).toBeLessThan(ROWS / 10);
    },
    60_000,
  );

  it.each(['br', 'gzip'] as const)(
    'pulls a %s sheet only as fast as a slow client reads it',
    async (encoding) => {
      const { whilePaused } = await slowly(hexLine, encoding);
      // Backpressure reaches the generator: only what fills the socket's buffers has been read ahead.
      expect(whilePaused).toBeLessThan(ROWS / 2);
    },
    60_000,
  );
});
