import type { FastifyBaseLogger } from 'fastify';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { SERVER_EVENT_NAMES } from '../../../src/domain/socket-events';
import type { Revocation, TokenService } from '../auth/tokens';
import type { EventBus, PanelEvent } from '../base/events';

/**
 * contracts/socket.md §5 "Across processes": with PostgreSQL, server processes on one database act as
 * one through LISTEN/NOTIFY on two channels:
 *
 * - `panel_events`: every event published in one process reaches the sockets of every other process.
 * - `panel_revocations`: a revocation stored by one process (logout, block, delete, disconnect,
 *   refresh-token reuse) closes the revoked sockets on every other process with 4401; a tenant deleted
 *   or renamed, or a user's role changed, closes the sockets concerned (contracts/socket.md §5.1).
 *
 * Out: `select pg_notify(channel, '<json>')` on the pool, after the change committed (producers
 * publish after their writes). Every payload carries `origin`, this process's id.
 * In: a dedicated `pg.Client` (LISTEN is per session, never a pool connection) delivers payloads of
 * OTHER origins locally; a process delivers its own events and revocations locally at once, so
 * nothing reaches a socket twice. A lost listener is re-established with exponential backoff and the
 * gap logged (what was sent in the gap is lost, §2.2).
 *
 * Channel names carry the connection's schema when it is not `public` (`panel_events_<schema>`), so
 * several databases-in-a-schema on one cluster (tests) never hear each other.
 *
 * PGlite is a single process: no relay, the bus and the token service deliver locally.
 */
export const EVENT_CHANNEL = 'panel_events';
export const REVOCATION_CHANNEL = 'panel_revocations';
/** PostgreSQL's NOTIFY limit is 8000 bytes; the contract keeps a margin. */
export const MAX_NOTIFY_BYTES = 7000;

type EventEnvelope = PanelEvent & { origin: string };
type RevocationEnvelope = Revocation & { origin: string };

export interface EventRelayOptions {
  /** The app's pool (its connection settings are reused for the listener) or a connection string. */
  pg: pg.Pool | string;
  events: EventBus;
  tokens: TokenService;
  log: FastifyBaseLogger;
  /** Reconnect backoff of the listener: first delay, doubled per failed attempt up to `maxMs`. */
  backoff?: { initialMs?: number; maxMs?: number };
}

export interface EventRelayHandle {
  /** This process's origin id, carried by every payload it sends. */
  readonly origin: string;
  /** The channel names in use (schema-scoped). */
  readonly channels: { events: string; revocations: string };
  /** Whether the LISTEN connection is currently up. */
  readonly listening: boolean;
  /** Resolves once the LISTEN connection is up (at once if it is). */
  ready(): Promise<void>;
  /** Stops relaying, ends the listener (and the pool, when the relay opened it). */
  close(): Promise<void>;
}

const EVENT_NAMES = new Set<string>(SERVER_EVENT_NAMES);

function parseJson(payload: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(payload);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

function parseEvent(payload: string): EventEnvelope | undefined {
  const v = parseJson(payload);
  if (!v || typeof v.event !== 'string' || !EVENT_NAMES.has(v.event) || v.event === 'ping') return undefined;
  if (
    typeof v.data !== 'object' ||
    v.data === null ||
    typeof v.tenantName !== 'string' ||
    !(v.tenantId === null || isId(v.tenantId)) ||
    typeof v.sentAt !== 'string' ||
    typeof v.origin !== 'string'
  ) {
    return undefined;
  }
  return v as unknown as EventEnvelope;
}

const isId = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) > 0;

function parseRevocation(payload: string): RevocationEnvelope | undefined {
  const v = parseJson(payload);
  if (!v || typeof v.origin !== 'string') return undefined;
  const origin = v.origin;
  if (isId(v.tenantId) && (v.reason === 'deleted' || v.reason === 'renamed'))
    return { origin, tenantId: v.tenantId, reason: v.reason };
  if (isId(v.userId) && v.reason === 'access-changed') return { origin, userId: v.userId, reason: v.reason };
  if (isId(v.userId) && v.reason === undefined) return { origin, userId: v.userId };
  if (typeof v.familyId === 'string' && v.familyId.length > 0) return { origin, familyId: v.familyId };
  return undefined;
}

/** `panel_events` on `public`, `panel_events_<schema>` elsewhere; only [a-z0-9_] survive. */
export function scopedChannel(base: string, schema: string): string {
  if (schema === 'public') return base;
  return `${base}_${schema.toLowerCase().replace(/[^a-z0-9_]/g, '_')}`.slice(0, 63);
}

export async function startEventRelay(options: EventRelayOptions): Promise<EventRelayHandle> {
  const { events, tokens, log } = options;
  const initialMs = options.backoff?.initialMs ?? 250;
  const maxMs = options.backoff?.maxMs ?? 10_000;
  const origin = randomUUID();

  const ownsPool = typeof options.pg === 'string';
  const pool = typeof options.pg === 'string' ? new pg.Pool({ connectionString: options.pg, max: 2 }) : options.pg;
  if (ownsPool) pool.on('error', (error) => log.warn({ err: error }, 'event relay: idle pool client error'));
  const clientConfig: pg.ClientConfig =
    typeof options.pg === 'string' ? { connectionString: options.pg } : { ...options.pg.options };

  const { rows } = await pool.query<{ schema: string }>('select current_schema() as schema');
  const schema = rows[0]?.schema ?? 'public';
  const channels = {
    events: scopedChannel(EVENT_CHANNEL, schema),
    revocations: scopedChannel(REVOCATION_CHANNEL, schema),
  };

  // ---- out: NOTIFY -------------------------------------------------------------------------------
  const pending = new Set<Promise<unknown>>();
  let closed = false;

  function notify(channel: string, body: object, context: Record<string, unknown>): void {
    if (closed) return;
    const payload = JSON.stringify({ ...body, origin });
    const bytes = Buffer.byteLength(payload, 'utf8');
    if (bytes > MAX_NOTIFY_BYTES) {
      log.warn({ ...context, bytes }, 'event relay: payload over the NOTIFY limit, delivered locally only');
      return;
    }
    const sent = pool
      .query('select pg_notify($1, $2)', [channel, payload])
      .catch((error: unknown) =>
        log.error({ err: error, ...context }, 'event relay: NOTIFY failed, delivered locally only'),
      )
      .finally(() => pending.delete(sent));
    pending.add(sent);
  }

  events.setRelay({
    send: (event) =>
      notify(channels.events, event, { event: event.event, tenantId: event.tenantId, tenantName: event.tenantName }),
  });
  tokens.setRelay({
    send: (revocation) => notify(channels.revocations, revocation, { revocation }),
  });

  // ---- in: LISTEN --------------------------------------------------------------------------------
  let listener: pg.Client | undefined;
  let timer: NodeJS.Timeout | undefined;
  let attempt = 0;
  let lostAt: number | undefined;
  let waiters: (() => void)[] = [];

  const onNotification = (message: pg.Notification) => {
    if (!message.payload) return;
    if (message.channel === channels.events) {
      const envelope = parseEvent(message.payload);
      if (!envelope) return log.warn({ bytes: message.payload.length }, 'event relay: malformed event dropped');
      if (envelope.origin === origin) return; // already delivered locally by publish()
      events.deliver({
        event: envelope.event,
        data: envelope.data,
        tenantId: envelope.tenantId,
        tenantName: envelope.tenantName,
        sentAt: envelope.sentAt,
      });
    } else if (message.channel === channels.revocations) {
      const envelope = parseRevocation(message.payload);
      if (!envelope) return log.warn({ bytes: message.payload.length }, 'event relay: malformed revocation dropped');
      if (envelope.origin === origin) return;
      const { origin: _from, ...revocation } = envelope;
      tokens.deliverRevocation(revocation);
    }
  };

  const lost = (client: pg.Client, error?: unknown) => {
    if (listener !== client) return;
    listener = undefined;
    client.end().catch(() => undefined);
    if (closed) return;
    lostAt ??= Date.now();
    log.warn({ err: error }, 'event relay: LISTEN connection lost, reconnecting');
    schedule();
  };

  async function connect(): Promise<void> {
    const client = new pg.Client(clientConfig);
    client.on('error', (error) => lost(client, error));
    client.on('end', () => lost(client));
    client.on('notification', onNotification);
    try {
      await client.connect();
      await client.query(`LISTEN "${channels.events}"; LISTEN "${channels.revocations}"`);
    } catch (error) {
      client.removeAllListeners();
      client.on('error', () => undefined);
      client.end().catch(() => undefined);
      throw error;
    }
    if (closed) {
      await client.end().catch(() => undefined);
      return;
    }
    listener = client;
    attempt = 0;
    if (lostAt !== undefined) {
      log.warn({ gapMs: Date.now() - lostAt }, 'event relay: LISTEN re-established; events in the gap were lost');
      lostAt = undefined;
    }
    for (const resolve of waiters.splice(0)) resolve();
  }

  function schedule(): void {
    if (closed || timer) return;
    const delay = Math.min(maxMs, initialMs * 2 ** attempt);
    attempt += 1;
    timer = setTimeout(() => {
      timer = undefined;
      connect().catch((error: unknown) => {
        lostAt ??= Date.now();
        log.warn(
          { err: error, retryInMs: Math.min(maxMs, initialMs * 2 ** attempt) },
          'event relay: LISTEN connection failed',
        );
        schedule();
      });
    }, delay);
    timer.unref();
  }

  try {
    await connect();
  } catch (error) {
    // The process still serves its own sockets; other processes' events arrive once LISTEN is up.
    lostAt = Date.now();
    log.error({ err: error }, 'event relay: LISTEN connection failed at start, retrying');
    schedule();
  }

  return {
    origin,
    channels,
    get listening() {
      return listener !== undefined;
    },
    ready() {
      if (listener) return Promise.resolve();
      return new Promise<void>((resolve) => waiters.push(resolve));
    },
    async close() {
      if (closed) return;
      closed = true;
      events.setRelay(undefined);
      tokens.setRelay(undefined);
      if (timer) clearTimeout(timer);
      timer = undefined;
      const client = listener;
      listener = undefined;
      for (const resolve of waiters.splice(0)) resolve();
      waiters = [];
      await Promise.allSettled([...pending]);
      if (client) await client.end().catch(() => undefined);
      if (ownsPool) await pool.end();
    },
  };
}
