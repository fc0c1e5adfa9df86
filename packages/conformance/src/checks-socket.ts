import { randomBytes } from 'node:crypto';
import { WebSocket } from 'ws';
import type { RawData } from 'ws';
import { asArray, asRecord } from './kit-client.js';
import type { ConformanceClient } from './kit-client.js';
import { validateRestResponse } from './kit-contract.js';
import type { RunContext, RunTenants } from './kit-rest-steps.js';

/**
 * The socket protocol of contracts/socket.md, checked over the network only: the handshake (§1.1, §1.2),
 * frames (§2), events and their fan-out (§3, §5), closing on revocation, role change and tenant change
 * (§5, §5.1). Every wait is bounded by the run's per-step timeout, so a server that never answers fails
 * the check that waited instead of hanging the run; every socket opened here is closed before returning.
 */

/** The complete list of §3: a server MUST NOT send other event names. */
const EVENT_NAMES = new Set([
  'ping',
  'InstanceUpdated',
  'CampaignUpdated',
  'ChatNotification',
  'CustomerChatCreated',
  'CustomerCreatedToChat',
  'CustomerChatAckChanged',
  'CustomerBlacklisted',
  'GroupOfCustomersUpdated',
  'ChatTicketTransfer',
  'ChatTicketTransferring',
  'ChatTicketTransferred',
  'DeleteChatTicketTransfer',
  'ChatTicketClosed',
  'RolePermissionsChanged',
  'AuditRecorded',
]);

/** The form `Date.prototype.toISOString()` produces (contracts/socket.md, key words). */
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
/** RFC 4648 §4: the standard alphabet with `=` padding (§2). */
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
/** 256 random bits as base64url without padding (§1.1). */
const TICKET = /^[A-Za-z0-9_-]{43}$/;
/** §2.1: a client frame over this many bytes closes the connection with 1009. */
const MAX_CLIENT_FRAME = 4096;

export interface Envelope {
  event: string;
  data: Record<string, unknown>;
  tenantName: string;
  sentAt: string;
}

const isInstant = (value: unknown): boolean => typeof value === 'string' && ISO_INSTANT.test(value);
const isId = (value: unknown): boolean => Number.isInteger(value) && (value as number) > 0;

/**
 * One server → client frame checked against §2.2: a text frame whose whole content is the base64 of the
 * UTF-8 bytes of a JSON envelope `{ event, data, tenantName, sentAt }`, `tenantName` the connection's,
 * `event` one of §3 with its `data` shape where this kit checks it.
 */
export function decodeServerFrame(
  raw: Buffer,
  isBinary: boolean,
  tenantName: string,
  renamedTo?: string,
): { envelope?: Envelope; problems: string[] } {
  if (isBinary) return { problems: ['a binary frame (§2: all application frames are text)'] };
  const text = raw.toString('latin1');
  if (!BASE64.test(text))
    return { problems: [`not standard base64 with padding: ${JSON.stringify(text.slice(0, 80))}`] };
  let json: string;
  try {
    json = new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(text, 'base64'));
  } catch {
    return { problems: [`the base64 does not decode to UTF-8: ${text.slice(0, 80)}`] };
  }
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return { problems: [`the decoded frame is not JSON: ${JSON.stringify(json.slice(0, 120))}`] };
  }
  const frame = asRecord(value);
  const problems: string[] = [];
  if (typeof frame.event !== 'string' || frame.event === '') problems.push('the envelope has no string event');
  else if (!EVENT_NAMES.has(frame.event)) problems.push(`event ${frame.event} is not in the list of §3`);
  if (typeof frame.data !== 'object' || frame.data === null || Array.isArray(frame.data))
    problems.push('the envelope data is not an object');
  // While a rename is closing the connection (§5, Tenant closed) an event may already carry the
  // tenant's new name: the frame's tenantName is the tenant's name when it was produced (§5, Fan-out).
  if (frame.tenantName !== tenantName && (renamedTo === undefined || frame.tenantName !== renamedTo))
    problems.push(`tenantName ${JSON.stringify(frame.tenantName)} is not the connection's ${tenantName}`);
  if (!isInstant(frame.sentAt)) problems.push(`sentAt ${JSON.stringify(frame.sentAt)} is not an ISO 8601 UTC instant`);
  if (problems.length > 0) return { problems: problems.map((p) => `${p}: ${json.slice(0, 160)}`) };
  const envelope = frame as unknown as Envelope;
  return { envelope, problems: eventDataProblems(envelope).map((p) => `${envelope.event}: ${p}`) };
}

/** The `data` shapes of §3 for the events this kit makes the server send. */
function eventDataProblems({ event, data }: Envelope): string[] {
  const problems: string[] = [];
  if (event === 'ping') {
    if (data.message !== 'pong') problems.push(`data.message is ${JSON.stringify(data.message)}, not "pong"`);
    if (!isInstant(data.serverTime))
      problems.push(`data.serverTime ${JSON.stringify(data.serverTime)} is not an instant`);
  } else if (event === 'InstanceUpdated') {
    // "The REST Instance object of contracts/openapi.yaml, same field names and types".
    problems.push(...validateRestResponse('instanceCreate', 201, data));
  } else if (event === 'RolePermissionsChanged') {
    if (!isId(data.roleId)) problems.push(`data.roleId ${JSON.stringify(data.roleId)} is not an id`);
  } else if (event === 'AuditRecorded') {
    if (!isId(data.id)) problems.push(`data.id ${JSON.stringify(data.id)} is not an id`);
    if (!isInstant(data.at)) problems.push(`data.at ${JSON.stringify(data.at)} is not an instant`);
    if (typeof data.operation !== 'string') problems.push('data.operation is not a string');
    const types = ['user', 'tenant', 'role', 'department', 'instance', 'connection', 'session', 'system'];
    if (!types.includes(data.targetType as string))
      problems.push(`data.targetType ${JSON.stringify(data.targetType)} is not one of ${types.join(', ')}`);
    if (data.targetId !== null && !isId(data.targetId)) problems.push('data.targetId is neither an id nor null');
    if (data.targetName !== null && typeof data.targetName !== 'string')
      problems.push('data.targetName is neither a string nor null');
    // Extension (docs/lists.md, Versions): optional, as a server without versions omits it.
    if (data.targetVersion !== undefined && data.targetVersion !== null && !isId(data.targetVersion))
      problems.push('data.targetVersion is neither a version (a positive integer) nor null');
  }
  return problems;
}

/** Standard base64 of the UTF-8 bytes of a JSON value (§2). */
const base64Json = (value: unknown): string => Buffer.from(JSON.stringify(value), 'utf8').toString('base64');

interface Closed {
  code: number;
  reason: string;
}

/** The most frames one socket of the kit takes (a run sees a few dozen): a server flooding it is cut off. */
export const MAX_FRAMES = 10_000;
/** The largest server frame the kit reads (no event of §3 comes near it): a larger one closes with 1009. */
export const MAX_SERVER_FRAME = 1024 * 1024;

/** A WebSocket as the kit opens one: bounded handshake, no compression, frames up to {@link MAX_SERVER_FRAME}. */
export const openSocket = (url: URL | string, timeoutMs: number, origin?: string): WebSocket =>
  new WebSocket(url, {
    handshakeTimeout: timeoutMs,
    perMessageDeflate: false,
    maxPayload: MAX_SERVER_FRAME,
    ...(origin === undefined ? {} : { origin }),
  });

/** A socket under test: what it received, decoded, and how it ended. */
export class Probe {
  readonly envelopes: Envelope[] = [];
  readonly frameProblems: string[] = [];
  /** Every message frame received, valid or not (a refused handshake sends none). */
  received = 0;
  pongs = 0;
  closed: Closed | undefined;
  error: string | undefined;
  /** The new name of its tenant, once the kit renames it (decodeServerFrame). */
  renamedTo: string | undefined;
  private readonly waiters = new Set<() => void>();

  constructor(
    readonly ws: WebSocket,
    readonly tenantName: string,
    readonly userId: number,
    private readonly timeoutMs: number,
  ) {
    const notify = (): void => {
      for (const waiter of [...this.waiters]) waiter();
    };
    ws.on('message', (raw: RawData, isBinary: boolean) => {
      this.received += 1;
      // Each frame wakes every waiter, which looks through what came so far: a flood would stall the run
      // past its timeouts and fill its memory.
      if (this.received > MAX_FRAMES) {
        if (this.received === MAX_FRAMES + 1) {
          this.frameProblems.push(`more than ${MAX_FRAMES} frames: the kit stopped reading this socket`);
          ws.terminate();
        }
        return;
      }
      const bytes = Array.isArray(raw) ? Buffer.concat(raw) : Buffer.from(raw as ArrayBuffer);
      const { envelope, problems } = decodeServerFrame(bytes, isBinary, tenantName, this.renamedTo);
      this.frameProblems.push(...problems);
      if (envelope) this.envelopes.push(envelope);
      notify();
    });
    ws.on('pong', () => {
      this.pongs += 1;
      notify();
    });
    ws.on('open', notify);
    ws.on('close', (code: number, reason: Buffer) => {
      this.closed = { code, reason: reason.toString('utf8') };
      notify();
    });
    // A refused upgrade or a reset connection: the close event (1006) follows and says the rest.
    ws.on('error', (error: Error) => {
      this.error = error.message;
    });
  }

  /** Resolves with `test`'s first defined answer; rejects after the per-step timeout or when `test` throws. */
  until<T>(test: () => T | undefined, what: string): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const finish = (): void => {
        clearTimeout(timer);
        this.waiters.delete(attempt);
      };
      const attempt = (): void => {
        let value: T | undefined;
        try {
          value = test();
        } catch (error) {
          finish();
          reject(error as Error);
          return;
        }
        if (value !== undefined) {
          finish();
          resolve(value);
        }
      };
      const timer = setTimeout(() => {
        finish();
        reject(new Error(`${what}: nothing within ${this.timeoutMs} ms`));
      }, this.timeoutMs);
      this.waiters.add(attempt);
      attempt();
    });
  }

  private closedMeanwhile(what: string): Error {
    const closed = this.closed ?? { code: 0, reason: '' };
    return new Error(`${what}: the server closed the socket (${closed.code} ${JSON.stringify(closed.reason)})`);
  }

  opened(): Promise<true> {
    return this.until(() => {
      if (this.ws.readyState === WebSocket.OPEN) return true;
      if (this.closed) throw this.closedMeanwhile('opening');
      return undefined;
    }, 'opening');
  }

  /** The first envelope (received so far or later) that `match` accepts. */
  event(match: (e: Envelope) => boolean, what: string): Promise<Envelope> {
    return this.until(() => {
      const found = this.envelopes.find(match);
      if (found) return found;
      if (this.closed) throw this.closedMeanwhile(what);
      return undefined;
    }, what);
  }

  send(data: string | Buffer): void {
    if (this.ws.readyState === WebSocket.OPEN) this.ws.send(data);
  }

  /** Sends a client ping (§2.1) and waits for the server's `ping` event answering it. */
  async ping(values: { tenantName?: string; userId?: number } = {}): Promise<Envelope> {
    await this.opened();
    const before = this.envelopes.filter((e) => e.event === 'ping').length;
    const data = {
      event: 'ping',
      tenantName: values.tenantName ?? this.tenantName,
      userId: values.userId ?? this.userId,
    };
    this.send(JSON.stringify({ action: 'sendmessage', data: base64Json(data) }));
    await this.until(() => {
      if (this.envelopes.filter((e) => e.event === 'ping').length > before) return true;
      if (this.closed) throw this.closedMeanwhile('waiting for the pong');
      return undefined;
    }, 'no pong to a client ping');
    return this.envelopes.filter((e) => e.event === 'ping')[before] as Envelope;
  }

  /** How the server closed it. */
  closedBy(what: string): Promise<Closed> {
    return this.until(() => this.closed, what);
  }

  /** Closes it (1000) and, should the server not finish the closing handshake in time, drops it. */
  async end(): Promise<void> {
    if (this.closed) return;
    if (this.ws.readyState === WebSocket.OPEN) this.ws.close(1000, 'Page unload');
    else this.ws.terminate();
    try {
      await this.closedBy('closing');
    } catch {
      this.ws.terminate();
    }
  }
}

type Step = { status: number; problems: string[] };

/** Problems of a close against the expected code and reason (§5.1). */
function closeProblems(closed: Closed, code: number, reason: string): string[] {
  if (closed.code === code && closed.reason === reason) return [];
  return [`expected close ${code} ${JSON.stringify(reason)}, got ${closed.code} ${JSON.stringify(closed.reason)}`];
}

/**
 * The socket group (./kit.ts): the caller's own sockets for the handshake and frames, then a throwaway
 * role and user of its own (removed at the end) and the run's throwaway tenant (left as it was) for the
 * events, their fan-out and the closes on revocation, role change and tenant change.
 */
export async function socketChecks(
  c: ConformanceClient,
  run: RunContext,
  me: Record<string, unknown>,
  tenants: RunTenants,
): Promise<void> {
  // The handshake needs a ticket from POST /api/auth/socket-ticket, an extension (contracts/socket.md
  // §1.1, "decided here"): a server of the base profile has no way in that this contract describes.
  if (!c.inProfile('authSocketTicket')) return;
  const { http, check, timeoutMs } = c;
  const { stamp } = run;
  const socketBase = `${c.baseUrl.replace(/^http(s?):/i, 'ws$1:')}/ws`;
  const ownOrigin = new URL(c.baseUrl).origin;
  const myId = typeof me.id === 'number' ? me.id : 0;
  const myTenant = typeof me.tenantName === 'string' ? me.tenantName : c.tenant;
  const probes: Probe[] = [];

  const ticket = async (token?: string): Promise<string> => {
    const answer = await http('POST', '/api/auth/socket-ticket', token === undefined ? {} : { token });
    const value = asRecord(answer.json).ticket;
    if (answer.status !== 200 || typeof value !== 'string')
      throw new Error(`POST /api/auth/socket-ticket answered ${answer.status}: ${answer.text.slice(0, 200)}`);
    return value;
  };
  const open = (query: Record<string, string | number>, tenantName: string, userId: number, origin?: string): Probe => {
    const url = new URL(socketBase);
    for (const [k, v] of Object.entries(query)) url.searchParams.set(k, String(v));
    const ws = openSocket(url, timeoutMs, origin);
    const probe = new Probe(ws, tenantName, userId, timeoutMs);
    probes.push(probe);
    return probe;
  };
  /** A socket of a user on a tenant with a fresh ticket of `token`'s session (the caller's when absent). */
  const connect = async (tenantName: string, userId: number, token?: string): Promise<Probe> =>
    open({ tenantName, userId, ticket: await ticket(token) }, tenantName, userId);
  /** Runs one check; a timeout or failed request is that check's failure, not the group's end. */
  const step = async (name: string, body: () => Promise<Step>): Promise<void> => {
    try {
      const { status, problems } = await body();
      check(name, 'socket', status, problems);
    } catch (error) {
      check(name, 'socket', 0, [(error as Error).message]);
    }
  };
  /** A handshake the server must refuse with a close frame, and nothing else before it (§1.2). */
  const refused = async (name: string, probe: Probe, code: number, reason: string): Promise<void> => {
    await step(name, async () => {
      const closed = await probe.closedBy(`expected close ${code} ${JSON.stringify(reason)}`);
      const problems = closeProblems(closed, code, reason);
      if (probe.received > 0) problems.push(`${probe.received} frame(s) sent before the close (§1.2: nothing else)`);
      return { status: closed.code, problems };
    });
  };

  try {
    // ----- handshake (§1.1, §1.2) ------------------------------------------------------------------------
    let first = '';
    await step('socket ticket', async () => {
      const answer = await http('POST', '/api/auth/socket-ticket');
      const body = asRecord(answer.json);
      const problems: string[] = [];
      if (answer.status !== 200) problems.push(`expected HTTP 200, got ${answer.status}`);
      if (typeof body.ticket !== 'string' || !TICKET.test(body.ticket))
        problems.push(`ticket ${JSON.stringify(body.ticket)} is not 43 base64url characters (256 random bits)`);
      else first = body.ticket;
      if (!Number.isInteger(body.expires_in) || (body.expires_in as number) <= 0)
        problems.push(`expires_in ${JSON.stringify(body.expires_in)} is not a positive whole number of seconds`);
      return { status: answer.status, problems };
    });
    if (!first) first = await ticket();
    // The caller's own socket, sent with the server's own Origin (a browser on the panel's page would).
    const mine = open({ tenantName: myTenant, userId: myId, ticket: first }, myTenant, myId, ownOrigin);
    await step('socket handshake with a ticket', async () => {
      await mine.opened();
      // Refusals come as a close right after the upgrade: the socket is admitted once a ping is
      // answered, or when the server keeps it open through a whole timeout.
      await mine.ping().catch(() => undefined);
      return mine.closed
        ? { status: mine.closed.code, problems: [`closed ${mine.closed.code} ${JSON.stringify(mine.closed.reason)}`] }
        : { status: 101, problems: [] };
    });
    await step('socket ping answered with pong', async () => {
      const pong = await mine.ping();
      const problems = mine.frameProblems.slice();
      if (pong.tenantName !== myTenant) problems.push(`pong tenantName ${pong.tenantName}, not ${myTenant}`);
      return { status: 101, problems };
    });
    await step('socket protocol ping answered (RFC 6455 pong)', async () => {
      const before = mine.pongs;
      mine.ws.ping();
      await mine.until(() => (mine.pongs > before ? true : undefined), 'no pong control frame');
      return { status: 101, problems: [] };
    });
    await refused(
      'socket ticket used twice: 4401',
      open({ tenantName: myTenant, userId: myId, ticket: first }, myTenant, myId),
      4401,
      'Unauthorized',
    );
    await refused(
      'socket without a ticket: 4401',
      open({ tenantName: myTenant, userId: myId }, myTenant, myId),
      4401,
      'Unauthorized',
    );
    await refused(
      'socket with an unknown ticket: 4401',
      open({ tenantName: myTenant, userId: myId, ticket: randomBytes(32).toString('base64url') }, myTenant, myId),
      4401,
      'Unauthorized',
    );
    const other = await ticket();
    await refused(
      "socket userId not the ticket's user: 4401",
      open({ tenantName: myTenant, userId: myId + 1, ticket: other }, myTenant, myId + 1),
      4401,
      'Unauthorized',
    );
    await refused(
      'socket ticket used up by a refused userId: 4401',
      open({ tenantName: myTenant, userId: myId, ticket: other }, myTenant, myId),
      4401,
      'Unauthorized',
    );
    const kept = await ticket();
    await refused(
      'socket token in the URL: 4403',
      open({ tenantName: myTenant, userId: myId, ticket: kept, token: 'conformance-token' }, myTenant, myId),
      4403,
      'Token in URL refused',
    );
    // §1.2 checks in order and stops at the first failure: the ticket check came after, so it is unused.
    await step('socket checks in order (a ticket beside a refused token stays unused)', async () => {
      const probe = open({ tenantName: myTenant, userId: myId, ticket: kept }, myTenant, myId);
      await probe.ping();
      await probe.end();
      return { status: 101, problems: [] };
    });
    await refused(
      'socket foreign Origin: 4403',
      open(
        { tenantName: myTenant, userId: myId, ticket: await ticket() },
        myTenant,
        myId,
        'https://conformance.invalid',
      ),
      4403,
      'Origin not allowed',
    );
    await refused('socket unknown tenant: 4403', await connect(`conf-none-${stamp}`, myId), 4403, 'Forbidden');

    // ----- frames (§2.1) ----------------------------------------------------------------------------------
    await step('socket other input ignored, connection kept', async () => {
      mine.send('not json');
      mine.send(JSON.stringify({ action: 'other', data: base64Json({ event: 'ping' }) }));
      mine.send(JSON.stringify({ action: 'sendmessage', data: base64Json({ event: 'nothing' }) }));
      mine.send(JSON.stringify({ action: 'sendmessage', data: '%%% not base64 %%%' }));
      mine.send(Buffer.from([0, 1, 2, 3]));
      // A ping whose values differ from the handshake's is still answered, for the connection's tenant.
      const pong = await mine.ping({ tenantName: `conf-other-${stamp}`, userId: myId + 1 });
      const problems: string[] = [];
      if (pong.tenantName !== myTenant) problems.push(`the pong names tenant ${pong.tenantName}, not ${myTenant}`);
      await mine.ping();
      return { status: 101, problems };
    });
    await step('socket frame over 4096 bytes: 1009', async () => {
      const probe = await connect(myTenant, myId);
      await probe.ping();
      probe.send(JSON.stringify({ action: 'sendmessage', data: 'A'.repeat(MAX_CLIENT_FRAME + 100) }));
      // The code only: it alone drives the client's reaction (§4.3), whatever the reason text says.
      const closed = await probe.closedBy('expected close 1009');
      return {
        status: closed.code,
        problems: closed.code === 1009 ? [] : [`expected close 1009, got ${closed.code} ${closed.reason}`],
      };
    });

    await eventsAndRevocations(c, { me, myTenant, myId, stamp, tenants, fixtures: run.fixtures, connect, step });
  } finally {
    // Every socket this group opened, closed (or dropped) before it returns.
    await Promise.all(probes.map((p) => p.end()));
    const frames = probes.reduce((n, p) => n + p.received, 0);
    const problems = probes.flatMap((p) => p.frameProblems);
    check('socket frames: base64 of UTF-8 JSON envelopes', 'socket', frames, [
      ...(frames === 0 ? ['the server sent no frame at all'] : []),
      ...problems,
    ]);
  }
}

interface EventsContext {
  me: Record<string, unknown>;
  myTenant: string;
  myId: number;
  stamp: string;
  tenants: RunTenants;
  /** What the run removes at its end (./kit-fixtures.ts). */
  fixtures: RunContext['fixtures'];
  connect(tenantName: string, userId: number, token?: string): Promise<Probe>;
  step(name: string, body: () => Promise<Step>): Promise<void>;
}

/**
 * Events through REST actions, and the server's closes (§3, §5). Sockets: the caller on its own tenant
 * (`mine`), the caller on the run's throwaway tenant (`watching`, staff watching it), and a throwaway user
 * whose role does not hold `audit` on its tenant, in two sessions (`restricted`, `second`).
 */
async function eventsAndRevocations(c: ConformanceClient, x: EventsContext): Promise<void> {
  const { http, loginToken, check } = c;
  const { me, myTenant, myId, stamp, tenants, connect, step } = x;
  const { tenantName, tenantId } = tenants;
  const info = asRecord((await http('GET', '/api/auth/userInfo')).json);
  const holdsAudit = asArray(info.has_permission_routes).includes('audit');
  const myRoleId = asRecord(me.role).id;

  // A throwaway role without `audit`, and a throwaway user holding it.
  const role = asRecord(
    (await http('POST', '/api/roles', { body: { name: `conf_ws_${stamp}`, display_name: `Conformance ${stamp} ws` } }))
      .json,
  );
  const roleId = typeof role.id === 'number' ? role.id : undefined;
  const email = `conf-ws-${stamp}@example.com`;
  const password = 'Conf#Ws4!Tz8@Qn';
  const username = `conf.ws.${stamp}`;
  const user = roleId
    ? asRecord(
        (
          await http('POST', '/api/users', {
            body: {
              username,
              name: 'Conformance Socket User',
              email,
              password,
              role_id: roleId,
              user_department_id: null,
              chosen_instances: [],
            },
          })
        ).json,
      )
    : {};
  const userId = typeof user.id === 'number' ? user.id : undefined;
  const userTenant = typeof user.tenantName === 'string' ? user.tenantName : myTenant;
  let userDeleted = false;
  try {
    const first = userId ? await loginToken(email, password) : null;
    const other = userId ? await loginToken(email, password) : null;
    if (!roleId || !userId || !first || !other || !tenantId) {
      check('socket events (fixtures)', 'socket', 0, [
        'could not create the throwaway role and user, sign them in, or find the throwaway tenant',
      ]);
      return;
    }
    const mine = await connect(myTenant, myId);
    const watching = await connect(tenantName, myId);
    const restricted = await connect(userTenant, userId, first);
    const second = await connect(userTenant, userId, other);
    // Admitted, each of them, before anything is produced: events are not replayed (§2.2).
    try {
      await Promise.all([mine.ping(), watching.ping(), restricted.ping(), second.ping()]);
    } catch (error) {
      check('socket events (sockets admitted)', 'socket', 0, [(error as Error).message]);
      return;
    }

    let instanceId: number | undefined;
    await step('socket InstanceUpdated to the tenant (instanceCreate)', async () => {
      const created = await http('POST', '/api/instance', {
        body: { name: `Conformance ${stamp} ws`, tenantName, isOfficial: false, isUnlimited: false },
      });
      const instance = asRecord(created.json);
      if (created.status !== 201 || typeof instance.id === 'undefined')
        throw new Error(`instanceCreate answered ${created.status}: ${created.text.slice(0, 200)}`);
      instanceId = instance.id as number;
      const event = await watching.event(
        (e) => e.event === 'InstanceUpdated' && e.data.id === instanceId,
        'no InstanceUpdated for the created instance',
      );
      const problems: string[] = [];
      for (const field of ['name', 'tenantName', 'isOfficial', 'isUnlimited', 'activated'])
        if (event.data[field] !== instance[field])
          problems.push(`data.${field} ${JSON.stringify(event.data[field])}, REST ${JSON.stringify(instance[field])}`);
      return { status: 101, problems };
    });
    await step('socket RolePermissionsChanged to every tenant (permissionUpdate)', async () => {
      const updated = await http('POST', '/api/permission/update', { body: { roleId, permissions: [] } });
      if (updated.status !== 200) throw new Error(`permissionUpdate answered ${updated.status}`);
      const problems: string[] = [];
      for (const [label, probe] of [
        ['the caller on its tenant', mine],
        ['the caller watching the throwaway tenant', watching],
        ['the throwaway user', restricted],
      ] as const) {
        const event = await probe.event(
          (e) => e.event === 'RolePermissionsChanged' && e.data.roleId === roleId,
          `no RolePermissionsChanged on the socket of ${label}`,
        );
        if (Object.keys(event.data).join() !== 'roleId')
          problems.push(`data carries more than roleId: ${JSON.stringify(event.data)}`);
      }
      return { status: 101, problems };
    });
    // Within one process events reach a connection in the order they were produced (§2.2): the
    // RolePermissionsChanged above came after the instance's events, so a leak would have arrived by now.
    await step("socket events stay in their tenant (no InstanceUpdated of another tenant's instance)", async () => {
      const leaked = [mine, restricted].filter((p) =>
        p.envelopes.some((e) => e.event === 'InstanceUpdated' && e.data.id === instanceId),
      );
      return {
        status: 101,
        problems: leaked.map((p) => `a socket on tenant ${p.tenantName} got the InstanceUpdated of ${tenantName}`),
      };
    });
    await step('socket AuditRecorded only where the role holds audit', async () => {
      const problems: string[] = [];
      if (holdsAudit) {
        await mine.event(
          (e) => e.event === 'AuditRecorded' && e.data.targetType === 'instance' && e.data.targetId === instanceId,
          "no AuditRecorded of the instance's creation on the caller's socket (its role holds audit)",
        );
        await mine.event(
          (e) => e.event === 'AuditRecorded' && e.data.targetType === 'role' && e.data.targetId === roleId,
          "no AuditRecorded of the role's permissions on the caller's socket (its role holds audit)",
        );
      }
      // A round trip on the restricted socket after the records reached the caller's.
      await restricted.ping();
      if (restricted.envelopes.some((e) => e.event === 'AuditRecorded'))
        problems.push('the socket of a user whose role does not hold audit got AuditRecorded');
      return { status: 101, problems };
    });

    // ----- closes (§5, §5.1) ---------------------------------------------------------------------------
    await step('socket sign-out closes that session only: 4401', async () => {
      const out = await http('POST', '/api/auth/logout', { token: other, body: { data: { email }, ip: null } });
      if (out.status !== 200) throw new Error(`authLogout answered ${out.status}`);
      const closed = await second.closedBy('expected close 4401 after sign-out');
      const problems = closeProblems(closed, 4401, 'Unauthorized');
      await restricted.ping().catch((error: Error) => {
        problems.push(`the same user's socket of another session: ${error.message}`);
      });
      return { status: closed.code, problems };
    });
    await step('socket role change: 4000 Role changed', async () => {
      const changed = await http('PUT', `/api/users/${userId}`, {
        body: { username, name: 'Conformance Socket User', email, role_id: myRoleId },
      });
      if (changed.status !== 200)
        throw new Error(`userUpdate answered ${changed.status}: ${changed.text.slice(0, 200)}`);
      const closed = await restricted.closedBy('expected close 4000 after a role change');
      return { status: closed.code, problems: closeProblems(closed, 4000, 'Role changed') };
    });
    await step('socket user deleted: 4401', async () => {
      // The reconnect after 4000 asks a new ticket in the same session (§4.3).
      const again = await connect(userTenant, userId, first);
      await again.ping();
      const deleted = await http('DELETE', `/api/users/${userId}`);
      if (deleted.status !== 200) throw new Error(`userDelete answered ${deleted.status}`);
      userDeleted = true;
      const closed = await again.closedBy('expected close 4401 after the user was deleted');
      return { status: closed.code, problems: closeProblems(closed, 4401, 'Unauthorized') };
    });
    await tenantCloses(c, tenants, myId, connect, step, watching);
  } finally {
    // The throwaway user goes (if a check above did not delete it), then the role it held: a role any
    // user held, live or deleted, cannot be deleted (contracts/openapi.yaml roleDelete), so a user still
    // on it is moved off first.
    // The run's clean-up purges the user and removes the role if this could not (./kit-fixtures.ts).
    if (userId) x.fixtures.users.push(userId);
    if (roleId) x.fixtures.roles.push(roleId);
    if (userId && !userDeleted) {
      await http('PUT', `/api/users/${userId}`, {
        body: { username, name: 'Conformance Socket User', email, role_id: myRoleId },
      });
      await http('DELETE', `/api/users/${userId}`);
    }
    if (roleId) await http('DELETE', `/api/roles/${roleId}`);
  }
}

/** Tenant closed (§5): renamed → 4000 on its connections, deleted → 4403; the tenant is left as it was. */
async function tenantCloses(
  c: ConformanceClient,
  tenants: RunTenants,
  myId: number,
  connect: EventsContext['connect'],
  step: EventsContext['step'],
  watching: Probe,
): Promise<void> {
  const { http } = c;
  const { tenantName, tenantId } = tenants;
  const page = await http('POST', '/api/tenant/paginated', { body: { search: tenantName, pagination_limit: 100 } });
  const row = asArray(asRecord(page.json).data)
    .map(asRecord)
    .find((t) => t.id === tenantId);
  const rename = (name: string) =>
    http('POST', '/api/tenant/update', {
      body: { id: tenantId, name, cnpj: row?.cnpj, template: row?.template, pool: row?.pool },
    });
  await step('socket tenant renamed: 4000 Tenant renamed', async () => {
    if (!row) throw new Error(`the throwaway tenant ${tenantName} is not in the paginated list`);
    watching.renamedTo = `${tenantName}-ws`;
    const renamed = await rename(watching.renamedTo);
    if (renamed.status !== 200)
      throw new Error(`tenantUpdate answered ${renamed.status}: ${renamed.text.slice(0, 200)}`);
    // The tenant gets its name back whatever the close was: the rest of the run goes on using it.
    const closed = await watching.closedBy('expected close 4000 after the tenant was renamed').catch((e: Error) => e);
    const back = await rename(tenantName);
    const problems = closed instanceof Error ? [closed.message] : closeProblems(closed, 4000, 'Tenant renamed');
    if (back.status !== 200) problems.push(`renaming the tenant back answered ${back.status}`);
    return { status: closed instanceof Error ? 0 : closed.code, problems };
  });
  await step('socket tenant deleted: 4403 Tenant deleted', async () => {
    const probe = await connect(tenantName, myId);
    await probe.ping();
    const deleted = await http('POST', '/api/tenant/delete', { body: { id: tenantId } });
    if (deleted.status !== 200) throw new Error(`tenantDelete answered ${deleted.status}`);
    // Restored whatever the close was: the tenant is left as the run found it.
    const closed = await probe.closedBy('expected close 4403 after the tenant was deleted').catch((e: Error) => e);
    const restored = await http('POST', '/api/tenant/restore', { body: { id: tenantId } });
    const problems = closed instanceof Error ? [closed.message] : closeProblems(closed, 4403, 'Tenant deleted');
    if (restored.status !== 200) problems.push(`restoring the tenant answered ${restored.status}`);
    return { status: closed instanceof Error ? 0 : closed.code, problems };
  });
}
