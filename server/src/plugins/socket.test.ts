import { createHash } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { WebSocket } from 'ws';
import { decodeServerFrame } from '../../../src/domain/socket-codec';
import { createSocketTickets } from '../auth/socket-tickets';
import { startTestApp, type TestApp } from '../test-support/app';
import { roleId, someCustomerUser, tenantId } from '../test-support/lookups';
import { admitted, closedWith, openSocket, socketQuery, socketTicket } from '../test-support/socket-client';

/**
 * The socket server (contracts/socket.md §1.2, §5, §5.1) on one process (PGlite): tickets instead of
 * the token in the URL, sockets by tenant id, closed on revocations, tenant delete and rename and role
 * changes, re-checked when their token's life ends, and `AuditRecorded` only to holders of `audit`.
 * Across processes: server/src/plugins/event-relay.test.ts and server/src/cluster.test.ts.
 */

interface Session {
  authorization: string;
  token: string;
  id: number;
}

async function sessionOf(t: TestApp, email: string): Promise<Session> {
  const { authorization } = await t.auth(email);
  const me = await t.app.fastify.inject({ method: 'GET', url: '/api/auth/userInfo', headers: { authorization } });
  return {
    authorization,
    token: authorization.slice('Bearer '.length),
    id: me.json<{ user: { id: number } }>().user.id,
  };
}

function wsBaseOf(t: TestApp): string {
  return `ws://127.0.0.1:${(t.app.fastify.server.address() as AddressInfo).port}/ws`;
}

/** The claims of a token (the test reads its family and expiry). */
function claimsOf(token: string): { fam: string; exp: number } {
  return JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as {
    fam: string;
    exp: number;
  };
}

function nextFrame(ws: WebSocket): Promise<string> {
  return new Promise((resolve) => ws.once('message', (data) => resolve(data.toString())));
}

/** Collects decoded event names as they arrive. */
function record(ws: WebSocket): string[] {
  const names: string[] = [];
  ws.on('message', (raw) => {
    const decoded = decodeServerFrame(raw.toString());
    if (decoded.ok) names.push(decoded.event.name);
  });
  return names;
}

async function until(check: () => boolean, what: string, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

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

describe('socket /ws on one process', () => {
  let t: TestApp;
  let base: string;
  let admin: Session;
  let backoffice: { id: number; name: string };

  const connect = async (who: Session, tenantName: string): Promise<WebSocket> => {
    const ws = await openSocket(base, socketQuery(tenantName, who.id, await socketTicket(t.app, who.authorization)));
    await admitted(ws, tenantName, who.id);
    return ws;
  };

  beforeAll(async () => {
    t = await startTestApp({ seed: { days: 1 } });
    await t.app.fastify.listen({ host: '127.0.0.1', port: 0 });
    base = wsBaseOf(t);
    admin = await sessionOf(t, 'admin@demo.local');
    backoffice = { id: await tenantId(t.db, 'backoffice'), name: 'backoffice' };
  }, 240_000);

  afterAll(async () => {
    await t?.close();
  });

  describe('tickets (§1.1, §1.2)', () => {
    it('POST /api/auth/socket-ticket answers a 43-character ticket valid 30 s, stored only as its SHA-256; 401 without a token', async () => {
      const response = await t.app.fastify.inject({
        method: 'POST',
        url: '/api/auth/socket-ticket',
        headers: { authorization: admin.authorization },
      });
      expect(response.statusCode).toBe(200);
      const body = response.json<{ ticket: string; expires_in: number }>();
      expect(body.ticket).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(body.expires_in).toBe(30);
      const stored = await t.db
        .selectFrom('socket_tickets')
        .select(['hash', 'user_id', 'family_id', 'expires_at'])
        .where('hash', '=', createHash('sha256').update(body.ticket).digest('hex'))
        .executeTakeFirstOrThrow();
      expect(stored).toMatchObject({ user_id: admin.id, family_id: claimsOf(admin.token).fam });
      expect(stored.expires_at.getTime() - Date.now()).toBeGreaterThan(25_000);
      expect(stored.expires_at.getTime() - Date.now()).toBeLessThanOrEqual(30_000);
      const plain = await t.db.selectFrom('socket_tickets').select('hash').where('hash', '=', body.ticket).execute();
      expect(plain).toEqual([]);

      const anonymous = await t.app.fastify.inject({ method: 'POST', url: '/api/auth/socket-ticket' });
      expect(anonymous.statusCode).toBe(401);
    });

    it('a ticket admits one socket, which answers its ping; the same ticket again is refused with 4401', async () => {
      const ticket = await socketTicket(t.app, admin.authorization);
      const first = await openSocket(base, socketQuery('backoffice', admin.id, ticket));
      const pong = nextFrame(first);
      await admitted(first, 'backoffice', admin.id);
      const decoded = decodeServerFrame(await pong);
      expect(decoded.ok && decoded.event).toMatchObject({ name: 'ping', data: { message: 'pong' } });
      const again = await openSocket(base, socketQuery('backoffice', admin.id, ticket));
      expect(await closedWith(again)).toEqual({ code: 4401, reason: 'Unauthorized' });
      expect(first.readyState).toBe(WebSocket.OPEN);
      first.close();
    });

    it('refuses an expired ticket with 4401, and the attempt uses it up', async () => {
      const ticket = await socketTicket(t.app, admin.authorization);
      const hash = createHash('sha256').update(ticket).digest('hex');
      await t.db
        .updateTable('socket_tickets')
        .set({ expires_at: new Date(Date.now() - 1000) })
        .where('hash', '=', hash)
        .execute();
      const ws = await openSocket(base, socketQuery('backoffice', admin.id, ticket));
      expect(await closedWith(ws)).toEqual({ code: 4401, reason: 'Unauthorized' });
      expect(await t.db.selectFrom('socket_tickets').select('hash').where('hash', '=', hash).execute()).toEqual([]);
    });

    it("refuses a ticket presented with another user's id (4401), and the attempt uses it up", async () => {
      const ticket = await socketTicket(t.app, admin.authorization);
      const other = await openSocket(base, socketQuery('backoffice', admin.id + 1, ticket));
      expect((await closedWith(other)).code).toBe(4401);
      const own = await openSocket(base, socketQuery('backoffice', admin.id, ticket));
      expect((await closedWith(own)).code).toBe(4401);
    });

    it('refuses a missing, malformed or unknown ticket with 4401', async () => {
      const unknown = 'A'.repeat(43);
      for (const query of [
        `tenantName=backoffice&userId=${admin.id}`,
        `tenantName=backoffice&userId=${admin.id}&ticket=nope`,
        socketQuery('backoffice', admin.id, unknown),
      ]) {
        const ws = await openSocket(base, query);
        expect(await closedWith(ws), query).toEqual({ code: 4401, reason: 'Unauthorized' });
      }
    });

    it('refuses the session token in the URL for good (4403), even beside a valid ticket', async () => {
      const bare = await openSocket(base, `tenantName=backoffice&userId=${admin.id}&token=${admin.token}`);
      expect(await closedWith(bare)).toEqual({ code: 4403, reason: 'Token in URL refused' });
      const ticket = await socketTicket(t.app, admin.authorization);
      const both = await openSocket(base, `${socketQuery('backoffice', admin.id, ticket)}&token=${admin.token}`);
      expect(await closedWith(both)).toEqual({ code: 4403, reason: 'Token in URL refused' });
    });

    it('refuses the ticket of a session logged out before it was used (4401)', async () => {
      const other = await sessionOf(t, 'admin@demo.local');
      const ticket = await socketTicket(t.app, other.authorization);
      const logout = await t.app.fastify.inject({
        method: 'POST',
        url: '/api/auth/logout',
        headers: { authorization: other.authorization },
        payload: { data: null, ip: null },
      });
      expect(logout.statusCode).toBe(200);
      const ws = await openSocket(base, socketQuery('backoffice', other.id, ticket));
      expect(await closedWith(ws)).toEqual({ code: 4401, reason: 'Unauthorized' });
    });

    it("closes with 4403 for an unknown tenant, and for a tenant not the user's own (not staff)", async () => {
      const unknown = await openSocket(
        base,
        socketQuery('no-such-tenant', admin.id, await socketTicket(t.app, admin.authorization)),
      );
      expect(await closedWith(unknown)).toEqual({ code: 4403, reason: 'Forbidden' });
      const customer = await someCustomerUser(t.db);
      const theirs = await sessionOf(t, customer.email);
      const elsewhere = await openSocket(
        base,
        socketQuery('backoffice', customer.id, await socketTicket(t.app, theirs.authorization)),
      );
      expect(await closedWith(elsewhere)).toEqual({ code: 4403, reason: 'Forbidden' });
    });

    it('deletes expired tickets as new ones are issued', async () => {
      await t.db
        .updateTable('socket_tickets')
        .set({ expires_at: new Date(Date.now() - 1000) })
        .where('user_id', '=', admin.id)
        .execute();
      const before = await t.db
        .selectFrom('socket_tickets')
        .select('hash')
        .where('expires_at', '<=', new Date())
        .execute();
      expect(before.length).toBeGreaterThan(0);
      // Issuing purges at most once a minute per process: the purge itself, called directly.
      expect(await createSocketTickets(t.db, { socketTicketTtl: 30 }).purgeExpired()).toBe(before.length);
      expect(
        await t.db.selectFrom('socket_tickets').select('hash').where('expires_at', '<=', new Date()).execute(),
      ).toEqual([]);
    });
  });

  describe('fan-out (§5)', () => {
    it('sends an event to the sockets of its tenant (by id) only', async () => {
      const central = { id: await tenantId(t.db, 'farmacia-central'), name: 'farmacia-central' };
      const mine = await connect(admin, central.name);
      const other = await connect(admin, 'backoffice');
      const mineFrame = nextFrame(mine);
      const otherFrame = nextFrame(other);
      t.app.events.publish(central, 'GroupOfCustomersUpdated', {
        groupId: 1,
        name: 'VIP',
        change: 'created',
        customersCount: 3,
      });
      t.app.events.publish(backoffice, 'CampaignUpdated', MARKER);
      const decoded = decodeServerFrame(await mineFrame);
      expect(decoded.ok && decoded.event).toMatchObject({ name: 'groupOfCustomersUpdated', tenantName: central.name });
      // The other tenant's first frame is its own event: the farmacia-central one never reached it.
      const theirs = decodeServerFrame(await otherFrame);
      expect(theirs.ok && theirs.event.name).toBe('campaignUpdated');
      mine.close();
      other.close();
    });

    it('sends an event for every tenant to each socket under its own tenant name', async () => {
      const central = await connect(admin, 'farmacia-central');
      const office = await connect(admin, 'backoffice');
      const centralFrame = nextFrame(central);
      const officeFrame = nextFrame(office);
      t.app.events.publishToEveryTenant('RolePermissionsChanged', { roleId: 2 });
      const [mine, theirs] = [decodeServerFrame(await centralFrame), decodeServerFrame(await officeFrame)];
      expect(mine.ok && mine.event).toMatchObject({
        name: 'rolePermissionsChanged',
        tenantName: 'farmacia-central',
        data: { roleId: 2 },
      });
      expect(theirs.ok && theirs.event).toMatchObject({
        name: 'rolePermissionsChanged',
        tenantName: 'backoffice',
        data: { roleId: 2 },
      });
      central.close();
      office.close();
    });

    it('sends AuditRecorded to a holder of `audit` and not to an operador, until its role gains `audit`', async () => {
      const operador = await sessionOf(t, 'operador@demo.local');
      const operadorRole = await roleId(t.db, 'operador');
      const granted = (
        await t.db
          .selectFrom('role_permissions as rp')
          .innerJoin('permissions as p', 'p.id', 'rp.permission_id')
          .select('p.route_name')
          .where('rp.role_id', '=', operadorRole)
          .execute()
      ).map((r) => r.route_name);
      expect(granted).not.toContain('audit');
      const adminSocket = await connect(admin, 'backoffice');
      const operadorSocket = await connect(operador, 'backoffice');
      const adminGot = record(adminSocket);
      const operadorGot = record(operadorSocket);

      // A sign-in is recorded (session.sign-in) in the back-office tenant; then a marker event.
      await t.auth('admin@demo.local');
      t.app.events.publish(backoffice, 'CampaignUpdated', MARKER);
      await until(() => adminGot.includes('campaignUpdated') && operadorGot.includes('campaignUpdated'), 'the marker');
      expect(adminGot).toEqual(['auditRecorded', 'campaignUpdated']);
      expect(operadorGot).toEqual(['campaignUpdated']);

      const setPermissions = (permissions: string[]) =>
        t.app.fastify.inject({
          method: 'POST',
          url: '/api/permission/update',
          headers: { authorization: admin.authorization },
          payload: { roleId: operadorRole, permissions },
        });
      try {
        expect((await setPermissions([...granted, 'audit'])).statusCode).toBe(200);
        await until(() => operadorGot.includes('rolePermissionsChanged'), 'the permission change');
        await t.auth('admin@demo.local');
        await until(() => operadorGot.includes('auditRecorded'), 'an audit record for the operador');
      } finally {
        expect((await setPermissions(granted)).statusCode).toBe(200);
      }
      adminSocket.close();
      operadorSocket.close();
    });

    it('sends WebhookRunProgress to a holder of `tenants` and not to an operador', async () => {
      const operador = await sessionOf(t, 'operador@demo.local');
      const adminSocket = await connect(admin, 'backoffice');
      const operadorSocket = await connect(operador, 'backoffice');
      const adminGot = record(adminSocket);
      const operadorGot = record(operadorSocket);
      t.app.events.publish(backoffice, 'WebhookRunProgress', {
        id: 1,
        tenantName: 'farmacia-central',
        type: 'delivered',
        startAt: '2026-11-01',
        finishAt: '2026-11-01',
        total: 2,
        pending: 1,
        succeeded: 1,
        failed: 0,
        cancelled: 0,
        created_at: '2026-11-01T12:00:00.000Z',
        created_by: null,
        finished_at: null,
      });
      t.app.events.publish(backoffice, 'CampaignUpdated', MARKER);
      await until(() => adminGot.includes('campaignUpdated') && operadorGot.includes('campaignUpdated'), 'the marker');
      expect(adminGot).toEqual(['webhookRunProgress', 'campaignUpdated']);
      expect(operadorGot).toEqual(['campaignUpdated']);
      adminSocket.close();
      operadorSocket.close();
    });
  });

  it('filters an event sent right after a role change with the new permissions, not the old', async () => {
    const operador = await sessionOf(t, 'operador@demo.local');
    const operadorRole = await roleId(t.db, 'operador');
    const audit = await t.db
      .selectFrom('permissions')
      .select('id')
      .where('route_name', '=', 'audit')
      .executeTakeFirstOrThrow();
    const ws = await connect(operador, 'backoffice');
    const got = record(ws);
    const record1 = {
      id: 1,
      at: new Date().toISOString(),
      operation: 'tenant.plan',
      targetType: 'tenant',
      targetId: 1,
      targetName: 'x',
    } as const;
    try {
      // Granted in the database, then announced, and a record at once, in the same tick.
      await t.db.insertInto('role_permissions').values({ role_id: operadorRole, permission_id: audit.id }).execute();
      t.app.events.publishToEveryTenant('RolePermissionsChanged', { roleId: operadorRole });
      t.app.events.publish(backoffice, 'AuditRecorded', record1);
      await until(() => got.includes('auditRecorded'), 'the record, sent with the new permissions');
      expect(got).toEqual(['rolePermissionsChanged', 'auditRecorded']);
    } finally {
      await t.db
        .deleteFrom('role_permissions')
        .where('role_id', '=', operadorRole)
        .where('permission_id', '=', audit.id)
        .execute();
    }
    // Taken away the same way: the record right after the change does not reach it.
    t.app.events.publishToEveryTenant('RolePermissionsChanged', { roleId: operadorRole });
    t.app.events.publish(backoffice, 'AuditRecorded', { ...record1, id: 2 });
    t.app.events.publish(backoffice, 'CampaignUpdated', MARKER);
    await until(() => got.includes('campaignUpdated'), 'the marker');
    expect(got).toEqual(['rolePermissionsChanged', 'auditRecorded', 'rolePermissionsChanged', 'campaignUpdated']);
    ws.close();
  });

  describe('closing (§5, §5.1)', () => {
    it("closes a user's sockets with 4401 when an admin blocks the user, and only theirs", async () => {
      const customer = await someCustomerUser(t.db);
      const theirs = await sessionOf(t, customer.email);
      const ws = await connect(theirs, customer.tenant);
      const adminSocket = await connect(admin, 'backoffice');
      const wasClosed = closedWith(ws);
      try {
        const blocked = await t.app.fastify.inject({
          method: 'PATCH',
          url: `/api/users/${customer.id}`,
          headers: { authorization: admin.authorization },
          payload: { blocked: true },
        });
        expect(blocked.statusCode).toBe(200);
        expect(await wasClosed).toEqual({ code: 4401, reason: 'Unauthorized' });
        expect(adminSocket.readyState).toBe(WebSocket.OPEN);
      } finally {
        await t.db.updateTable('users').set({ blocked: false }).where('id', '=', customer.id).execute();
      }
      adminSocket.close();
    });

    it("logout closes only the sockets opened in that session's token family", async () => {
      const other = await sessionOf(t, 'admin@demo.local');
      const mine = await connect(other, 'backoffice');
      const kept = await connect(admin, 'backoffice');
      const wasClosed = closedWith(mine);
      const logout = await t.app.fastify.inject({
        method: 'POST',
        url: '/api/auth/logout',
        headers: { authorization: other.authorization },
        payload: { data: { email: 'admin@demo.local' }, ip: null },
      });
      expect(logout.statusCode).toBe(200);
      expect((await wasClosed).code).toBe(4401);
      expect(kept.readyState).toBe(WebSocket.OPEN);
      kept.close();
    });

    it("a role change closes that user's sockets with 4000 (and nobody else's); the reconnect is admitted", async () => {
      const customer = await someCustomerUser(t.db);
      const theirs = await sessionOf(t, customer.email);
      const user = await t.db
        .selectFrom('users')
        .select(['username', 'name', 'email', 'role_id'])
        .where('id', '=', customer.id)
        .executeTakeFirstOrThrow();
      const [adminRole, operadorRole] = [await roleId(t.db, 'administrador'), await roleId(t.db, 'operador')];
      const put = (role: number) =>
        t.app.fastify.inject({
          method: 'PUT',
          url: `/api/users/${customer.id}`,
          headers: { authorization: admin.authorization },
          payload: { username: user.username, name: user.name, email: user.email, role_id: role },
        });
      const ws = await connect(theirs, customer.tenant);
      const watching = await connect(admin, customer.tenant);
      const got = record(ws);
      // The same role again changes nothing: the socket stays, and gets the next event.
      expect((await put(user.role_id)).statusCode).toBe(200);
      t.app.events.publish({ id: customer.tenantId, name: customer.tenant }, 'CampaignUpdated', MARKER);
      await until(() => got.includes('campaignUpdated'), 'the marker after an unchanged role');
      expect(ws.readyState).toBe(WebSocket.OPEN);

      const wasClosed = closedWith(ws);
      const other = user.role_id === adminRole ? operadorRole : adminRole;
      try {
        expect((await put(other)).statusCode).toBe(200);
        expect(await wasClosed).toEqual({ code: 4000, reason: 'Role changed' });
        expect(watching.readyState).toBe(WebSocket.OPEN);
        const again = await connect(theirs, customer.tenant);
        again.close();
      } finally {
        expect((await put(user.role_id)).statusCode).toBe(200);
      }
      watching.close();
    });

    it('a tenant rename closes its sockets with 4000; a new ticket under the new name is admitted, the old name refused', async () => {
      const created = await t.app.fastify.inject({
        method: 'POST',
        url: '/api/tenant',
        headers: { authorization: admin.authorization },
        payload: {
          name: 'renomear-me',
          cnpj: '11.222.333/0001-81',
          features: ['chat'],
          template: 'pharmacy',
          pool: 'pool-a',
          userLimit: 5,
          plan: 'starter',
          ticketLimit: 100,
        },
      });
      expect(created.statusCode, created.body).toBe(201);
      const tenant = created.json<{ id: number; name: string }>();
      const watching = await connect(admin, tenant.name);
      const home = await connect(admin, 'backoffice');
      const wasClosed = closedWith(watching);
      const renamed = await t.app.fastify.inject({
        method: 'POST',
        url: '/api/tenant/update',
        headers: { authorization: admin.authorization },
        payload: { id: tenant.id, name: 'renomeada', cnpj: '11.222.333/0001-81', template: 'pharmacy', pool: 'pool-a' },
      });
      expect(renamed.statusCode, renamed.body).toBe(200);
      expect(await wasClosed).toEqual({ code: 4000, reason: 'Tenant renamed' });
      expect(home.readyState).toBe(WebSocket.OPEN);
      const again = await connect(admin, 'renomeada');
      const oldName = await openSocket(
        base,
        socketQuery(tenant.name, admin.id, await socketTicket(t.app, admin.authorization)),
      );
      expect(await closedWith(oldName)).toEqual({ code: 4403, reason: 'Forbidden' });
      // A change that keeps the name closes nothing.
      const got = record(again);
      const kept = await t.app.fastify.inject({
        method: 'POST',
        url: '/api/tenant/update',
        headers: { authorization: admin.authorization },
        payload: { id: tenant.id, name: 'renomeada', cnpj: '11.222.333/0001-81', template: 'pharmacy', pool: 'pool-b' },
      });
      expect(kept.statusCode).toBe(200);
      t.app.events.publish({ id: tenant.id, name: 'renomeada' }, 'CampaignUpdated', MARKER);
      await until(() => got.includes('campaignUpdated'), 'the marker after a change that kept the name');
      expect(again.readyState).toBe(WebSocket.OPEN);
      again.close();
      home.close();
    });

    it("the token service's tenantClosed and accessChanged close exactly the sockets they name", async () => {
      const central = { id: await tenantId(t.db, 'farmacia-central'), name: 'farmacia-central' };
      const operador = await sessionOf(t, 'operador@demo.local');
      const watching = await connect(admin, central.name);
      const home = await connect(admin, 'backoffice');
      const theirs = await connect(operador, 'backoffice');
      const watchingClosed = closedWith(watching);
      t.app.tokens.tenantClosed(central.id, 'renamed');
      expect(await watchingClosed).toEqual({ code: 4000, reason: 'Tenant renamed' });
      const theirsClosed = closedWith(theirs);
      t.app.tokens.accessChanged(operador.id);
      expect(await theirsClosed).toEqual({ code: 4000, reason: 'Role changed' });
      expect(home.readyState).toBe(WebSocket.OPEN);
      const deletedClosed = closedWith(home);
      t.app.tokens.tenantClosed(backoffice.id, 'deleted');
      expect(await deletedClosed).toEqual({ code: 4403, reason: 'Tenant deleted' });
    });

    // Last: it deletes a seeded tenant.
    it("a tenant delete closes its sockets for good (4403), its users' and the staff's watching it; others stay", async () => {
      const customer = await someCustomerUser(t.db);
      const theirs = await sessionOf(t, customer.email);
      const ws = await connect(theirs, customer.tenant);
      const watching = await connect(admin, customer.tenant);
      const home = await connect(admin, 'backoffice');
      const [theirsClosed, watchingClosed] = [closedWith(ws), closedWith(watching)];
      const deleted = await t.app.fastify.inject({
        method: 'POST',
        url: '/api/tenant/delete',
        headers: { authorization: admin.authorization },
        payload: { id: customer.tenantId },
      });
      expect(deleted.statusCode, deleted.body).toBe(200);
      expect(await theirsClosed).toEqual({ code: 4403, reason: 'Tenant deleted' });
      expect(await watchingClosed).toEqual({ code: 4403, reason: 'Tenant deleted' });
      expect(home.readyState).toBe(WebSocket.OPEN);
      const again = await openSocket(
        base,
        socketQuery(customer.tenant, admin.id, await socketTicket(t.app, admin.authorization)),
      );
      expect(await closedWith(again)).toEqual({ code: 4403, reason: 'Forbidden' });
      home.close();
    });
  });
});

describe('socket session life (§5): re-checked when the token ends', () => {
  let t: TestApp;
  let base: string;

  beforeAll(async () => {
    // Two-second tokens in a five-second refresh window (remembered or not).
    t = await startTestApp({
      seed: { days: 1 },
      config: { accessTokenTtl: 2, refreshWindow: 5, refreshWindowShort: 5 },
    });
    await t.app.fastify.listen({ host: '127.0.0.1', port: 0 });
    base = wsBaseOf(t);
  }, 240_000);

  afterAll(async () => {
    await t?.close();
  });

  it('keeps the socket of a live session past its token, closes one whose session died unannounced, and closes at the end of the refresh window', async () => {
    const [kept, dying] = [await sessionOf(t, 'admin@demo.local'), await sessionOf(t, 'admin@demo.local')];
    const open = async (who: Session) => {
      const ws = await openSocket(
        base,
        socketQuery('backoffice', who.id, await socketTicket(t.app, who.authorization)),
      );
      await admitted(ws, 'backoffice', who.id);
      return ws;
    };
    const [keptSocket, dyingSocket] = [await open(kept), await open(dying)];
    const dyingClosed = closedWith(dyingSocket);
    // Revoked in the database only: no notification closes it (as when one is lost in a relay gap).
    await t.db
      .updateTable('token_families')
      .set({ revoked_at: new Date() })
      .where('id', '=', claimsOf(dying.token).fam)
      .execute();
    await t.app.sockets.recheck();
    expect(dyingSocket.readyState, 'not checked before its token ends').toBe(WebSocket.OPEN);

    const ends = Math.max(claimsOf(kept.token).exp, claimsOf(dying.token).exp) * 1000;
    await until(() => Date.now() > ends, 'the tokens to end');
    await t.app.sockets.recheck();
    expect(await dyingClosed).toEqual({ code: 4401, reason: 'Unauthorized' });
    expect(keptSocket.readyState, 'a live session outlives its token').toBe(WebSocket.OPEN);
    const pong = nextFrame(keptSocket);
    await admitted(keptSocket, 'backoffice', kept.id);
    expect(decodeServerFrame(await pong).ok).toBe(true);

    // The session cannot be refreshed after its window (5 s from sign-in): then the socket closes.
    const keptClosed = closedWith(keptSocket);
    const windowEnds = (claimsOf(kept.token).exp - 2 + 5) * 1000;
    await until(() => Date.now() > windowEnds, 'the refresh window to end', 10_000);
    await t.app.sockets.recheck();
    expect(await keptClosed).toEqual({ code: 4401, reason: 'Unauthorized' });
  }, 30_000);
});

describe('socket liveness (contracts/socket.md §5)', () => {
  let live: TestApp;

  beforeAll(async () => {
    live = await startTestApp({ seed: { days: 1 }, config: { socketLivenessMs: 100 } });
    await live.app.fastify.listen({ host: '127.0.0.1', port: 0 });
  }, 240_000);

  afterAll(async () => {
    await live?.close();
  });

  it('terminates a connection that stops answering protocol pings, and keeps one that answers', async () => {
    const me = await sessionOf(live, 'admin@demo.local');
    const connect = async (autoPong: boolean) => {
      const ticket = await socketTicket(live.app, me.authorization);
      return openSocket(wsBaseOf(live), socketQuery('backoffice', me.id, ticket), { autoPong });
    };
    const silent = await connect(false);
    const healthy = await connect(true);
    let pings = 0;
    healthy.on('ping', () => (pings += 1));
    // ws reports a terminated connection (no close frame) as 1006.
    expect((await closedWith(silent)).code).toBe(1006);
    await until(() => pings >= 3, 'three pings on the healthy socket');
    expect(healthy.readyState).toBe(WebSocket.OPEN);
    healthy.close();
  }, 15_000);
});
