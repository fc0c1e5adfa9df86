import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { startTestApp, type TestApp } from '../../../server/src/test-support/app';
import { decodeServerFrame } from '../../../packages/conformance/src/checks-socket.js';
import { formatResults, runConformance, type Result } from '../../../packages/conformance/src/kit.js';

/**
 * The socket group of the conformance kit (packages/conformance/src/checks-socket.ts) alone: it passes
 * the in-process reference server (PGlite, listening), and it fails a socket that accepts the handshake
 * and then never answers, on the checks that waited, within the per-step timeout.
 */

const credentials = { email: 'admin@demo.local', password: 'Back#Office!Demo' };
let testApp: TestApp | undefined;
let port = 0;

beforeAll(async () => {
  testApp = await startTestApp({ databaseUrl: 'pglite://memory' });
  await testApp.app.fastify.listen({ host: '127.0.0.1', port: 0 });
  port = (testApp.app.fastify.server.address() as AddressInfo).port;
}, 120_000);

afterAll(async () => {
  await testApp?.close();
});

const socketResults = (results: Result[]): Result[] => results.filter((r) => r.group === 'socket');

describe('conformance kit, socket group, against the reference server', () => {
  let results: Result[] = [];
  beforeAll(async () => {
    results = await runConformance({ baseUrl: `http://127.0.0.1:${port}`, ...credentials, only: ['socket'] });
  }, 120_000);

  it('runs every socket check, each a socket result', () => {
    const socket = socketResults(results);
    expect(socket.every((r) => r.kind === 'socket')).toBe(true);
    expect(socket.map((r) => r.operation)).toEqual([
      'socket ticket',
      'socket handshake with a ticket',
      'socket ping answered with pong',
      'socket protocol ping answered (RFC 6455 pong)',
      'socket ticket used twice: 4401',
      'socket without a ticket: 4401',
      'socket with an unknown ticket: 4401',
      "socket userId not the ticket's user: 4401",
      'socket ticket used up by a refused userId: 4401',
      'socket token in the URL: 4403',
      'socket checks in order (a ticket beside a refused token stays unused)',
      'socket foreign Origin: 4403',
      'socket unknown tenant: 4403',
      'socket other input ignored, connection kept',
      'socket frame over 4096 bytes: 1009',
      'socket InstanceUpdated to the tenant (instanceCreate)',
      'socket RolePermissionsChanged to every tenant (permissionUpdate)',
      "socket events stay in their tenant (no InstanceUpdated of another tenant's instance)",
      'socket AuditRecorded only where the role holds audit',
      'socket sign-out closes that session only: 4401',
      'socket role change: 4000 Role changed',
      'socket user deleted: 4401',
      'socket tenant renamed: 4000 Tenant renamed',
      'socket tenant deleted: 4403 Tenant deleted',
      'socket frames: base64 of UTF-8 JSON envelopes',
    ]);
  });

  it('finds no contract violation', () => {
    const failed = results.filter((r) => !r.ok);
    if (failed.length > 0) console.error(formatResults(failed));
    expect(failed.map((r) => `${r.operation}: ${r.problems.join(' | ')}`)).toEqual([]);
  });

  it('leaves nothing behind: the throwaway role, user and tenants gone', async () => {
    const db = testApp?.db;
    if (!db) throw new Error('no reference server');
    const roles = await db.selectFrom('roles').select('name').where('name', 'like', 'conf_ws_%').execute();
    expect(roles).toEqual([]);
    const users = await db
      .selectFrom('users')
      .select(['email', 'deleted_at'])
      .where('email', 'like', 'conf-ws-%')
      .execute();
    expect(users).toEqual([]);
    // The group renames and deletes the run's tenant and puts it back as it was (§5); the run's clean-up
    // then purges it, under the name it was created with.
    const tenants = await db
      .selectFrom('tenants')
      .select(['name', 'deleted_at'])
      .where('name', 'like', 'conf-%')
      .execute();
    expect(tenants).toEqual([]);
  });
});

/**
 * A server in front of the reference one: HTTP goes through to it, while `/ws` is a WebSocket server
 * that accepts every handshake and then ignores everything (no pong to protocol pings either).
 */
async function silentSocketServer(target: number): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<WebSocket>();
  const wss = new WebSocketServer({ noServer: true, autoPong: false });
  const server: Server = createServer((req, res) => {
    const upstream = request(
      { host: '127.0.0.1', port: target, path: req.url, method: req.method, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    req.pipe(upstream);
  });
  server.on('upgrade', (req, socket, head) => {
    wss.handleUpgrade(req, socket, head, (ws) => {
      sockets.add(ws);
      ws.on('close', () => sockets.delete(ws));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      for (const ws of sockets) ws.terminate();
      wss.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe('conformance kit, socket group, against a socket that never answers', () => {
  it('fails the ping checks by the per-step timeout, names them, and finishes', async () => {
    const silent = await silentSocketServer(port);
    try {
      const timeoutMs = 400;
      const results = socketResults(
        await runConformance({ baseUrl: silent.url, ...credentials, only: ['socket'], timeoutMs }),
      );
      const byName = new Map(results.map((r) => [r.operation, r]));
      // The handshake is accepted and never refused: that promise holds, the ping ones do not.
      expect(byName.get('socket handshake with a ticket')?.ok).toBe(true);
      expect(byName.get('socket ping answered with pong')).toMatchObject({
        ok: false,
        problems: [`no pong to a client ping: nothing within ${timeoutMs} ms`],
      });
      expect(byName.get('socket protocol ping answered (RFC 6455 pong)')).toMatchObject({
        ok: false,
        problems: [`no pong control frame: nothing within ${timeoutMs} ms`],
      });
      // A refusal that never comes fails too, by the same bound.
      expect(byName.get('socket ticket used twice: 4401')).toMatchObject({
        ok: false,
        problems: [`expected close 4401 "Unauthorized": nothing within ${timeoutMs} ms`],
      });
      expect(byName.get('socket frames: base64 of UTF-8 JSON envelopes')).toMatchObject({
        ok: false,
        problems: ['the server sent no frame at all'],
      });
    } finally {
      await silent.close();
    }
  }, 120_000);
});

describe('socket frame decoding (contracts/socket.md §6 worked examples)', () => {
  const pong =
    'eyJldmVudCI6InBpbmciLCJkYXRhIjp7Im1lc3NhZ2UiOiJwb25nIiwic2VydmVyVGltZSI6IjIwMjYtMTEtMjFUMjA6MDA6MDAuMTI1WiJ9LCJ0ZW5hbnROYW1lIjoiZmFybWFjaWEtY2VudHJhbCIsInNlbnRBdCI6IjIwMjYtMTEtMjFUMjA6MDA6MDAuMTI1WiJ9';
  const chat =
    'eyJldmVudCI6IkNoYXROb3RpZmljYXRpb24iLCJkYXRhIjp7InRpY2tldElkIjo5ODEsImluc3RhbmNlSWQiOjEsImN1c3RvbWVySWQiOjUxMjAsIm1lc3NhZ2VJZCI6NzczMTAsInVzZXJJZCI6MiwiZGVwYXJ0bWVudElkIjoxLCJmcm9tTWUiOmZhbHNlLCJwcmV2aWV3IjoiT2zDoSwgbyByZW3DqWRpbyBjaGVnb3U/IiwiY3JlYXRlZEF0IjoiMjAyNi0xMS0yMVQyMDowMTowMi4zNDVaIn0sInRlbmFudE5hbWUiOiJmYXJtYWNpYS1jZW50cmFsIiwic2VudEF0IjoiMjAyNi0xMS0yMVQyMDowMTowMi40MDBaIn0=';

  it('accepts the examples, with their UTF-8 text', () => {
    expect(decodeServerFrame(Buffer.from(pong), false, 'farmacia-central').problems).toEqual([]);
    const decoded = decodeServerFrame(Buffer.from(chat), false, 'farmacia-central');
    expect(decoded.problems).toEqual([]);
    expect(decoded.envelope?.data.preview).toBe('Olá, o remédio chegou?');
  });

  it('refuses plain JSON, Latin-1 bytes, a binary frame, an unknown event, another tenant and a bad pong', () => {
    const envelope = { event: 'ping', data: { message: 'pong', serverTime: '2026-11-21T20:00:00.125Z' } };
    const frame = (value: object, encoding: BufferEncoding = 'utf8') =>
      Buffer.from(Buffer.from(JSON.stringify(value), encoding).toString('base64'));
    const full = { ...envelope, tenantName: 'farmacia-central', sentAt: '2026-11-21T20:00:00.125Z' };
    expect(decodeServerFrame(Buffer.from(JSON.stringify(full)), false, 'farmacia-central').problems[0]).toMatch(
      /^not standard base64/,
    );
    const latin1 = { ...full, data: { ...full.data, message: 'pongé' } };
    expect(decodeServerFrame(frame(latin1, 'latin1'), false, 'farmacia-central').problems[0]).toMatch(
      /does not decode to UTF-8/,
    );
    expect(decodeServerFrame(frame(full), true, 'farmacia-central').problems[0]).toMatch(/binary frame/);
    expect(decodeServerFrame(frame({ ...full, event: 'Pong' }), false, 'farmacia-central').problems[0]).toMatch(
      /event Pong is not in the list/,
    );
    expect(decodeServerFrame(frame(full), false, 'other').problems[0]).toMatch(/not the connection's other/);
    expect(decodeServerFrame(frame(latin1), false, 'farmacia-central').problems).toEqual([
      'ping: data.message is "pongé", not "pong"',
    ]);
  });
});
