import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer, type RawData } from 'ws';
import { base64ToUtf8, encodeServerFrame } from '../../../src/domain/socket-codec';
import type { TokenService } from '../auth/tokens';
import type { ServerConfig } from '../base/config';
import type { Database } from '../db/schema';
import { isDatabaseUnavailable } from '../db/unavailable';
import { EVERY_TENANT, type EventBus, type PanelEvent } from '../base/events';

/** contracts/socket.md §5: the reference server side of the protocol. */
const MAX_CLIENT_FRAME = 4096;

interface Client {
  socket: WebSocket;
  /** Answered the last liveness ping (§5 "Liveness"). */
  alive: boolean;
  tenantName: string;
  userId: number;
  /** The token family the socket was opened with: logging out that session closes it. */
  family: string;
}

export interface SocketServer {
  /** Open sockets per tenant (tests, metrics). */
  count(tenantName?: string): number;
  /** The tenants with at least one socket open on this process (server/src/demo-activity/simulator.ts). */
  tenants(): string[];
  /** Closes every socket of a user (its tokens were revoked: block, delete, disconnect, password change). */
  closeUser(userId: number, code?: number, reason?: string): number;
  /** Closes the sockets opened with one token family (logout, or reuse of a rotated token). */
  closeFamily(familyId: string, code?: number, reason?: string): number;
  close(): Promise<void>;
}

function originAllowed(request: IncomingMessage, config: ServerConfig): boolean {
  const origin = request.headers.origin;
  if (!origin) return true; // non-browser clients; the token is still required
  const host = request.headers.host;
  try {
    const url = new URL(origin);
    if (host && url.host === host) return true;
  } catch {
    return false;
  }
  return config.allowedOrigins.includes(origin);
}

export function registerSocket(
  fastify: FastifyInstance,
  deps: { db: Kysely<Database>; tokens: TokenService; events: EventBus; config: ServerConfig; path?: string },
): SocketServer {
  const path = deps.path ?? '/ws';
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_CLIENT_FRAME });
  const clients = new Set<Client>();
  /** The same clients by tenant: a broadcast visits only its tenant's sockets, not every socket. */
  const byTenant = new Map<string, Set<Client>>();
  const addClient = (client: Client) => {
    clients.add(client);
    let set = byTenant.get(client.tenantName);
    if (!set) byTenant.set(client.tenantName, (set = new Set()));
    set.add(client);
  };
  const removeClient = (client: Client) => {
    clients.delete(client);
    const set = byTenant.get(client.tenantName);
    if (set?.delete(client) && set.size === 0) byTenant.delete(client.tenantName);
  };

  const reject = (socket: WebSocket, code: number, reason: string) => socket.close(code, reason);

  async function admit(socket: WebSocket, request: IncomingMessage): Promise<void> {
    // Frames that arrive while the token and tenant are being checked (a client pings at once on
    // open) are held and answered after admission, never dropped.
    const early: { raw: RawData; isBinary: boolean }[] = [];
    const hold = (raw: RawData, isBinary: boolean) => early.push({ raw, isBinary });
    socket.on('message', hold);
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (!originAllowed(request, deps.config)) return reject(socket, 4403, 'Origin not allowed');
    const token = url.searchParams.get('token') ?? undefined;
    const tenantName = url.searchParams.get('tenantName') ?? '';
    const userId = Number(url.searchParams.get('userId'));
    const verified = await deps.tokens.verify(token);
    if (!verified.ok || verified.userId !== userId) return reject(socket, 4401, 'Unauthorized');
    const row = await deps.db
      .selectFrom('users as u')
      .innerJoin('tenants as t', 't.id', 'u.tenant_id')
      .select(['t.name as own_tenant', 'u.origin_backoffice'])
      .where('u.id', '=', userId)
      .executeTakeFirst();
    const tenant = await deps.db
      .selectFrom('tenants')
      .select('name')
      .where('name', '=', tenantName)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    if (!row || !tenant || (row.own_tenant !== tenantName && !row.origin_backoffice))
      return reject(socket, 4403, 'Forbidden');

    const client: Client = { socket, alive: true, tenantName, userId, family: verified.claims.fam };
    socket.on('pong', () => {
      client.alive = true;
    });
    addClient(client);
    socket.on('close', () => removeClient(client));
    // Revoked while being admitted: the check above may have read the state just before the revocation.
    if (!(await deps.tokens.verify(token)).ok) {
      closeWhere((c) => c === client, 4401, 'Unauthorized');
      return;
    }
    socket.on('error', (error) => fastify.log.debug({ err: error }, 'socket error'));
    const onMessage = (raw: RawData, isBinary: boolean) => {
      if (isBinary) return;
      try {
        const frame = JSON.parse(raw.toString()) as { action?: unknown; data?: unknown };
        if (frame.action !== 'sendmessage' || typeof frame.data !== 'string') return;
        const message = JSON.parse(base64ToUtf8(frame.data)) as { event?: unknown };
        if (message.event === 'ping') {
          const now = new Date().toISOString();
          socket.send(encodeServerFrame('ping', { message: 'pong', serverTime: now }, tenantName, now));
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

  function closeWhere(match: (client: Client) => boolean, code: number, reason: string): number {
    let closed = 0;
    for (const client of clients) {
      if (!match(client)) continue;
      removeClient(client);
      client.socket.close(code, reason);
      closed += 1;
    }
    return closed;
  }
  const closeUser = (userId: number, code = 4401, reason = 'Unauthorized') =>
    closeWhere((c) => c.userId === userId, code, reason);
  const closeFamily = (familyId: string, code = 4401, reason = 'Unauthorized') =>
    closeWhere((c) => c.family === familyId, code, reason);
  const stopRevocations = deps.tokens.onRevoked({
    onUserRevoked: (userId) => closeUser(userId),
    onFamilyRevoked: (familyId) => closeFamily(familyId),
  });

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
  }, deps.config.socketLivenessMs);
  liveness.unref();

  const broadcast = (event: PanelEvent, tenantName: string, sockets: ReadonlySet<Client>) => {
    // Encoded to bytes once and sent as a text frame to each socket: a string would be converted
    // again for every one of them (10,000 sockets on one tenant in bench/sockets.ts).
    const frame = Buffer.from(encodeServerFrame(event.event, event.data, tenantName, event.sentAt), 'utf8');
    for (const client of sockets) {
      if (client.socket.readyState === WebSocket.OPEN) client.socket.send(frame, { binary: false });
    }
  };
  const unsubscribe = deps.events.subscribe((event: PanelEvent) => {
    // An event for every tenant reaches each connection under its own tenant's name (§2.2, §5).
    if (event.tenantName === EVERY_TENANT) {
      for (const [tenantName, sockets] of byTenant) broadcast(event, tenantName, sockets);
      return;
    }
    const sockets = byTenant.get(event.tenantName);
    if (sockets) broadcast(event, event.tenantName, sockets);
  });

  return {
    count: (tenantName) => (!tenantName ? clients.size : (byTenant.get(tenantName)?.size ?? 0)),
    tenants: () => [...byTenant.keys()],
    closeUser,
    closeFamily,
    async close() {
      clearInterval(liveness);
      unsubscribe();
      stopRevocations();
      fastify.server.off('upgrade', onUpgrade);
      for (const client of clients) client.socket.close(1001, 'Server shutdown');
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}
