import { WebSocket } from 'ws';
import { check, fixed, median, percentile, sleep, type Check, type SuiteResult } from './lib/report';
import { json, loginOn, rssMB, serverOnPostgres, type PostgresTarget } from './lib/servers';

/**
 * N authenticated sockets on one server process (PostgreSQL), every client pinging
 * as the SPA does on open, then one event broadcast to all of them.
 *
 * - Each socket opens with its own single-use ticket (contracts/socket.md §1.1), asked for with
 *   `POST /api/auth/socket-ticket` just before its batch connects, as the SPA asks before each connect
 *   (tickets live 30 s, so asking for all 10,000 first would let the last ones expire). Ticket requests
 *   go {@link TICKET_CONCURRENCY} at a time; their time is printed apart from admission.
 * - Clients live in this process (`ws`), connecting in batches of {@link BATCH} so admission (the
 *   ticket's single-use delete, the session's and the tenant's reads, socket.md §1.2) keeps up. A
 *   socket counts as admitted when the pong to its opening ping arrives (the server holds early frames
 *   until admission).
 * - Memory per connection: the server's RSS (VmRSS) after all are admitted minus before, over N.
 * - Broadcast: one `POST /api/instance/update` on the tenant every socket watches → `InstanceUpdated`
 *   to all; latency per socket = arrival here − the event's `sentAt` (the server's clock: same machine),
 *   and also arrival − the moment the request was sent. Arrival is stamped in the message handler,
 *   before any decoding; the frames are decoded and checked afterwards. One warm-up broadcast, then
 *   {@link BROADCASTS} measured ones; the budget applies to the median of their p99s (one broadcast on
 *   a shared 2-core machine is at the mercy of whatever else runs in that second).
 */
const BATCH = 250;
/** Ticket requests in flight at once while a batch's tickets are asked for. */
const TICKET_CONCURRENCY = 50;
/** Measured broadcasts after one warm-up; the check takes the median of their p99s. */
const BROADCASTS = 5;
const TENANT = 'backoffice';

const encodePing = (tenantName: string, userId: number) =>
  JSON.stringify({
    action: 'sendmessage',
    data: Buffer.from(JSON.stringify({ event: 'ping', tenantName, userId }), 'utf8').toString('base64'),
  });
const decode = (frame: string) =>
  JSON.parse(Buffer.from(frame, 'base64').toString('utf8')) as { event: string; sentAt: string; data: unknown };
const nowMs = () => performance.timeOrigin + performance.now();

interface Client {
  socket: WebSocket;
  /** Frames received, with arrival time (ms since the epoch, sub-ms). */
  frames: { at: number; data: string }[];
  admittedMs: number;
  ping: string;
}

function connect(url: string, ping: string, timeoutMs: number): Promise<Client> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const socket = new WebSocket(url, { perMessageDeflate: false });
    const client: Client = { socket, frames: [], admittedMs: Number.NaN, ping };
    const timer = setTimeout(() => {
      socket.terminate();
      reject(new Error('admission timed out'));
    }, timeoutMs);
    socket.on('open', () => socket.send(ping));
    socket.on('message', (raw) => {
      const at = nowMs();
      client.frames.push({ at, data: raw.toString() });
      if (Number.isNaN(client.admittedMs)) {
        client.admittedMs = performance.now() - started;
        clearTimeout(timer);
        resolve(client);
      }
    });
    socket.on('close', (code) => {
      clearTimeout(timer);
      reject(new Error(`closed ${code} before admission`));
    });
    socket.on('error', () => undefined);
  });
}

export async function socketBench(options: {
  connections: number;
  broadcastP99Ms: number;
  shared?: PostgresTarget;
}): Promise<SuiteResult> {
  const n = options.connections;
  const checks: Check[] = [];
  const notes: string[] = [];
  const table = [['measure', 'value']];
  const clients: Client[] = [];
  const { server, release } = await serverOnPostgres('bench_ws', options.shared);
  {
    try {
      const admin = await loginOn(server.base);
      const operator = await loginOn(server.base, 'operador@demo.local');
      const auth = { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json' };
      const instance = await json<{ id: number }>(
        await fetch(`${server.base}/api/instance`, {
          method: 'POST',
          headers: auth,
          body: JSON.stringify({ name: 'bench-broadcast', tenantName: TENANT, isOfficial: false, isUnlimited: false }),
        }),
      );
      const wsBase = server.base.replace(/^http/, 'ws');
      const sessions = [admin, operator].map((s) => ({
        token: s.token,
        url: (ticket: string) =>
          `${wsBase}/ws?${new URLSearchParams({ tenantName: TENANT, userId: String(s.userId), ticket }).toString()}`,
        ping: encodePing(TENANT, s.userId),
      }));
      const ticketMs: number[] = [];
      const ticketFor = async (token: string): Promise<string> => {
        const started = performance.now();
        const { ticket } = await json<{ ticket: string }>(
          await fetch(`${server.base}/api/auth/socket-ticket`, {
            method: 'POST',
            headers: { authorization: `Bearer ${token}` },
          }),
        );
        ticketMs.push(performance.now() - started);
        return ticket;
      };

      await sleep(500);
      const rssBefore = rssMB(server.child.pid ?? 0);
      const connectStarted = performance.now();
      let ticketSeconds = 0;
      let failures = 0;
      const failureReasons = new Map<string, number>();
      for (let i = 0; i < n; i += BATCH) {
        const size = Math.min(BATCH, n - i);
        const owners = Array.from({ length: size }, (_, k) => sessions[(i + k) % sessions.length] ?? sessions[0]);
        const ticketsStarted = performance.now();
        const tickets: string[] = [];
        for (let k = 0; k < size; k += TICKET_CONCURRENCY)
          tickets.push(
            ...(await Promise.all(owners.slice(k, k + TICKET_CONCURRENCY).map((o) => ticketFor(o?.token ?? '')))),
          );
        ticketSeconds += (performance.now() - ticketsStarted) / 1000;
        const batch = await Promise.allSettled(
          owners.map((session, k) => connect(session?.url(tickets[k] ?? '') ?? '', session?.ping ?? '', 60_000)),
        );
        for (const r of batch) {
          if (r.status === 'fulfilled') clients.push(r.value);
          else {
            failures += 1;
            const reason = r.reason instanceof Error ? r.reason.message : String(r.reason);
            failureReasons.set(reason, (failureReasons.get(reason) ?? 0) + 1);
          }
        }
      }
      const connectSeconds = (performance.now() - connectStarted) / 1000 - ticketSeconds;
      await sleep(1000);
      const rssAfter = rssMB(server.child.pid ?? 0);
      const admission = clients.map((c) => c.admittedMs);
      table.push(['sockets admitted / asked', `${clients.length} / ${n}`]);
      table.push([
        `tickets: ${ticketMs.length} asked, ${TICKET_CONCURRENCY} at a time: seconds; p50 / p99 ms`,
        `${fixed(ticketSeconds, 1)}; ${fixed(percentile(ticketMs, 50))} / ${fixed(percentile(ticketMs, 99))}`,
      ]);
      table.push([
        'connect + admit all: seconds (sockets/s)',
        `${fixed(connectSeconds, 1)} (${fixed(clients.length / connectSeconds, 0)})`,
      ]);
      table.push([
        'admission (open → first pong) p50 / p99 ms, batches of ' + BATCH,
        `${fixed(percentile(admission, 50))} / ${fixed(percentile(admission, 99))}`,
      ]);
      table.push(['server RSS before / after MB', `${fixed(rssBefore)} / ${fixed(rssAfter)}`]);
      const perConnectionKB = ((rssAfter - rssBefore) * 1024) / Math.max(1, clients.length);
      table.push(['server memory per connection KB (RSS growth / sockets)', fixed(perConnectionKB, 1)]);
      if (failures) notes.push(`admission failures: ${[...failureReasons].map(([r, c]) => `${c}× ${r}`).join(', ')}`);
      checks.push(check(`sockets: admitted of ${n}`, clients.length, n, 'sockets', 'min'));

      // Everyone pings at once (the SPA pings on open and every 5 minutes): pong round trip.
      for (const c of clients) c.frames.length = 0;
      const pingAt = new Map<Client, number>();
      for (const c of clients) {
        pingAt.set(c, nowMs());
        c.socket.send(c.ping);
      }
      await waitFor(() => clients.every((c) => c.frames.length > 0), 30_000);
      const pongs = clients
        .filter((c) => c.frames.length > 0)
        .map((c) => (c.frames[0]?.at ?? 0) - (pingAt.get(c) ?? 0));
      table.push([
        `ping burst (${clients.length} at once): pongs / p50 / p99 ms`,
        `${pongs.length} / ${fixed(percentile(pongs, 50))} / ${fixed(percentile(pongs, 99))}`,
      ]);

      // One event to all: a warm-up, then BROADCASTS measured ones (each waits until every socket has it).
      const rounds: { p50: number; p99: number; max: number; fromRequestP99: number; delivered: number }[] = [];
      for (let round = 0; round <= BROADCASTS; round += 1) {
        for (const c of clients) c.frames.length = 0;
        await sleep(300);
        const requestAt = nowMs();
        await json(
          await fetch(`${server.base}/api/instance/update`, {
            method: 'POST',
            headers: auth,
            body: JSON.stringify({ id: instance.id, tenantName: TENANT, name: `bench-broadcast-${round}` }),
          }),
        );
        await waitFor(() => clients.every((c) => c.frames.length > 0), 30_000);
        const sample = clients[0]?.frames.find((f) => decode(f.data).event === 'InstanceUpdated');
        const sentAt = sample ? Date.parse(decode(sample.data).sentAt) : Number.NaN;
        const arrivals = clients
          .map((c) => c.frames.find((f) => f.data === sample?.data)?.at ?? Number.NaN)
          .filter((at) => !Number.isNaN(at));
        const fromSentAt = arrivals.map((at) => at - sentAt);
        if (round === 0) continue;
        rounds.push({
          p50: percentile(fromSentAt, 50),
          p99: percentile(fromSentAt, 99),
          max: Math.max(...fromSentAt),
          fromRequestP99: percentile(
            arrivals.map((at) => at - requestAt),
            99,
          ),
          delivered: arrivals.length,
        });
      }
      const p99 = median(rounds.map((r) => r.p99));
      const delivered = Math.min(...rounds.map((r) => r.delivered));
      table.push(['broadcast: delivered to every socket, each round', `${delivered} / ${clients.length}`]);
      table.push([
        `broadcast (median of ${BROADCASTS}): sentAt → arrival p50 / p99 / max ms`,
        `${fixed(median(rounds.map((r) => r.p50)))} / ${fixed(p99)} / ${fixed(median(rounds.map((r) => r.max)))}`,
      ]);
      table.push([
        `broadcast (median of ${BROADCASTS}): request sent → arrival p99 ms`,
        fixed(median(rounds.map((r) => r.fromRequestP99))),
      ]);
      table.push(['broadcast: p99 of each round ms', rounds.map((r) => fixed(r.p99, 0)).join(', ')]);
      checks.push(
        check(`sockets: broadcast delivered to all ${clients.length}`, delivered, clients.length, 'sockets', 'min'),
      );
      checks.push(
        check(
          `sockets: broadcast p99 to ${clients.length} sockets (median of ${BROADCASTS})`,
          p99,
          options.broadcastP99Ms,
          'ms',
        ),
      );
      return {
        suite: 'sockets',
        table,
        checks,
        notes,
        data: {
          n,
          admitted: clients.length,
          connectSeconds,
          ticketSeconds,
          ticket: { p50: percentile(ticketMs, 50), p99: percentile(ticketMs, 99) },
          rssBefore,
          rssAfter,
          perConnectionKB,
          pong: { p50: percentile(pongs, 50), p99: percentile(pongs, 99) },
          broadcast: rounds,
        },
      };
    } finally {
      for (const c of clients) c.socket.terminate();
      await release();
    }
  }
}

async function waitFor(done: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!done() && Date.now() < deadline) await sleep(20);
}
