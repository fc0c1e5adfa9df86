import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer, type RawData } from 'ws';
import { base64ToUtf8, encodeServerFrame } from '../../../src/domain/socket-codec';
import type { ServerEventName } from '../../../src/domain/socket-events';
import { holdsAny } from '../access/permissions';
import { createSocketTickets, sessionStates, type SocketSession } from '../auth/socket-tickets';
import type { Revocation, TokenService } from '../auth/tokens';
import type { ServerConfig } from '../base/config';
import type { Database } from '../db/schema';
import { isDatabaseUnavailable } from '../db/unavailable';
import type { EventBus, PanelEvent } from '../base/events';
import { permittedRoutesOf } from '../db/user-dto';
import { isBroken } from '../base/broken-promises';
import { WEBHOOK_TENANT_ROLE } from '../webhooks/who';

/** contracts/socket.md §5: the reference server side of the protocol. */
const MAX_CLIENT_FRAME = 4096;

/** A server frame (contracts/socket.md §2.2: the base64 of the envelope); plain JSON only for a broken variant of tests. */
const serverFrame: typeof encodeServerFrame = (event, data, tenantName, sentAt) =>
  isBroken('socket-frames-not-base64')
    ? JSON.stringify({ event, data, tenantName, sentAt })
    : encodeServerFrame(event, data, tenantName, sentAt);

/**
 * Close codes and reasons (contracts/socket.md §5.1). 4401: the ticket or the session is not (or no
 * longer) accepted; 4403: refused for good for this tenant and page; 4000: what the connection may see
 * changed (its tenant's name, its user's role): the client reconnects at once with a new ticket.
 */
export const CLOSE = {
  unauthorized: { code: 4401, reason: 'Unauthorized' },
  forbidden: { code: 4403, reason: 'Forbidden' },
  originNotAllowed: { code: 4403, reason: 'Origin not allowed' },
  tokenInUrl: { code: 4403, reason: 'Token in URL refused' },
  tenantDeleted: { code: 4403, reason: 'Tenant deleted' },
  tenantRenamed: { code: 4000, reason: 'Tenant renamed' },
  roleChanged: { code: 4000, reason: 'Role changed' },
} as const;
type Close = { code: number; reason: string };

/** Events only some users may receive: the route permission their role must hold (§5 Fan-out). */
const EVENT_PERMISSION: Partial<Record<ServerEventName, string>> = {
  AuditRecorded: 'audit',
  WebhookRunProgress: 'tenants',
};
/**
 * Events a tenant's own user receives only in this role (back-office staff need only the permission): as the
 * REST operations behind them decide (server/src/webhooks/who.ts `WEBHOOK_TENANT_ROLE`).
 */
const EVENT_TENANT_ROLE: Partial<Record<ServerEventName, string>> = {
  WebhookRunProgress: WEBHOOK_TENANT_ROLE,
};

/** How often due sessions are re-checked (tests pass less). */
const SWEEP_MS = 1000;
/** A re-check that could not reach the database is tried again this much later. */
const RETRY_CHECK_MS = 5000;
/** A role's permissions are read again at least this often, should a `RolePermissionsChanged` be lost. */
const ROLE_CACHE_MS = 60_000;
/** Events wait at most this long for a changed role's permissions to be read again. */
const ROLE_READ_WAIT_MS = 2000;
/** Revocations are remembered this long, for the sockets being admitted while they were told. */
const REMEMBER_REVOCATIONS_MS = 60_000;

interface Client {
  socket: WebSocket;
  /** Answered the last liveness ping (§5 "Liveness"). */
  alive: boolean;
  /** The tenant it watches, by id (events are routed by id), and its name at admission. */
  tenantId: number;
  tenantName: string;
  userId: number;
  /** The user's role at admission: a role change closes the socket (§5.1), so it never goes stale. */
  roleId: number;
  /** Back-office staff (a user of the back-office tenant, whichever tenant it watches). */
  originBackoffice: boolean;
  /** The session it was opened in (the ticket's): logging that session out closes it. */
  session: SocketSession;
  /** When its session is checked next (ms since the epoch): first when the token's life ends. */
  checkAt: number;
}

export interface SocketServer {
  /** Open sockets, of one tenant (by id) or all (tests, metrics). */
  count(tenantId?: number): number;
  /** The tenants (ids) with at least one socket open on this process (server/src/demo-activity/simulator.ts). */
  tenants(): number[];
  /** Closes every socket of a user (its tokens were revoked: block, delete, disconnect, password change). */
  closeUser(userId: number, code?: number, reason?: string): number;
  /** Closes the sockets opened in one token family (logout, or reuse of a rotated token). */
  closeFamily(familyId: string, code?: number, reason?: string): number;
  /** Re-checks at once the sessions whose time came (tests; otherwise every second). */
  recheck(): Promise<void>;
  close(): Promise<void>;
}

function originAllowed(request: IncomingMessage, config: ServerConfig): boolean {
  const origin = request.headers.origin;
  if (!origin) return true; // non-browser clients; the ticket is still required
  const host = request.headers.host;
  try {
    const url = new URL(origin);
    if (host && url.host === host) return true;
  } catch {
    return false;
  }
  return config.allowedOrigins.includes(origin);
}

/** How a revocation closes a client, or null when it does not concern it. */
function closeFor(revocation: Revocation, client: Pick<Client, 'userId' | 'tenantId' | 'session'>): Close | null {
  if ('tenantId' in revocation) {
    if (revocation.tenantId !== client.tenantId) return null;
    return revocation.reason === 'deleted' ? CLOSE.tenantDeleted : CLOSE.tenantRenamed;
  }
  if ('reason' in revocation) return revocation.userId === client.userId ? CLOSE.roleChanged : null;
  if ('userId' in revocation) return revocation.userId === client.userId ? CLOSE.unauthorized : null;
  return revocation.familyId === client.session.familyId ? CLOSE.unauthorized : null;
}

/**
 * The route permissions of each role, per process, for the events only some users may receive. Read
 * when a socket of the role is admitted; dropped on `RolePermissionsChanged` (a role not known holds
 * nothing until read again: deny by default) and read again; read again at least every minute.
 */
function rolePermissions(db: Kysely<Database>) {
  const roles = new Map<number, { role: string; permissions: ReadonlySet<string>; loadedAt: number }>();
  /** Bumped on every change of a role: a read started before it does not store its stale answer. */
  const generations = new Map<number, number>();

  async function load(roleId: number): Promise<void> {
    const generation = generations.get(roleId) ?? 0;
    const row = await db.selectFrom('roles').select('name').where('id', '=', roleId).executeTakeFirst();
    const permissions = row ? await permittedRoutesOf(db, roleId, row.name) : [];
    if ((generations.get(roleId) ?? 0) !== generation) return;
    roles.set(roleId, { role: row?.name ?? '', permissions: new Set(permissions), loadedAt: Date.now() });
  }

  return {
    async ensure(roleId: number): Promise<void> {
      if (!roles.has(roleId)) await load(roleId);
    },
    changed(roleId: number): Promise<void> {
      generations.set(roleId, (generations.get(roleId) ?? 0) + 1);
      roles.delete(roleId);
      return load(roleId);
    },
    holds(roleId: number, permission: string): boolean {
      const entry = roles.get(roleId);
      return entry !== undefined && holdsAny(entry, [permission]);
    },
    /** The role's machine name, or undefined while it is not known. */
    nameOf(roleId: number): string | undefined {
      return roles.get(roleId)?.role;
    },
    /** Reads the roles in use that are unknown (a read failed) or were read over a minute ago; forgets the others. */
    async refresh(inUse: ReadonlySet<number>, now: number): Promise<void> {
      for (const [roleId, entry] of roles)
        if (!inUse.has(roleId) && now - entry.loadedAt >= ROLE_CACHE_MS) roles.delete(roleId);
      for (const roleId of inUse) {
        const entry = roles.get(roleId);
        if (!entry || now - entry.loadedAt >= ROLE_CACHE_MS) await load(roleId);
      }
    },
  };
}

export function registerSocket(
  fastify: FastifyInstance,
  deps: {
    db: Kysely<Database>;
    tokens: TokenService;
    events: EventBus;
    config: ServerConfig;
    path?: string;
    /** How often sessions due for a re-check are looked at (default 1 s). */
    sweepMs?: number;
  },
): SocketServer {
  const { db, config } = deps;
  const path = deps.path ?? '/ws';
  const tickets = createSocketTickets(db, config);
  const roles = rolePermissions(db);
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_CLIENT_FRAME });
  const clients = new Set<Client>();
  /** The same clients by tenant id: a broadcast visits only its tenant's sockets, not every socket. */
  const byTenant = new Map<number, Set<Client>>();
  const addClient = (client: Client) => {
    clients.add(client);
    let set = byTenant.get(client.tenantId);
    if (!set) byTenant.set(client.tenantId, (set = new Set()));
    set.add(client);
  };
  const removeClient = (client: Client) => {
    clients.delete(client);
    const set = byTenant.get(client.tenantId);
    if (set?.delete(client) && set.size === 0) byTenant.delete(client.tenantId);
  };

  function closeWhere(match: (client: Client) => Close | null): number {
    let closed = 0;
    for (const client of clients) {
      const close = match(client);
      if (!close) continue;
      removeClient(client);
      client.socket.close(close.code, close.reason);
      closed += 1;
    }
    return closed;
  }

  /** Revocations told recently, for the sockets that were being admitted meanwhile. */
  const recent: { at: number; revocation: Revocation }[] = [];
  const revoked = (revocation: Revocation) => {
    const now = Date.now();
    recent.push({ at: now, revocation });
    while (recent.length > 0 && (recent[0]?.at ?? now) < now - REMEMBER_REVOCATIONS_MS) recent.shift();
    closeWhere((client) => closeFor(revocation, client));
  };
  const stopRevocations = deps.tokens.onRevoked({
    onUserRevoked: (userId) => revoked({ userId }),
    onFamilyRevoked: (familyId) => revoked({ familyId }),
    onTenantClosed: (tenantId, reason) => revoked({ tenantId, reason }),
    onAccessChanged: (userId) => revoked({ userId, reason: 'access-changed' }),
  });

  const reject = (socket: WebSocket, close: Close) => socket.close(close.code, close.reason);

  async function admit(socket: WebSocket, request: IncomingMessage): Promise<void> {
    // Frames that arrive while the ticket and tenant are being checked (a client pings at once on
    // open) are held and answered after admission, never dropped.
    const early: { raw: RawData; isBinary: boolean }[] = [];
    const hold = (raw: RawData, isBinary: boolean) => early.push({ raw, isBinary });
    socket.on('message', hold);
    const startedAt = Date.now();
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (!originAllowed(request, config)) return reject(socket, CLOSE.originNotAllowed);
    // The session token never belongs in a URL (§1.1): an outdated client that still sends it is
    // stopped for good (4403) rather than sent round a refresh loop (4401).
    if (url.searchParams.has('token')) return reject(socket, CLOSE.tokenInUrl);
    const tenantName = url.searchParams.get('tenantName') ?? '';
    const userId = Number(url.searchParams.get('userId'));
    // Used up here whatever follows: a ticket never opens a second socket.
    const session = await tickets.redeem(url.searchParams.get('ticket'));
    if (!session || session.userId !== userId) return reject(socket, CLOSE.unauthorized);
    const [states, tenant] = await Promise.all([
      sessionStates(db, [session], startedAt),
      // A name with a NUL names no tenant (the database would refuse the parameter: close 1011).
      tenantName.includes('\u0000')
        ? undefined
        : db
            .selectFrom('tenants')
            .select(['id', 'name'])
            .where('name', '=', tenantName)
            .where('deleted_at', 'is', null)
            .executeTakeFirst(),
    ]);
    const state = states.get(session.familyId);
    if (!state?.alive) return reject(socket, CLOSE.unauthorized);
    if (!tenant || (state.tenantId !== tenant.id && !state.originBackoffice)) return reject(socket, CLOSE.forbidden);
    await roles.ensure(state.roleId);
    if (socket.readyState !== WebSocket.OPEN) return; // the client left meanwhile

    const client: Client = {
      socket,
      alive: true,
      tenantId: tenant.id,
      tenantName: tenant.name,
      userId,
      roleId: state.roleId,
      originBackoffice: state.originBackoffice,
      session,
      checkAt: Math.min(session.tokenExpiresAt, session.refreshUntil),
    };
    // A revocation told while this socket was being checked may have come after the reads above saw
    // the state just before it: it applies to this socket too.
    for (const { at, revocation } of recent) {
      const close = at >= startedAt ? closeFor(revocation, client) : null;
      if (close) return reject(socket, close);
    }
    socket.on('pong', () => {
      client.alive = true;
    });
    addClient(client);
    socket.on('close', () => removeClient(client));
    socket.on('error', (error) => fastify.log.debug({ err: error }, 'socket error'));
    const onMessage = (raw: RawData, isBinary: boolean) => {
      if (isBinary) return;
      try {
        const frame = JSON.parse(raw.toString()) as { action?: unknown; data?: unknown };
        if (frame.action !== 'sendmessage' || typeof frame.data !== 'string') return;
        const message = JSON.parse(base64ToUtf8(frame.data)) as { event?: unknown };
        if (message.event === 'ping' && !isBroken('socket-no-pong')) {
          const now = new Date().toISOString();
          socket.send(serverFrame('ping', { message: 'pong', serverTime: now }, client.tenantName, now));
        }
      } catch {
        fastify.log.debug('undecodable client frame dropped');
      }
    };
    socket.off('message', hold);
    socket.on('message', onMessage);
    for (const frame of early.splice(0)) onMessage(frame.raw, frame.isBinary);
  }

  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (url.pathname !== path) return; // not ours: leave it to other upgrade handlers
    wss.handleUpgrade(request, socket, head, (ws) => {
      admit(ws, request).catch((error: unknown) => {
        if (isDatabaseUnavailable(error)) {
          // 1013 Try Again Later: the client reconnects with its backoff once the database is back.
          fastify.log.warn({ err: error }, 'socket admission: database unavailable');
          ws.close(1013, 'Database unavailable');
          return;
        }
        fastify.log.error({ err: error }, 'socket admission failed');
        ws.close(1011, 'Internal error');
      });
    });
  };
  fastify.server.on('upgrade', onUpgrade);

  const closeUser = (userId: number, code = 4401, reason = 'Unauthorized') =>
    closeWhere((c) => (c.userId === userId ? { code, reason } : null));
  const closeFamily = (familyId: string, code = 4401, reason = 'Unauthorized') =>
    closeWhere((c) => (c.session.familyId === familyId ? { code, reason } : null));

  /**
   * Session life (§5): when a socket's token's life ends its session is checked again, in one query for
   * every socket due: alive (family not revoked, user neither blocked nor deleted, `token_version`
   * unchanged, user's tenant live, refresh window open) keeps it one access-token lifetime more; dead
   * closes it 4401. Its tenant deleted, renamed or its user's role changed (a notification lost in a
   * relay gap) close it as the notification would have.
   */
  let checking: Promise<void> | undefined;
  async function checkDue(): Promise<void> {
    const now = Date.now();
    // One pass over the sockets each sweep: those due, and the roles in use.
    const due: Client[] = [];
    const rolesInUse = new Set<number>();
    for (const client of clients) {
      rolesInUse.add(client.roleId);
      if (client.checkAt <= now) due.push(client);
    }
    try {
      if (due.length > 0) {
        const [states, tenants] = await Promise.all([
          sessionStates(
            db,
            due.map((c) => c.session),
            now,
          ),
          db
            .selectFrom('tenants')
            .select(['id', 'name', 'deleted_at'])
            .where('id', 'in', [...new Set(due.map((c) => c.tenantId))])
            .execute(),
        ]);
        const tenantById = new Map(tenants.map((t) => [t.id, t]));
        const verdicts = new Map<Client, Close>();
        for (const client of due) {
          const state = states.get(client.session.familyId);
          const tenant = tenantById.get(client.tenantId);
          let close: Close | null = null;
          if (!state?.alive) close = CLOSE.unauthorized;
          else if (!tenant || tenant.deleted_at !== null) close = CLOSE.tenantDeleted;
          else if (tenant.name !== client.tenantName) close = CLOSE.tenantRenamed;
          else if (state.roleId !== client.roleId) close = CLOSE.roleChanged;
          if (close) verdicts.set(client, close);
          else client.checkAt = Math.min(now + config.accessTokenTtl * 1000, client.session.refreshUntil);
        }
        // Only sockets still open: one closed meanwhile is gone from `clients`.
        closeWhere((client) => verdicts.get(client) ?? null);
      }
      await roles.refresh(rolesInUse, now);
    } catch (error) {
      // A database that cannot answer closes nothing: the sockets are checked again a little later.
      fastify.log.warn({ err: error }, 'socket: session re-check failed; retrying');
      for (const client of due) client.checkAt = now + RETRY_CHECK_MS;
    }
  }
  const recheck = (): Promise<void> => {
    checking ??= checkDue().finally(() => {
      checking = undefined;
    });
    return checking;
  };
  const sweep = setInterval(() => void recheck(), deps.sweepMs ?? SWEEP_MS);
  sweep.unref();

  // Liveness (§5): a protocol ping per interval; a connection that did not pong since the last one is
  // dead (half-open TCP, sleeping laptop) and is terminated, so the client sees 1006 and reconnects.
  const liveness = setInterval(() => {
    for (const client of clients) {
      if (!client.alive) {
        removeClient(client);
        client.socket.terminate();
        continue;
      }
      client.alive = false;
      client.socket.ping();
    }
  }, config.socketLivenessMs);
  liveness.unref();

  const broadcast = (event: PanelEvent, tenantName: string, sockets: ReadonlySet<Client>) => {
    const permission = EVENT_PERMISSION[event.event];
    const tenantRole = EVENT_TENANT_ROLE[event.event];
    // Encoded to bytes once and sent as a text frame to each socket: a string would be converted
    // again for every one of them (10,000 sockets on one tenant in bench/sockets.ts).
    const frame = Buffer.from(serverFrame(event.event, event.data, tenantName, event.sentAt), 'utf8');
    for (const client of sockets) {
      if (permission !== undefined && !roles.holds(client.roleId, permission)) continue;
      if (tenantRole !== undefined && !client.originBackoffice && roles.nameOf(client.roleId) !== tenantRole) continue;
      if (client.socket.readyState === WebSocket.OPEN) client.socket.send(frame, { binary: false });
    }
  };
  const deliver = (event: PanelEvent) => {
    // An event for every tenant reaches each connection under its own tenant's name (§2.2, §5).
    if (event.tenantId === null) {
      for (const sockets of byTenant.values()) {
        const first = sockets.values().next().value;
        if (first) broadcast(event, first.tenantName, sockets);
      }
      return;
    }
    const sockets = byTenant.get(event.tenantId);
    if (sockets) broadcast(event, event.tenantName, sockets);
  };
  // While a changed role's permissions are read again, later events wait (in order) so that none is
  // filtered with the old permissions; a read that takes too long (a database in trouble) lets them
  // go, and the role, unknown meanwhile, holds nothing.
  const held: PanelEvent[] = [];
  let reading = 0;
  const release = () => {
    reading -= 1;
    if (reading === 0) for (const event of held.splice(0)) deliver(event);
  };
  const unsubscribe = deps.events.subscribe((event: PanelEvent) => {
    if (reading > 0) held.push(event);
    else deliver(event);
    if (event.event !== 'RolePermissionsChanged') return;
    const { roleId } = event.data as { roleId: number };
    reading += 1;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, ROLE_READ_WAIT_MS);
    });
    void Promise.race([
      roles
        .changed(roleId)
        .catch((error: unknown) => fastify.log.warn({ err: error, roleId }, 'socket: role permissions not read')),
      timeout,
    ]).finally(() => {
      clearTimeout(timer);
      release();
    });
  });

  return {
    count: (tenantId) => (tenantId === undefined ? clients.size : (byTenant.get(tenantId)?.size ?? 0)),
    tenants: () => [...byTenant.keys()],
    closeUser,
    closeFamily,
    recheck,
    async close() {
      clearInterval(liveness);
      clearInterval(sweep);
      unsubscribe();
      stopRevocations();
      fastify.server.off('upgrade', onUpgrade);
      await checking;
      for (const client of clients) client.socket.close(1001, 'Server shutdown');
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}
