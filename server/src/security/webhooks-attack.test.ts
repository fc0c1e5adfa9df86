import { once } from 'node:events';
import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import type { Server } from 'node:http';
import { createServer as createNetServer, type Server as NetServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { decodeServerFrame } from '../../../src/domain/socket-codec';
import { admitted, openSocket, socketQuery, socketTicket } from '../test-support/socket-client';
import type { Actor } from '../access/caller';
import { NO_ORIGIN } from '../access/caller';
import { loadConfig, type WebhookSettings } from '../base/config';
import { DomainError } from '../base/domain-error';
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
import { createWebhookEndpointsService } from '../webhooks/endpoints';
import { createWebhooksService } from '../webhooks/service';
import { createAuditTrail } from '../audit/trail';

/**
 * An attack on the campaign-status webhooks (docs/webhooks.md): every way to make the server call a
 * non-public address, who may touch whose endpoints, runs and deliveries, deleted and paused endpoints and
 * tenants, concurrency on PostgreSQL, hostile receivers, the documented verification snippet, and the
 * seams between the server and the contract (the SPA's rules against the server's: tests/unit/webhooks-attack-seams.test.ts). Each test fails if its hole is there.
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
  'https://localhost../', // two trailing dots (only one was dropped: DNS then answered for it)
  'https://a.localhost../',
  'https://127.0.0.1../',
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

describe('webhook addresses: registration and send refuse every non-public spelling', () => {
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
    // A scheme other than https (an endpoint registered with http in development, the server now without
    // the setting) never leaves either, whatever its host.
    for (const url of [
      'http://public.example/',
      'ftp://public.example/',
      'ws://public.example/',
      'file:///etc/passwd',
    ]) {
      const result = await sendAttempt({ url, body: '{}', headers, timeoutMs: 500, rules: PRODUCTION, resolve });
      expect([url, result.error]).toEqual([url, 'address_refused']);
    }
    // Nothing above asked DNS, IP literals and `localhost` refused as written, other schemes before; but for
    // hosts with two final dots, which the send-time check (./addresses.ts `bareHost`) takes for names: they
    // are resolved, and the loopback answer refused (registration refuses them as written).
    expect(resolved).toEqual(['localhost.', 'a.localhost.', '127.0.0.1.']);
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

  it('a name answering a mapped, unspecified or metadata address is refused, even in development', async () => {
    for (const address of [
      { address: '::ffff:127.0.0.1', family: 6 },
      { address: '::ffff:169.254.169.254', family: 6 },
      { address: '169.254.169.254', family: 4 },
      { address: '0.0.0.0', family: 4 },
      { address: '::', family: 6 },
      { address: 'fe80::1', family: 6 },
      { address: '64:ff9b::a9fe:a9fe', family: 6 },
      { address: 'not-an-address', family: 4 },
    ]) {
      const lookup = guardedLookup(DEVELOPMENT, (_host, cb) => cb(null, [address]));
      const error = await new Promise<unknown>((resolve) => lookup('evil.example', { all: true }, (e) => resolve(e)));
      expect([address.address, (error as { code?: string } | null)?.code]).toEqual([
        address.address,
        'WEBHOOK_ADDRESS_REFUSED',
      ]);
    }
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
    [
      'a never-ending body',
      (socket: Socket) => trickle(socket, 'HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n'),
    ],
    ['silence', () => undefined],
  ])('%s: the attempt ends at the timeout', async (_what, behave) => {
    const { url, server } = await rawReceiver((socket) => {
      socket.on('error', () => undefined);
      socket.once('data', () => behave(socket));
    });
    try {
      const result = await sendAttempt({ url, body: '{}', headers, timeoutMs: 600, rules: DEVELOPMENT });
      expect(Buffer.byteLength(result.excerpt)).toBeLessThanOrEqual(EXCERPT_BYTES);
      // Only the timer ends these (the test's own timeout fails it otherwise); a 2xx whose body never ends is
      // no complete answer either (docs/webhooks.md, Retries): a timeout, retried.
      expect(result).toMatchObject({ statusCode: null, error: 'timeout' });
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
    expect(
      verify({ 'webhook-signature': header.replace(`t=${String(ts)}`, `t=${String(ts + 1)}`) }, body, secret, ts),
    ).toBe(false);
    expect(
      verify(
        { 'webhook-signature': header.replace(/v1=(.)/, (_, c: string) => `v1=${c === '0' ? '1' : '0'}`) },
        body,
        secret,
        ts,
      ),
    ).toBe(false);
    expect(verify({ 'webhook-signature': header }, body, secret, ts + 301)).toBe(false);
    for (const junk of ['', 't=', 'v1=', `t=${String(ts)}`, `t=${String(ts)},v1=zz`, `t=1e3,v1=${'0'.repeat(64)}`])
      expect(verify({ 'webhook-signature': junk }, body, secret, ts)).toBe(false);
  });
});

/** A marker event after the ones under test: every socket has seen what came before it. */
const MARKER = {
  campaignId: 2,
  name: 'Natal',
  status: 'running',
  total: 10,
  sent: 1,
  delivered: 0,
  read: 0,
  failed: 0,
  replied: 0,
} as const;

const qs = (query: Record<string, string | number>) =>
  new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])).toString();

describe.each([
  ['PGlite', false],
  ['PostgreSQL', true],
])('webhooks attacked on %s', (_label, postgres) => {
  let cluster: ThrowawayPostgres | undefined;
  let t: TestApp;
  let settings: WebhookSettings;
  let staff: { authorization: string };
  let staffNoTenants: { authorization: string };
  let adminA: { authorization: string };
  let operatorA: { authorization: string };
  let a: { id: number; name: string };
  let b: { id: number; name: string };
  let receiver: WebhookReceiver;
  let day = 0;
  const workers: WebhookWorker[] = [];
  const anonymous = { authorization: '' };

  beforeAll(async () => {
    if (postgres) cluster = await startThrowawayPostgres();
    settings = {
      ...loadConfig().webhooks,
      worker: false,
      allowLoopback: true,
      timeoutMs: 1_000,
      retryBaseMs: 60_000,
      retryMaxMs: 60_000,
      maxAttempts: 2,
      pollMs: 50,
    };
    t = await startTestApp({
      ...(cluster ? { databaseUrl: cluster.url } : {}),
      seed: { days: 1 },
      config: { webhooks: settings },
    });
    staff = await t.auth('admin@demo.local');
    const tenants = await t.db
      .selectFrom('tenants')
      .select(['id', 'name'])
      .where('deleted_at', 'is', null)
      .where('name', '!=', 'backoffice')
      .orderBy('id')
      .limit(2)
      .execute();
    [a, b] = [tenants[0]!, tenants[1]!];
    await createTestRole(t.db, 'wh-ataque-sem-tenants', ['users']);
    await createTestRole(t.db, 'wh-ataque-com-tenants', ['tenants']);
    const user = async (email: string, tenant: string, role: string) =>
      issuedBearer(t, (await createTestUser(t.db, { email, tenant, role })).id);
    staffNoTenants = await user('wh.sem@backoffice.local', 'backoffice', 'wh-ataque-sem-tenants');
    adminA = await user('wh.admin@a.local', a.name, 'administrador');
    operatorA = await user('wh.operador@a.local', a.name, 'wh-ataque-com-tenants');
    await t.app.fastify.listen({ host: '127.0.0.1', port: 0 });
  }, 240_000);

  afterAll(async () => {
    await t?.close();
    await cluster?.stop();
  });

  beforeEach(async () => {
    receiver = await startWebhookReceiver();
    await t.db
      .updateTable('webhook_endpoints')
      .set({ deleted_at: new Date() })
      .where('deleted_at', 'is', null)
      .execute();
    day += 1;
  });

  afterEach(async () => {
    for (const worker of workers.splice(0)) await worker.stop();
    await receiver.close();
  });

  const startWorker = () => {
    const worker = startWebhookWorker({ db: t.db, settings, progress: t.app.webhookProgress });
    workers.push(worker);
    return worker;
  };

  const send = async (
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    as: { authorization: string },
    payload?: object,
  ) => {
    const response = await t.app.fastify.inject({
      method,
      url,
      headers: as.authorization ? as : {},
      ...(payload ? { payload } : {}),
    });
    let body: unknown;
    try {
      body = response.json();
    } catch {
      body = response.body;
    }
    return { status: response.statusCode, body, text: response.body };
  };

  const testDay = () => {
    const at = new Date(Date.now() - (20 + day) * 86_400_000);
    const date = saoPauloDay(at);
    return { at: new Date(`${date}T15:00:00Z`), date };
  };

  /** A run of `messages` messages of `tenant` to one endpoint at the receiver (or `url`). */
  async function run(tenant: { id: number; name: string }, messages: number, url = receiver.url) {
    const { at, date } = testDay();
    const endpoint = await insertEndpoint(t.db, { tenantId: tenant.id, url: `${url}?${tenant.name}` });
    receiver.secrets = [endpoint.secret];
    await insertMessages(t.db, { tenantId: tenant.id, count: messages, at, campaign: 'Promoção 🎄 "Natal"' });
    const generated = await send(
      'GET',
      `/api/tenant/generate-campaign-status-webhook?${qs({ tenantName: tenant.name, startAt: date, finishAt: date, type: 'delivered' })}`,
      staff,
    );
    expect(generated.status).toBe(200);
    const runId = (generated.body as { deliveryId: number }).deliveryId;
    const deliveries = await t.db
      .selectFrom('webhook_deliveries')
      .select(['id', 'state', 'idempotency_key'])
      .where('run_id', '=', runId)
      .orderBy('id')
      .execute();
    return { runId, endpoint, deliveries, date };
  }

  const finished = async (runId: number) =>
    (await t.db.selectFrom('webhook_runs').select('finished_at').where('id', '=', runId).executeTakeFirstOrThrow())
      .finished_at !== null;

  const snapshot = async (tenantId: number) => ({
    endpoints: await t.db
      .selectFrom('webhook_endpoints')
      .selectAll()
      .where('tenant_id', '=', tenantId)
      .orderBy('id')
      .execute(),
    deliveries: await t.db
      .selectFrom('webhook_deliveries')
      .selectAll()
      .where('tenant_id', '=', tenantId)
      .orderBy('id')
      .execute(),
  });

  /** Every webhook operation on the records of `tenant` (its endpoint, run and delivery). */
  /** The operations of {@link operations}, in its order. */
  const OPERATION_IDS = [
    'webhookEndpointList',
    'webhookEndpointCreate',
    'webhookEndpointUpdate',
    'webhookEndpointRotateSecret',
    'webhookEndpointDelete',
    'webhookRunList',
    'webhookRunGet',
    'webhookRunRedeliverFailed',
    'webhookDeliveryList',
    'webhookDeliveryGet',
    'webhookDeliveryRedeliver',
    'tenantGenerateCampaignStatusWebhook',
  ];

  const operations = (tenant: string, ids: { endpoint: number; run: number; delivery: number }) =>
    [
      ['GET', `/api/webhooks/endpoints?${qs({ tenantName: tenant })}`],
      [
        'POST',
        '/api/webhooks/endpoints',
        { tenantName: tenant, url: 'https://hooks.ataque.example/x', types: ['sent'] },
      ],
      ['PUT', `/api/webhooks/endpoints/${String(ids.endpoint)}`, { description: 'tomada', active: false }],
      ['POST', `/api/webhooks/endpoints/${String(ids.endpoint)}/rotate-secret`, {}],
      ['DELETE', `/api/webhooks/endpoints/${String(ids.endpoint)}`],
      ['GET', `/api/webhooks/runs?${qs({ tenantName: tenant })}`],
      ['GET', `/api/webhooks/runs/${String(ids.run)}`],
      ['POST', `/api/webhooks/runs/${String(ids.run)}/redeliver-failed`, {}],
      ['GET', `/api/webhooks/deliveries?${qs({ tenantName: tenant })}`],
      ['GET', `/api/webhooks/deliveries/${String(ids.delivery)}`],
      ['POST', `/api/webhooks/deliveries/${String(ids.delivery)}/redeliver`, {}],
      [
        'GET',
        `/api/tenant/generate-campaign-status-webhook?${qs({ tenantName: tenant, startAt: '2026-01-01', finishAt: '2026-01-01', type: 'delivered' })}`,
      ],
    ] as const;

  it("nobody but staff with `tenants` and the tenant's administrador reaches a tenant's webhooks", async () => {
    const ofB = await run(b, 1);
    await t.db
      .updateTable('webhook_deliveries')
      .set({ state: 'failed', next_attempt_at: null, completed_at: new Date() })
      .where('run_id', '=', ofB.runId)
      .execute();
    const ids = { endpoint: ofB.endpoint.id, run: ofB.runId, delivery: ofB.deliveries[0]!.id };
    const before = await snapshot(b.id);
    const refusals: string[] = [];
    let index = 0;
    for (const [who, as, allowed] of [
      ['anonymous', anonymous, [401]],
      ['staff without tenants', staffNoTenants, [403]],
      ["A's operador with tenants", operatorA, [403]],
      ["A's administrador on B", adminA, [403, 404]],
    ] as const) {
      for (const [method, url, payload] of operations(b.name, ids)) {
        // A tenant's user names no tenant in the generation but its own: B named is 403, not a run of A.
        const answer = await send(method, url, as, payload);
        if (!(allowed as readonly number[]).includes(answer.status))
          refusals.push(`${who} ${method} ${url}: ${String(answer.status)} ${answer.text.slice(0, 120)}`);
        // Every refusal as the contract words it.
        const checked = validateResponse(OPERATION_IDS[index]!, answer.status, answer.body);
        if (!checked.valid) refusals.push(`${who} ${method} ${url}: ${JSON.stringify(checked.errors).slice(0, 200)}`);
        index += 1;
      }
      index = 0;
    }
    expect(refusals).toEqual([]);
    expect(await snapshot(b.id)).toEqual(before);
    expect(receiver.arrivals).toHaveLength(0);
  });

  it("another tenant's run or endpoint in a filter matches nothing; a tenant's user cannot list another's", async () => {
    const ofA = await run(a, 1);
    const ofB = await run(b, 2);
    for (const [as, tenantName] of [
      [adminA, undefined],
      [adminA, a.name],
      [staff, a.name],
    ] as const) {
      for (const filter of [{ runId: ofB.runId }, { endpointId: ofB.endpoint.id }] as Record<string, number>[]) {
        const answer = await send(
          'GET',
          `/api/webhooks/deliveries?${qs({ ...(tenantName ? { tenantName } : {}), ...filter })}`,
          as,
        );
        expect(answer.status).toBe(200);
        expect(answer.body).toEqual({ data: [], next: null });
      }
      const runs = await send('GET', `/api/webhooks/runs?${qs(tenantName ? { tenantName } : {})}`, as);
      expect((runs.body as { data: { id: number }[] }).data.map((r) => r.id)).not.toContain(ofB.runId);
    }
    const own = await send('GET', `/api/webhooks/deliveries?${qs({ runId: ofA.runId })}`, adminA);
    expect((own.body as { data: unknown[] }).data).toHaveLength(1);
    expect(validateResponse('webhookDeliveryList', 200, own.body)).toEqual({ valid: true, errors: [] });
  });

  it('a signing secret is answered once: never in lists, audit records, socket events, errors or another answer', async () => {
    const events: PanelEvent[] = [];
    const unsubscribe = t.app.events.subscribe((event) => void events.push(event));
    try {
      const created = await send('POST', '/api/webhooks/endpoints', staff, {
        tenantName: a.name,
        url: `https://hooks-${String(day)}.segredo.example/x`,
        types: ['delivered'],
      });
      expect(created.status).toBe(201);
      expect(validateResponse('webhookEndpointCreate', 201, created.body)).toEqual({ valid: true, errors: [] });
      const { endpoint, secret } = created.body as { endpoint: { id: number; version: number }; secret: string };
      const rotated = await send('POST', `/api/webhooks/endpoints/${String(endpoint.id)}/rotate-secret`, adminA, {});
      expect(rotated.status).toBe(200);
      const second = (rotated.body as { secret: string }).secret;
      const updated = await send('PUT', `/api/webhooks/endpoints/${String(endpoint.id)}`, adminA, {
        description: 'x',
        version: 1,
      });
      const answers = [
        updated.text,
        (await send('GET', `/api/webhooks/endpoints?${qs({ tenantName: a.name })}`, staff)).text,
        (await send('GET', '/api/webhooks/endpoints', adminA)).text,
        (await send('GET', `/api/audit?${qs({ tenantName: a.name })}`, staff)).text,
        (await send('PUT', `/api/webhooks/endpoints/${String(endpoint.id)}`, adminA, { url: 'https://10.0.0.1/' }))
          .text,
        JSON.stringify(events),
        JSON.stringify(await t.db.selectFrom('audit_log').selectAll().execute()),
        JSON.stringify(await t.db.selectFrom('webhook_endpoints').selectAll().where('id', '=', endpoint.id).execute()),
      ];
      for (const text of answers) {
        expect(text).not.toContain(secret);
        expect(text).not.toContain(second);
        // Not even the part after the prefix, nor as base64 of its bytes.
        expect(text).not.toContain(secret.slice(6, 30));
      }
    } finally {
      unsubscribe();
    }
  });

  it("a deleted tenant's endpoints receive nothing, even what was queued before; restored, they do", async () => {
    const doomed = await t.db
      .insertInto('tenants')
      .values({
        name: `wh-apagado-${String(day)}`,
        cnpj: `77.777.77${String(day)}/0001-00`,
        template: 't',
        pool: 'p',
        plan: 'starter',
        user_limit: 5,
        ticket_limit: 5,
      })
      .returning(['id', 'name'])
      .executeTakeFirstOrThrow();
    const gone = await run(doomed, 2);
    const live = await run(a, 1);
    await t.db.updateTable('tenants').set({ deleted_at: new Date() }).where('id', '=', doomed.id).execute();
    startWorker();
    await until(() => finished(live.runId), 15_000, "the live tenant's run");
    // The live tenant's delivery was due with (after) the deleted one's: if those were sent, they were sent by now.
    expect(receiver.arrivals.map((arrival) => arrival.id)).toEqual(live.deliveries.map((d) => d.idempotency_key));
    const rows = await t.db
      .selectFrom('webhook_deliveries')
      .select(['state', 'attempts'])
      .where('run_id', '=', gone.runId)
      .execute();
    expect(rows).toEqual([
      { state: 'pending', attempts: 0 },
      { state: 'pending', attempts: 0 },
    ]);
    // A deleted tenant's administrador, forged: nothing of its webhooks is reachable.
    const adminC = await createTestUser(t.db, {
      email: `wh.c${String(day)}@c.local`,
      tenant: doomed.name,
      role: 'administrador',
    });
    const actor = await actorOf(adminC.id);
    const services = servicesOf();
    const outcomes = await Promise.all([
      services.endpoints.list(actor).then(() => 200, statusOf),
      services.endpoints.update(actor, gone.endpoint.id, { active: false }).then(() => 200, statusOf),
      services.endpoints.rotateSecret(actor, gone.endpoint.id).then(() => 200, statusOf),
      services.endpoints.remove(actor, gone.endpoint.id).then(() => 200, statusOf),
      services.webhooks.runs(actor, {}).then(() => 200, statusOf),
      services.webhooks.run(actor, gone.runId).then(() => 200, statusOf),
      services.webhooks.delivery(actor, gone.deliveries[0]!.id).then(() => 200, statusOf),
      services.webhooks.redeliver(actor, gone.deliveries[0]!.id).then(() => 200, statusOf),
      services.webhooks.redeliverFailed(actor, gone.runId).then(() => 200, statusOf),
    ]);
    // Through the door too: its bearer opens nothing of the deleted tenant's webhooks.
    const bearerC = await issuedBearer(t, adminC.id);
    for (const [method, url, payload] of operations(doomed.name, {
      endpoint: gone.endpoint.id,
      run: gone.runId,
      delivery: gone.deliveries[0]!.id,
    })) {
      const answer = await send(method, url, bearerC, payload);
      expect([method, url, [401, 403, 404].includes(answer.status)]).toEqual([method, url, true]);
    }
    const names = [
      'list',
      'update',
      'rotateSecret',
      'remove',
      'runs',
      'run',
      'delivery',
      'redeliver',
      'redeliverFailed',
    ];
    expect(names.filter((_, i) => outcomes[i] !== 404 && outcomes[i] !== 403)).toEqual([]);
    // Restored: what waited is sent.
    await t.db.updateTable('tenants').set({ deleted_at: null }).where('id', '=', doomed.id).execute();
    workers[0]!.nudge();
    await until(() => finished(gone.runId), 15_000, 'the restored tenant’s run');
    expect(receiver.keys()).toEqual(new Set([...live.deliveries, ...gone.deliveries].map((d) => d.idempotency_key)));
  });

  it('a paused endpoint receives nothing and cannot be redelivered to; an address changed to a private one is refused', async () => {
    const { runId, endpoint, deliveries } = await run(a, 1);
    const paused = await send('PUT', `/api/webhooks/endpoints/${String(endpoint.id)}`, staff, { active: false });
    expect(paused.status).toBe(200);
    for (const url of [
      'https://169.254.169.254/',
      'https://[::ffff:a9fe:a9fe]/',
      'https://10.0.0.1/',
      'https://0.0.0.0/',
    ])
      expect((await send('PUT', `/api/webhooks/endpoints/${String(endpoint.id)}`, staff, { url })).status).toBe(400);
    const worker = startWorker();
    await t.db
      .updateTable('webhook_deliveries')
      .set({ state: 'failed', next_attempt_at: null, completed_at: new Date() })
      .where('run_id', '=', runId)
      .execute();
    const redelivered = await send(
      'POST',
      `/api/webhooks/deliveries/${String(deliveries[0]!.id)}/redeliver`,
      staff,
      {},
    );
    expect(redelivered.status).toBe(409);
    const all = await send('POST', `/api/webhooks/runs/${String(runId)}/redeliver-failed`, staff, {});
    expect(all.body).toEqual({ requeued: 0, skipped: 1 });
    worker.nudge();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(receiver.arrivals).toHaveLength(0);
    const row = await t.db
      .selectFrom('webhook_endpoints')
      .select('url')
      .where('id', '=', endpoint.id)
      .executeTakeFirstOrThrow();
    expect(row.url).toContain('127.0.0.1');
  });

  it('every webhook answer matches the contract, the socket event matches WebhookRun', async () => {
    const events: PanelEvent[] = [];
    const unsubscribe = t.app.events.subscribe(
      (event) => void (event.event === 'WebhookRunProgress' && events.push(event)),
    );
    try {
      receiver.plan({ status: 500, body: '\u00ff'.repeat(700) });
      const { runId, endpoint, deliveries } = await run(a, 2);
      startWorker();
      await until(
        async () =>
          (
            await t.db
              .selectFrom('webhook_attempts')
              .select('delivery_id')
              .where(
                'delivery_id',
                'in',
                deliveries.map((d) => d.id),
              )
              .execute()
          ).length >= 2,
        15_000,
        'two attempts',
      );
      const checks: [string, string][] = [
        ['webhookEndpointList', `/api/webhooks/endpoints?${qs({ tenantName: a.name })}`],
        ['webhookRunList', `/api/webhooks/runs?${qs({ tenantName: a.name, limit: 1 })}`],
        ['webhookRunGet', `/api/webhooks/runs/${String(runId)}`],
        [
          'webhookDeliveryList',
          `/api/webhooks/deliveries?${qs({ tenantName: a.name, runId, endpointId: endpoint.id })}`,
        ],
        ['webhookDeliveryGet', `/api/webhooks/deliveries/${String(deliveries[0]!.id)}`],
        ['webhookDeliveryGet', `/api/webhooks/deliveries/${String(deliveries[1]!.id)}`],
      ];
      for (const [operation, url] of checks) {
        const answer = await send('GET', url, staff);
        expect([operation, answer.status]).toEqual([operation, 200]);
        expect([operation, validateResponse(operation, 200, answer.body)]).toEqual([
          operation,
          { valid: true, errors: [] },
        ]);
      }
      for (const event of events)
        expect(validateResponse('webhookRunGet', 200, event.data)).toEqual({ valid: true, errors: [] });
      expect(events.length).toBeGreaterThan(0);
    } finally {
      unsubscribe();
    }
  });

  it('hostile bodies: huge, repeated, wrongly typed or control-laden fields are refused without a 5xx or a row', async () => {
    const count = async () =>
      Number(
        (
          await t.db
            .selectFrom('webhook_endpoints')
            .select(sql<number>`count(*)::int`.as('n'))
            .where('tenant_id', '=', a.id)
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await count();
    const url = `https://hooks-${String(day)}.hostil.example/x`;
    const bodies: object[] = [
      { tenantName: a.name, url, types: Array<string>(10_000).fill('sent') },
      { tenantName: a.name, url, types: ['sent', 'sent'] },
      { tenantName: a.name, url, types: ['SENT'] },
      { tenantName: a.name, url, types: [] },
      { tenantName: a.name, url, types: 'sent' },
      { tenantName: a.name, url, types: [{ toString: 'sent' }] },
      { tenantName: a.name, url, types: ['sent'], description: 'a'.repeat(1_000_000) },
      { tenantName: a.name, url, types: ['sent'], description: 'a\u0000b' },
      { tenantName: a.name, url, types: ['sent'], description: 'linha\nquebrada' },
      { tenantName: a.name, url, types: ['sent'], description: 42 },
      { tenantName: a.name, url: `${url}/${'a'.repeat(100_000)}`, types: ['sent'] },
      { tenantName: a.name, url: `${url}\u0000`, types: ['sent'] },
      { tenantName: a.name, url: `${url}/\u009b`, types: ['sent'] },
      { tenantName: a.name, url: ['https://hooks.example/'], types: ['sent'] },
      { tenantName: { name: a.name }, url, types: ['sent'] },
      { tenantName: 'x'.repeat(10_000), url, types: ['sent'] },
      { tenantName: a.name, url, types: ['sent'], secret: 'whsec_escolhido-pelo-atacante' },
      { tenantName: a.name, url, types: ['sent'], active: false, id: 1, tenant_id: b.id },
    ];
    const answers: number[] = [];
    for (const body of bodies) answers.push((await send('POST', '/api/webhooks/endpoints', staff, body)).status);
    expect(answers.filter((status) => status >= 500)).toEqual([]);
    expect(bodies.filter((_, i) => answers[i]! < 300)).toEqual([]);
    expect(await count()).toBe(before);
    // A Unicode host, path and description are taken, and the answer still matches the contract.
    const idn = await send('POST', '/api/webhooks/endpoints', staff, {
      tenantName: a.name,
      url: `https://ganchos-${String(day)}.farmácia.example/🎉`,
      types: ['sent'],
      description: 'Farmácia Ünïcode 🎉 ‮',
    });
    expect(idn.status).toBe(201);
    expect(validateResponse('webhookEndpointCreate', 201, idn.body)).toEqual({ valid: true, errors: [] });
  });

  it("a run's progress on the socket reaches the tenant's administrador and staff, not an operador holding `tenants`", async () => {
    const base = `ws://127.0.0.1:${String((t.app.fastify.server.address() as AddressInfo).port)}/ws`;
    const connect = async (as: { authorization: string }, tenantName: string) => {
      const me = await t.app.fastify.inject({ method: 'GET', url: '/api/auth/userInfo', headers: as });
      const userId = me.json<{ user: { id: number } }>().user.id;
      const ws = await openSocket(base, socketQuery(tenantName, userId, await socketTicket(t.app, as.authorization)));
      await admitted(ws, tenantName, userId);
      const names: string[] = [];
      ws.on('message', (raw) => {
        const decoded = decodeServerFrame(String(raw));
        if (decoded.ok) names.push(decoded.event.name);
      });
      return { ws, names };
    };
    const sockets = {
      admin: await connect(adminA, a.name),
      operator: await connect(operatorA, a.name),
      staffOnA: await connect(staff, a.name),
      staffNoTenants: await connect(staffNoTenants, 'backoffice'),
    };
    try {
      const { runId } = await run(a, 1);
      t.app.webhookProgress.changed(runId);
      await t.app.webhookProgress.flush();
      t.app.events.publishToEveryTenant('CampaignUpdated', MARKER);
      await until(
        () => Object.values(sockets).every((socket) => socket.names.includes('campaignUpdated')),
        10_000,
        'the marker on every socket',
      );
      expect(sockets.admin.names).toContain('webhookRunProgress');
      expect(sockets.staffOnA.names).toContain('webhookRunProgress');
      expect(sockets.operator.names).not.toContain('webhookRunProgress');
      expect(sockets.staffNoTenants.names).not.toContain('webhookRunProgress');
      // The REST door agrees: the operador may not read the run the socket would have told it about.
      expect((await send('GET', `/api/webhooks/runs/${String(runId)}`, operatorA)).status).toBe(403);
    } finally {
      for (const socket of Object.values(sockets)) socket.ws.close();
    }
  });

  it("a tenant's operador holding `tenants` starts no run of its own tenant: generating is the administrador's too (403)", async () => {
    const { at, date } = testDay();
    await insertEndpoint(t.db, { tenantId: a.id, url: `${receiver.url}?operador` });
    await insertMessages(t.db, { tenantId: a.id, count: 1, at });
    const runs = async () =>
      (await t.db.selectFrom('webhook_runs').select('id').where('tenant_id', '=', a.id).execute()).length;
    const before = await runs();
    const generate = (as: { authorization: string }) =>
      send(
        'GET',
        `/api/tenant/generate-campaign-status-webhook?${qs({ tenantName: a.name, startAt: date, finishAt: date, type: 'delivered' })}`,
        as,
      );
    const refused = await generate(operatorA);
    expect(refused.status, refused.text).toBe(403);
    expect(validateResponse('tenantGenerateCampaignStatusWebhook', 403, refused.body)).toEqual({
      valid: true,
      errors: [],
    });
    expect(await runs()).toBe(before);
    // The tenant's administrador may.
    expect((await generate(adminA)).status).toBe(200);
    expect(await runs()).toBe(before + 1);
  });

  /** The services of the app's database, built as server/src/services.ts builds them. */
  function servicesOf() {
    const audit = createAuditTrail({ db: t.db, events: t.app.events });
    return {
      endpoints: createWebhookEndpointsService({ db: t.db, config: { webhooks: settings }, audit }),
      webhooks: createWebhooksService({ db: t.db, audit }),
    };
  }

  async function actorOf(userId: number): Promise<Actor> {
    const row = await t.db
      .selectFrom('users')
      .innerJoin('tenants', 'tenants.id', 'users.tenant_id')
      .innerJoin('roles', 'roles.id', 'users.role_id')
      .select([
        'users.id',
        'users.tenant_id',
        'tenants.name as tenant',
        'users.role_id',
        'roles.name as role',
        'users.origin_backoffice',
      ])
      .where('users.id', '=', userId)
      .executeTakeFirstOrThrow();
    return {
      kind: 'user',
      userId: row.id,
      tenantId: row.tenant_id,
      tenantName: row.tenant,
      roleId: row.role_id,
      role: row.role,
      originBackoffice: row.origin_backoffice,
      permissions: new Set(['tenants']),
      claims: { sub: String(row.id), fam: 'f', jti: 'j', tv: 0, rxp: 0, iat: 0, exp: 0 },
      origin: NO_ORIGIN,
    };
  }

  if (postgres)
    describe('at once, on PostgreSQL', () => {
      const N = 8;
      const statuses = (answers: { status: number }[]) => answers.map((x) => x.status).sort();

      it('identical creates, rotations, deletions, redeliveries: one winner each, no 5xx', async () => {
        const url = `https://hooks-${String(day)}.corrida.example/x`;
        const creates = await Promise.all(
          Array.from({ length: N }, () =>
            send('POST', '/api/webhooks/endpoints', staff, { tenantName: a.name, url, types: ['delivered'] }),
          ),
        );
        expect(statuses(creates)).toEqual([201, ...Array<number>(N - 1).fill(409)]);
        const id = (creates.find((x) => x.status === 201)!.body as { endpoint: { id: number } }).endpoint.id;
        const rotations = await Promise.all(
          Array.from({ length: N }, () =>
            send('POST', `/api/webhooks/endpoints/${String(id)}/rotate-secret`, staff, { version: 1 }),
          ),
        );
        expect(statuses(rotations)).toEqual([200, ...Array<number>(N - 1).fill(409)]);
        const deletions = await Promise.all(
          Array.from({ length: N }, () => send('DELETE', `/api/webhooks/endpoints/${String(id)}`, staff)),
        );
        expect(statuses(deletions).filter((s) => s !== 404)).toHaveLength(1);
        expect(statuses(deletions).every((s) => s < 300 || s === 404)).toBe(true);

        const { runId, deliveries } = await run(a, 3);
        await t.db
          .updateTable('webhook_deliveries')
          .set({ state: 'failed', next_attempt_at: null, completed_at: new Date() })
          .where('run_id', '=', runId)
          .execute();
        const one = await Promise.all(
          Array.from({ length: N }, () =>
            send('POST', `/api/webhooks/deliveries/${String(deliveries[0]!.id)}/redeliver`, staff, {}),
          ),
        );
        expect(statuses(one)).toEqual([200, ...Array<number>(N - 1).fill(409)]);
        const every = await Promise.all(
          Array.from({ length: N }, () =>
            send('POST', `/api/webhooks/runs/${String(runId)}/redeliver-failed`, staff, {}),
          ),
        );
        expect(every.every((x) => x.status === 200)).toBe(true);
        expect(every.reduce((sum, x) => sum + (x.body as { requeued: number }).requeued, 0)).toBe(2);
        const generations = await Promise.all(
          Array.from({ length: N }, () =>
            send(
              'GET',
              `/api/tenant/generate-campaign-status-webhook?${qs({ tenantName: a.name, startAt: testDay().date, finishAt: testDay().date, type: 'delivered' })}`,
              staff,
            ),
          ),
        );
        expect(generations.every((x) => x.status === 200)).toBe(true);
      });

      it('two workers on one database send each delivery once; the counters add up', async () => {
        const { runId, deliveries } = await run(a, 40);
        startWorker();
        startWorker();
        await until(() => finished(runId), 30_000, 'the run to finish');
        expect(receiver.arrivals).toHaveLength(deliveries.length);
        expect(receiver.keys()).toEqual(new Set(deliveries.map((d) => d.idempotency_key)));
        expect(receiver.arrivals.every((arrival) => arrival.verified[0] === true)).toBe(true);
        const got = (await send('GET', `/api/webhooks/runs/${String(runId)}`, staff)).body as Record<string, number>;
        expect(got.total).toBe(got.pending! + got.succeeded! + got.failed! + got.cancelled!);
        expect(got).toMatchObject({ total: 40, succeeded: 40 });
      });
    });
});

/** A service's refusal as its REST status (server/src/rest/domain-errors.ts); anything else 500. */
const statusOf = (error: unknown) =>
  error instanceof DomainError
    ? (({ forbidden: 403, not_found: 404, invalid: 400, conflict: 409, stale: 409 } as Record<string, number>)[
        error.kind
      ] ?? 500)
    : 500;
