import { once } from 'node:events';
import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createNetServer, type Server as NetServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { sql } from 'kysely';
import type { Actor } from '../access/caller';
import { NO_ORIGIN } from '../access/caller';
import { loadConfig, type WebhookSettings } from '../base/config';
import type { PanelEvent } from '../base/events';
import { saoPauloDay } from '../db/analytics';
import { issuedBearer, startTestApp, type TestApp } from '../test-support/app';
import { validateResponse } from '../test-support/contract';
import { startThrowawayPostgres, type ThrowawayPostgres } from '../test-support/postgres';
import { createTestRole, createTestUser } from '../test-support/users';
import { startWebhookReceiver, type WebhookReceiver } from '../test-support/webhook-receiver';
import { insertEndpoint, insertMessages, until } from '../test-support/webhooks';
import { guardedLookup, isAllowedAddress } from '../webhooks/addresses';
import { checkWebhookDescription, checkWebhookUrl } from '../webhooks/endpoints';
import { EXCERPT_BYTES, sendAttempt } from '../webhooks/send';
import { signatureHeader } from '../webhooks/signature';
import { newWebhookSecret } from '../webhooks/secrets';
import { startWebhookWorker, type WebhookWorker } from '../webhooks/worker';
import { serverUrlProblem, urlProblem } from '../../../src/machines/webhooks/webhook-endpoint-checks';

/**
 * An attack on the campaign-status webhooks (docs/webhooks.md): every way to make the server call a
 * non-public address, who may touch whose endpoints, runs and deliveries, deleted and paused endpoints and
 * tenants, concurrency on PostgreSQL, hostile receivers, the documented verification snippet, and the
 * seams between the SPA's address rule, the server's and the contract. Each test fails if its hole is there.
 */

const PRODUCTION = { allowLoopback: false };
const DEVELOPMENT = { allowLoopback: true };

const refusedUrl = (url: string, rules = PRODUCTION) => {
  try {
    checkWebhookUrl(url, rules);
    return false;
  } catch {
    return true;
  }
};

/** Non-public hosts in every spelling the URL parser, the DNS and the kernel take. */
const PRIVATE_SPELLINGS = [
  'https://127.0.0.1/',
  'https://2130706433/', // decimal
  'https://0177.0.0.1/', // octal
  'https://0x7f.0.0.1/', // hex
  'https://0x7f000001/',
  'https://127.1/', // short
  'https://0/', // 0.0.0.0: the kernel's own addresses
  'https://0.0.0.0/',
  'https://127.0.0.1./', // trailing dot
  'https://１２７.０.０.１/', // full-width digits (IDNA maps them)
  'https://127。0。0。1/', // ideographic full stops
  'https://127.0.0.1%2e/',
  'https://[::1]/',
  'https://[0:0:0:0:0:0:0:1]/',
  'https://[::]/',
  'https://[::ffff:7f00:1]/', // IPv4-mapped
  'https://[::ffff:127.0.0.1]/',
  'https://[::127.0.0.1]/', // IPv4-compatible
  'https://[64:ff9b::7f00:1]/', // NAT64
  'https://[2002:7f00:1::]/', // 6to4
  'https://[fe80::1]/',
  'https://[fe80::1%25eth0]/', // zone id
  'https://[fd00::1]/',
  'https://[::ffff:a9fe:a9fe]/', // metadata, mapped
  'https://localhost/',
  'https://LOCALHOST/',
  'https://localhost./',
  'https://localhost%2e/',
  'https://ｌｏｃａｌｈｏｓｔ/',
  'https://api.localhost/',
  'https://api.localhost./',
  'https://10.0.0.1/',
  'https://10.1/',
  'https://172.16.0.1/',
  'https://172.31.255.255/',
  'https://192.168.1.1/',
  'https://100.64.0.1/',
  'https://169.254.169.254/latest/meta-data/',
  'https://2852039166/', // 169.254.169.254 in decimal
  'https://0xa9.0xfe.0xa9.0xfe/',
  'https://224.0.0.1/',
  'https://255.255.255.255/',
  'https://198.18.0.1/',
  'https://public.example@127.0.0.1/', // userinfo
  'https://127.0.0.1:443@public.example/', // userinfo the other way round
  'https:/127.0.0.1/', // a special scheme's missing slash
  'https:127.0.0.1',
  'HTTPS://127.0.0.1/',
  'https://pub\tlic.example/', // tab (the URL parser would drop it)
  'https://public.example/\u0085',
  'https://public.example/a\r\nHost: 127.0.0.1',
  'http://public.example/', // http without the development setting
  'ftp://public.example/',
  'file:///etc/passwd',
  'javascript:alert(1)',
  'https://',
  'https://a.example/#frag',
  `https://a.example/${'a'.repeat(2048)}`,
];

describe('webhook addresses: SPA, registration and send refuse every non-public spelling', () => {
  it.each(PRIVATE_SPELLINGS)('registration refuses %s', (url) => {
    expect(refusedUrl(url)).toBe(true);
  });

  it('the metadata and private ranges stay refused under WEBHOOK_ALLOW_LOOPBACK, loopback does not', () => {
    for (const url of [
      'https://169.254.169.254/',
      'http://169.254.169.254/latest/meta-data/',
      'http://2852039166/',
      'http://[::ffff:169.254.169.254]/',
      'http://[::ffff:127.0.0.1]/', // loopback in IPv4-mapped form: refused whole
      'http://10.0.0.1/',
      'http://0.0.0.0/',
      'http://[::]/',
      'http://[fe80::1]/',
    ])
      expect([url, refusedUrl(url, DEVELOPMENT)]).toEqual([url, true]);
    for (const url of ['http://127.0.0.1:8080/', 'http://localhost/', 'http://[::1]/'])
      expect([url, refusedUrl(url, DEVELOPMENT)]).toEqual([url, false]);
    for (const address of ['169.254.169.254', '10.0.0.1', '0.0.0.0', '::', '::ffff:127.0.0.1', 'fe80::1'])
      expect([address, isAllowedAddress(address, DEVELOPMENT)]).toEqual([address, false]);
  });

  it('a trailing dot or a default port is the same address as without: one key, so no duplicate endpoint', () => {
    const key = (url: string) => checkWebhookUrl(url, PRODUCTION).url_key;
    expect(key('https://hooks.example.com./painel')).toBe(key('https://hooks.example.com/painel'));
    expect(key('HTTPS://Hooks.Example.COM:443/painel')).toBe(key('https://hooks.example.com/painel'));
    expect(key('https://hooks.exampl%65.com/painel')).toBe(key('https://hooks.example.com/painel'));
  });

  it('the SPA never accepts what the server refuses for a reason other than https or a public host', () => {
    // The SPA leaves https and public hosts to the server; anything else it lets through is a seam.
    for (const url of PRIVATE_SPELLINGS) {
      const spa = urlProblem(url);
      const server = refusedUrl(url, DEVELOPMENT);
      if (spa === null && server) {
        const parsed = new URL(url.trim());
        const hostOrScheme = parsed.protocol !== 'https:' || refusedUrl(`https://${parsed.host}/`, PRODUCTION);
        expect([url, hostOrScheme]).toEqual([url, true]);
      }
    }
    // A control character: the SPA's URL parser drops it, the server refuses the address as written.
    expect(urlProblem('https://pub\tlic.example/')).toBe('webhooks.endpoints.errors.urlInvalid');
    expect(serverUrlProblem('https://pub\tlic.example/')).toBe('webhooks.endpoints.errors.urlInvalid');
    // Within 2,048 characters as typed, longer once the parser escapes it: too long on both sides.
    const escaped = `https://a.example/${'é'.repeat(1000)}`;
    expect(refusedUrl(escaped, PRODUCTION)).toBe(true);
    expect(urlProblem(escaped)).toBe('webhooks.endpoints.errors.urlTooLong');
  });

  it('descriptions: control characters and more than 200 characters refused, astral characters counted once', () => {
    expect(() => checkWebhookDescription('a\u0000b')).toThrow();
    expect(() => checkWebhookDescription('a\u202eb\u0085')).toThrow();
    expect(checkWebhookDescription('🎉'.repeat(200))).toHaveLength(400);
    expect(() => checkWebhookDescription('🎉'.repeat(201))).toThrow();
  });
});

/** A raw TCP receiver for answers no HTTP server library would write. */
async function rawReceiver(onSocket: (socket: Socket) => void): Promise<{ url: string; server: NetServer }> {
  const server = createNetServer(onSocket);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${String(port)}/hooks`, server };
}

const closeNet = async (server: NetServer | Server) => {
  server.close();
  (server as Server).closeAllConnections?.();
  await once(server, 'close');
};

describe('webhook sends: the guard at send time and hostile receivers', () => {
  const headers = { 'Content-Type': 'application/json' };

  it('never connects to a refused literal, in production or development', async () => {
    const resolved: string[] = [];
    const resolve = (host: string, cb: (e: null, a: { address: string; family: number }[]) => void) => {
      resolved.push(host);
      cb(null, [{ address: '127.0.0.1', family: 4 }]);
    };
    for (const url of PRIVATE_SPELLINGS.filter((u) => /^https?:/i.test(u))) {
      let parsed: URL;
      try {
        parsed = new URL(url);
      } catch {
        continue;
      }
      if (!refusedUrl(`https://${parsed.host}/`, PRODUCTION)) continue;
      const result = await sendAttempt({ url, body: '{}', headers, timeoutMs: 500, rules: PRODUCTION, resolve });
      expect([url, result.error]).toEqual([url, 'address_refused']);
    }
    // Names are resolved once, every answer checked: `localhost` never reaches DNS.
    expect(resolved.every((host) => !host.endsWith('localhost'))).toBe(true);
  });

  it('a name resolving to a private address among public ones is refused; resolved once per attempt', async () => {
    let calls = 0;
    const lookup = guardedLookup(PRODUCTION, (_host, cb) => {
      calls += 1;
      cb(null, [
        { address: '93.184.216.34', family: 4 },
        { address: '10.0.0.7', family: 4 },
      ]);
    });
    const error = await new Promise<unknown>((resolve) => lookup('rebind.example', {}, (e) => resolve(e)));
    expect((error as { code?: string }).code).toBe('WEBHOOK_ADDRESS_REFUSED');
    expect(calls).toBe(1);
  });

  it('DNS rebinding: the connection goes to the address checked, never to a second answer', async () => {
    const receiver = await startWebhookReceiver();
    try {
      let calls = 0;
      const result = await sendAttempt({
        url: `http://rebind.example:${String(receiver.port)}/hooks`,
        body: '{}',
        headers,
        timeoutMs: 2_000,
        rules: DEVELOPMENT,
        // First the (allowed, in development) loopback receiver, then a private address.
        resolve: (_host, cb) => {
          calls += 1;
          cb(null, [{ address: calls === 1 ? '127.0.0.1' : '10.255.255.1', family: 4 }]);
        },
      });
      expect(result).toMatchObject({ statusCode: 200, error: null });
      expect(calls).toBe(1);
      expect(receiver.arrivals).toHaveLength(1);
    } finally {
      await receiver.close();
    }
  });

  it('a redirect to loopback is not followed', async () => {
    const inner = await startWebhookReceiver();
    const outer = await startWebhookReceiver();
    try {
      outer.plan({ status: 307, headers: { location: inner.url } });
      const result = await sendAttempt({ url: outer.url, body: '{}', headers, timeoutMs: 2_000, rules: DEVELOPMENT });
      expect(result).toMatchObject({ statusCode: 307, error: 'redirect' });
      expect(inner.arrivals).toHaveLength(0);
    } finally {
      await inner.close();
      await outer.close();
    }
  });

  it('a 1 GB answer: at most 1,024 bytes kept, the connection dropped long before', async () => {
    let written = 0;
    const { url, server } = await rawReceiver((socket) => {
      socket.on('error', () => undefined);
      socket.once('data', () => {
        socket.write('HTTP/1.1 200 OK\r\ncontent-length: 1073741824\r\n\r\n');
        const chunk = Buffer.alloc(64 * 1024, 0x61);
        const pump = () => {
          while (!socket.destroyed && written < 1_073_741_824) {
            written += chunk.length;
            if (!socket.write(chunk)) return void socket.once('drain', pump);
          }
        };
        pump();
      });
    });
    try {
      const result = await sendAttempt({ url, body: '{}', headers, timeoutMs: 5_000, rules: DEVELOPMENT });
      expect(result.statusCode).toBe(200);
      expect(Buffer.byteLength(result.excerpt)).toBeLessThanOrEqual(EXCERPT_BYTES);
      expect(result.excerpt).toBe('a'.repeat(EXCERPT_BYTES));
      expect(written).toBeLessThan(64 * 1024 * 1024);
    } finally {
      await closeNet(server);
    }
  });

  it('invalid UTF-8 and NUL in an answer: the excerpt is valid text of at most 1,024 bytes', async () => {
    const { url, server } = await rawReceiver((socket) => {
      socket.on('error', () => undefined);
      socket.once('data', () => {
        const body = Buffer.concat([Buffer.from([0xff, 0xfe, 0x00, 0xc3]), Buffer.alloc(1030, 0xe2)]);
        socket.end(
          Buffer.concat([Buffer.from(`HTTP/1.1 500 X\r\ncontent-length: ${String(body.length)}\r\n\r\n`), body]),
        );
      });
    });
    try {
      const result = await sendAttempt({ url, body: '{}', headers, timeoutMs: 2_000, rules: DEVELOPMENT });
      expect(result).toMatchObject({ statusCode: 500, error: 'http_status' });
      expect(result.excerpt).not.toContain('\u0000');
      // Stored as UTF-8: replacement characters take 3 bytes each, the kept excerpt says at most 1,024 bytes.
      expect(Buffer.byteLength(result.excerpt, 'utf8')).toBeLessThanOrEqual(EXCERPT_BYTES);
    } finally {
      await closeNet(server);
    }
  });

  it.each([
    ['slowloris headers', (socket: Socket) => trickle(socket, 'HTTP/1.1 200 OK\r\nx-a: ')],
    ['a never-ending body', (socket: Socket) => trickle(socket, 'HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n')],
    ['silence', () => undefined],
  ])('%s: the attempt ends at the timeout', async (_what, behave) => {
    const { url, server } = await rawReceiver((socket) => {
      socket.on('error', () => undefined);
      socket.once('data', () => behave(socket));
    });
    try {
      const started = Date.now();
      const result = await sendAttempt({ url, body: '{}', headers, timeoutMs: 600, rules: DEVELOPMENT });
      expect(Date.now() - started).toBeLessThan(600 + 1_500);
      expect(Buffer.byteLength(result.excerpt)).toBeLessThanOrEqual(EXCERPT_BYTES);
      if (_what !== 'a never-ending body') expect(result.error).toBe('timeout');
    } finally {
      await closeNet(server);
    }
  });

  it('a receiver answering before reading the body: its answer is recorded', async () => {
    const { url, server } = await rawReceiver((socket) => {
      socket.on('error', () => undefined);
      socket.once('data', () => socket.end('HTTP/1.1 503 Busy\r\ncontent-length: 4\r\nconnection: close\r\n\r\nbusy'));
    });
    try {
      const result = await sendAttempt({
        url,
        body: JSON.stringify({ pad: 'x'.repeat(4 * 1024 * 1024) }),
        headers,
        timeoutMs: 2_000,
        rules: DEVELOPMENT,
      });
      // Either its 503 was read, or the connection was reset mid-body: both retried, neither a success.
      expect(result.error === 'http_status' || result.error === 'connection').toBe(true);
    } finally {
      await closeNet(server);
    }
  });
});

function trickle(socket: Socket, head: string) {
  socket.write(head);
  const timer = setInterval(() => {
    if (socket.destroyed) return clearInterval(timer);
    socket.write(head.includes('chunked') ? '1\r\na\r\n' : 'a');
  }, 50);
  socket.on('close', () => clearInterval(timer));
}

describe('webhook signatures: the snippet in docs/webhooks.md', () => {
  type Verify = (h: Record<string, string>, body: string, secret: string, now?: number) => boolean;
  let verify: Verify;

  beforeAll(async () => {
    const doc = readFileSync(new URL('../../../docs/webhooks.md', import.meta.url), 'utf8');
    const code = /```js\n([\s\S]*?)```/.exec(doc)?.[1];
    expect(code).toBeDefined();
    const file = join(mkdtempSync(join(tmpdir(), 'wh-snippet-')), 'verify.mjs');
    writeFileSync(file, code!);
    verify = ((await import(pathToFileURL(file).href)) as { verifyWebhook: Verify }).verifyWebhook;
  });

  const body = JSON.stringify({ id: 'k', data: { campaign: 'Promoção de Natal 🎄', recipient: '+55 11 9****-1234' } });

  it('accepts what the server signs, with one secret and with two during a rotation', () => {
    const [a, b] = [newWebhookSecret(), newWebhookSecret()];
    const ts = 1_800_000_000;
    const one = { 'webhook-signature': signatureHeader([a], ts, body) };
    const two = { 'webhook-signature': signatureHeader([b, a], ts, body) };
    expect(verify(one, body, a, ts)).toBe(true);
    expect(verify(two, body, a, ts)).toBe(true);
    expect(verify(two, body, b, ts + 299)).toBe(true);
    expect(verify(one, body, b, ts)).toBe(false);
  });

  it('refuses an altered body, timestamp or signature, a replay after 5 minutes, and junk headers', () => {
    const secret = newWebhookSecret();
    const ts = 1_800_000_000;
    const header = signatureHeader([secret], ts, body);
    expect(verify({ 'webhook-signature': header }, `${body} `, secret, ts)).toBe(false);
    expect(verify({ 'webhook-signature': header.replace(`t=${String(ts)}`, `t=${String(ts + 1)}`) }, body, secret, ts)).toBe(
      false,
    );
    expect(verify({ 'webhook-signature': header.replace(/v1=./, 'v1=0') }, body, secret, ts)).toBe(false);
    expect(verify({ 'webhook-signature': header }, body, secret, ts + 301)).toBe(false);
    for (const junk of ['', 't=', 'v1=', `t=${String(ts)}`, `t=${String(ts)},v1=zz`, `t=1e3,v1=${'0'.repeat(64)}`])
      expect(verify({ 'webhook-signature': junk }, body, secret, ts)).toBe(false);
  });
});
