import type { AddressInfo } from 'node:net';
import { BROKEN_PROMISES, breakPromises } from '../../../server/src/base/broken-promises';
import { startTestApp, type TestApp } from '../../../server/src/test-support/app';
import { GROUPS, formatResults, runConformance, type Result } from '../../../packages/conformance/src/kit.js';
import { decodeServerFrame, encodeClientFrame } from '../../../src/domain/socket-codec';
import { createTestRole, createTestUser, TEST_PASSWORD } from '../../../server/src/test-support/users';
import { userIdByEmail } from '../../../server/src/test-support/lookups';
import {
  admitted,
  closedWith,
  openSocket,
  socketQuery,
  socketTicket,
} from '../../../server/src/test-support/socket-client';
import type { WebSocket } from 'ws';
import type { InjectOptions } from 'fastify';
import { BROKEN_VARIANTS, type BrokenVariant } from './broken-variants';

/**
 * The conformance kit must fail a wrong server: ONE in-process reference server (PGlite), each broken
 * variant of server/src/base/broken-promises.ts turned on in turn, the kit run with `only` the groups that
 * check its promise. The run must fail, on the variant's own check (./broken-variants.ts), and no failure
 * may be a crash of the kit (a request that failed, a group that stopped): a kit that fails by accident
 * proves nothing. The unbroken server then passes every group. docs/conformance.md.
 */

/** The kit's failures that are a crash rather than a check that found a broken promise. */
const CRASH = /request failed|the group stopped/;
const groupNames = new Set(GROUPS.map((g) => g.name));
const caught = BROKEN_VARIANTS;

let testApp: TestApp | undefined;
let baseUrl = '';
/** What each run took, reported at the end. */
const timings: { variant: string; groups: string; ms: number; caughtBy: string }[] = [];

async function runWith(variants: BrokenVariant['name'][], only: string[], timeoutMs?: number): Promise<Result[]> {
  breakPromises(variants);
  try {
    return await runConformance({
      baseUrl,
      email: 'admin@demo.local',
      password: 'Back#Office!Demo',
      only,
      ...(timeoutMs === undefined ? {} : { timeoutMs }),
    });
  } finally {
    breakPromises([]);
  }
}

const describeFailures = (results: Result[]): string =>
  formatResults(results.filter((r) => !r.ok)) || '(no failed check)';

beforeAll(async () => {
  testApp = await startTestApp({ databaseUrl: 'pglite://memory', seed: { days: 3 } });
  await testApp.app.fastify.listen({ host: '127.0.0.1', port: 0 });
  baseUrl = `http://127.0.0.1:${(testApp.app.fastify.server.address() as AddressInfo).port}`;
}, 120_000);

afterAll(async () => {
  breakPromises([]);
  await testApp?.close();
  if (timings.length > 0)
    console.info(
      `broken variants (${caught.length}, each caught):\n${timings
        .map((t) => `  ${t.variant.padEnd(40)} ${t.groups.padEnd(22)} ${String(t.ms).padStart(5)} ms  ${t.caughtBy}`)
        .join('\n')}`,
    );
});

describe('the broken variants table', () => {
  it('has one row per variant of the switch, each with groups the kit has', () => {
    expect(BROKEN_VARIANTS.map((v) => v.name).sort()).toEqual([...BROKEN_PROMISES].sort());
    expect(caught.length).toBeGreaterThanOrEqual(25);
    for (const variant of caught)
      expect(
        variant.groups.filter((g) => !groupNames.has(g)),
        variant.name,
      ).toEqual([]);
  });
});

describe('the conformance kit against broken variants of the reference server', () => {
  for (const variant of caught) {
    it(`fails ${variant.name}: ${variant.promise}`, async () => {
      const started = performance.now();
      const results = await runWith([variant.name], variant.groups, variant.timeoutMs);
      const failed = results.filter((r) => !r.ok);
      const named = failed.filter(
        (r) => variant.check.test(r.operation) && r.problems.some((p) => variant.problem.test(p)),
      );
      timings.push({
        variant: variant.name,
        groups: variant.groups.join(','),
        ms: Math.round(performance.now() - started),
        caughtBy: named.map((r) => r.operation).join(', ') || '(missed)',
      });
      expect(failed.length, `${variant.name} passed the kit`).toBeGreaterThan(0);
      expect(
        named.length,
        `${variant.name}: no failed check ${variant.check} with ${variant.problem}\n${describeFailures(results)}`,
      ).toBeGreaterThan(0);
      const crashes = failed.filter((r) => r.problems.some((p) => CRASH.test(p)));
      expect(crashes.map((r) => `${r.operation}: ${r.problems.join(' | ')}`)).toEqual([]);
    });
  }

  it('passes the unbroken server on every group', async () => {
    const started = performance.now();
    const results = await runWith([], []);
    timings.push({ variant: '(none)', groups: 'all', ms: Math.round(performance.now() - started), caughtBy: 'passes' });
    expect(results.filter((r) => !r.ok).map((r) => `${r.operation}: ${r.problems.join(' | ')}`)).toEqual([]);
  });
});

/**
 * The variants for the groups `negative`, `tokens` and `socket`: what each breaks is also shown here on the
 * wire, against the unbroken answer, so a kit check that passes them could not be blamed on a variant that
 * breaks nothing.
 */
describe('what the variants for the negative, tokens and socket groups break, on the wire', () => {
  const app = () => {
    if (!testApp) throw new Error('the reference server did not start');
    return testApp;
  };
  /** Answers the same request unbroken, then with `variant` on: [unbroken, broken]. */
  async function both<T>(variant: BrokenVariant['name'], request: () => Promise<T>): Promise<[T, T]> {
    const unbroken = await request();
    breakPromises([variant]);
    try {
      return [unbroken, await request()];
    } finally {
      breakPromises([]);
    }
  }
  const inject = (options: InjectOptions) => app().app.fastify.inject(options);
  async function login(email: string, password = TEST_PASSWORD): Promise<string> {
    const response = await inject({ method: 'POST', url: '/api/auth/login', payload: { email, password, ip: null } });
    if (response.statusCode !== 200) throw new Error(`login ${email}: ${response.statusCode} ${response.body}`);
    return response.json<{ access_token: string }>().access_token;
  }
  const refresh = async (token: string) => {
    const response = await inject({
      method: 'POST',
      url: '/backoffice/graphql',
      headers: { authorization: `Bearer ${token}` },
      payload: { query: 'mutation { refreshToken { token } }' },
    });
    return response.json<{ data?: { refreshToken?: { token: string } | null } }>().data?.refreshToken?.token;
  };
  const jtiOf = (token: string): unknown =>
    (JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as { jti?: unknown }).jti;
  const userInfo = async (token: string) =>
    (await inject({ method: 'GET', url: '/api/auth/userInfo', headers: { authorization: `Bearer ${token}` } }))
      .statusCode;

  it('permission-check-skipped: GET /api/departments without the users permission, 403 → 200', async () => {
    const { db } = app();
    await createTestRole(db, 'conf_broken_none', []);
    const user = await createTestUser(db, {
      email: 'conf-broken-none@example.com',
      tenant: 'backoffice',
      role: 'conf_broken_none',
    });
    const token = await login(user.email);
    const statuses = await both(
      'permission-check-skipped',
      async () =>
        (await inject({ method: 'GET', url: '/api/departments', headers: { authorization: `Bearer ${token}` } }))
          .statusCode,
    );
    expect(statuses).toEqual([403, 200]);
  });

  it('validation-before-authentication: a bad body without a token, 401 → 400', async () => {
    const statuses = await both(
      'validation-before-authentication',
      async () => (await inject({ method: 'POST', url: '/api/roles', payload: { name: 1 } })).statusCode,
    );
    expect(statuses).toEqual([401, 400]);
  });

  it("other-tenant-id-visible: another tenant's user to a caller of one tenant, 404 → 200", async () => {
    const { db } = app();
    const customers = await db
      .selectFrom('tenants')
      .select('name')
      .where('name', '!=', 'backoffice')
      .where('deleted_at', 'is', null)
      .orderBy('id')
      .limit(2)
      .execute();
    const [mine, theirs] = customers.map((t) => t.name);
    if (!mine || !theirs) throw new Error('the demo seed has fewer than two customer tenants');
    const caller = await createTestUser(db, {
      email: 'conf-broken-mine@example.com',
      tenant: mine,
      role: 'administrador',
    });
    const other = await createTestUser(db, { email: 'conf-broken-theirs@example.com', tenant: theirs });
    const token = await login(caller.email);
    const statuses = await both(
      'other-tenant-id-visible',
      async () =>
        (
          await inject({
            method: 'PUT',
            url: `/api/users/${other.id}`,
            headers: { authorization: `Bearer ${token}` },
            payload: { name: 'Conformance Broken' },
          })
        ).statusCode,
    );
    expect(statuses).toEqual([404, 200]);
  });

  it('duplicate-as-500: a duplicate role name, 409 → 500', async () => {
    const { authorization } = await app().auth('admin@demo.local');
    const statuses = await both(
      'duplicate-as-500',
      async () =>
        (
          await inject({
            method: 'POST',
            url: '/api/roles',
            headers: { authorization },
            payload: { name: 'operador', display_name: 'Duplicate' },
          })
        ).statusCode,
    );
    expect(statuses).toEqual([409, 500]);
  });

  it('refresh-token-reusable: a refresh answers a new token id → the same one (the old token is never superseded)', async () => {
    const pairs = await both('refresh-token-reusable', async () => {
      const token = await login('admin@demo.local', 'Back#Office!Demo');
      const next = await refresh(token);
      return next === undefined ? 'no token' : jtiOf(next) === jtiOf(token) ? 'same jti' : 'new jti';
    });
    expect(pairs).toEqual(['new jti', 'same jti']);
  });

  it('no-reuse-detection: a token two rotations back ends its family → the family lives on', async () => {
    const outcomes = await both('no-reuse-detection', async () => {
      const first = await login('admin@demo.local', 'Back#Office!Demo');
      const second = await refresh(first);
      const third = second === undefined ? undefined : await refresh(second);
      if (third === undefined) return 'no rotation';
      const stale = await userInfo(first);
      return `stale ${stale}, current ${await userInfo(third)}`;
    });
    expect(outcomes).toEqual(['stale 401, current 401', 'stale 401, current 200']);
  });

  describe('the socket', () => {
    const wsBase = () => `ws://127.0.0.1:${(app().app.fastify.server.address() as AddressInfo).port}/ws`;
    let adminId = 0;
    let authorization = '';
    const sockets: WebSocket[] = [];
    async function open(ticket?: string): Promise<{ ws: WebSocket; ticket: string }> {
      const used = ticket ?? (await socketTicket(app().app, authorization));
      const ws = await openSocket(wsBase(), socketQuery('backoffice', adminId, used));
      sockets.push(ws);
      return { ws, ticket: used };
    }
    /** The first text frame within `ms`, or null. */
    function firstFrame(ws: WebSocket, ms: number): Promise<string | null> {
      return new Promise((resolve) => {
        const timer = setTimeout(() => resolve(null), ms);
        ws.once('message', (raw: Buffer) => {
          clearTimeout(timer);
          resolve(raw.toString('utf8'));
        });
      });
    }
    const ping = (ws: WebSocket) =>
      ws.send(encodeClientFrame({ event: 'ping', tenantName: 'backoffice', userId: adminId }));

    beforeAll(async () => {
      adminId = await userIdByEmail(app().db, 'admin@demo.local');
      ({ authorization } = await app().auth('admin@demo.local'));
    });
    afterAll(() => {
      for (const ws of sockets) ws.terminate();
    });

    it('socket-no-pong: a client ping is answered → never', async () => {
      const answers = await both('socket-no-pong', async () => {
        const { ws } = await open();
        const frame = firstFrame(ws, 2000);
        ping(ws);
        return (await frame) === null ? 'no answer' : 'answered';
      });
      expect(answers).toEqual(['answered', 'no answer']);
    });

    it('socket-ticket-reusable: a used ticket again is refused with 4401 → admitted', async () => {
      const outcomes = await both('socket-ticket-reusable', async () => {
        const first = await open();
        await admitted(first.ws, 'backoffice', adminId);
        const again = await open(first.ticket);
        const closed = closedWith(again.ws).then(({ code }) => `closed ${code}`);
        const answered = admitted(again.ws, 'backoffice', adminId).then(
          () => 'admitted',
          () => closed,
        );
        return Promise.race([answered, closed]);
      });
      expect(outcomes).toEqual(['closed 4401', 'admitted']);
    });

    it('socket-frames-not-base64: the pong frame is the base64 of the envelope → plain JSON', async () => {
      const frames = await both('socket-frames-not-base64', async () => {
        const { ws } = await open();
        const frame = firstFrame(ws, 5000);
        ping(ws);
        const text = (await frame) ?? '';
        return decodeServerFrame(text).ok ? 'base64' : text.startsWith('{') ? 'plain JSON' : 'other';
      });
      expect(frames).toEqual(['base64', 'plain JSON']);
    });
  });
});
