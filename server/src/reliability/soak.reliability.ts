import { once } from 'node:events';
import { WebSocket } from 'ws';
import { decodeServerFrame, encodeClientFrame } from '../../../src/domain/socket-codec';
import {
  loginOn,
  schemaUrl,
  startServerProcess,
  stopServerProcess,
  type ServerProcess,
} from '../test-support/processes';
import { startThrowawayPostgres, type ThrowawayPostgres } from '../test-support/postgres';
import { socketQuery, socketTicketOver } from '../test-support/socket-client';

/**
 * Scale-out soak (docs/product.md, Availability). Two server processes on one PostgreSQL take SOAK_SECONDS (60) of mixed
 * traffic at a FIXED rate, SOAK_RATE (30) requests per second, open-loop: request i is sent at
 * t0 + i / rate whether or not earlier ones have answered, and its latency counts from that scheduled
 * moment, so a stalled server shows as latency instead of silently lowering the load (no coordinated
 * omission). Reads and writes over REST and GraphQL alternate between the processes. Sockets on both
 * processes must receive every InstanceUpdated caused through either one (events cross processes).
 * Pass: 0 errors (non-2xx, network failures, answers later than 15 s), every event on every socket.
 * Reports the rate reached and p50/p95/p99/max latency, per process and overall.
 */
const SECONDS = Number(process.env.SOAK_SECONDS ?? 60);
const RATE = Number(process.env.SOAK_RATE ?? 30);
const TIMEOUT_MS = 15_000;
const SOCKETS_PER_PROCESS = 4;
const TENANT = 'farmacia-central';

let pg: ThrowawayPostgres;
const procs: ServerProcess[] = [];

beforeAll(async () => {
  pg = await startThrowawayPostgres();
  const url = await schemaUrl(pg.url, 'soak');
  procs.push(await startServerProcess(url, { seed: true, env: { LOGIN_MAX_FAILURES: '1000000' } }));
  procs.push(await startServerProcess(url, { env: { LOGIN_MAX_FAILURES: '1000000' } }));
}, 180_000);

afterAll(async () => {
  await Promise.all(procs.map((p) => stopServerProcess(p)));
  await pg?.stop();
});

interface Sample {
  kind: string;
  proc: number;
  scheduledAt: number;
  latency: number;
  ok: boolean;
  detail?: string;
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
function summary(samples: Sample[]): string {
  const sorted = samples.map((s) => s.latency).sort((a, b) => a - b);
  return `n=${sorted.length} p50=${percentile(sorted, 50).toFixed(0)} ms p95=${percentile(sorted, 95).toFixed(0)} ms p99=${percentile(sorted, 99).toFixed(0)} ms max=${(sorted.at(-1) ?? 0).toFixed(0)} ms`;
}

describe(`scale-out soak: 2 processes, ${SECONDS} s at ${RATE} req/s`, () => {
  it(
    'answers every request without error and delivers every event to every socket on both processes',
    async () => {
      const sessions = await Promise.all(procs.map((p) => loginOn(p.base)));
      const auth = (i: number) => ({ authorization: `Bearer ${sessions[i]?.token ?? ''}` });
      const instances = (await (
        await fetch(`${procs[0]?.base ?? ''}/api/instance?tenantName=${TENANT}`, { headers: auth(0) })
      ).json()) as { id: number }[];
      const instanceId = instances[0]?.id;
      if (!instanceId) throw new Error('the seed has no instance in farmacia-central');

      // Sockets on both processes, each recording the InstanceUpdated names it receives.
      const sockets: { proc: number; names: Set<string>; ws: WebSocket }[] = [];
      for (const [i, proc] of procs.entries()) {
        for (let s = 0; s < SOCKETS_PER_PROCESS; s += 1) {
          const session = sessions[i];
          const ticket = await socketTicketOver(proc.base, session?.token ?? '');
          const ws = new WebSocket(
            `${proc.base.replace('http', 'ws')}/ws?${socketQuery(TENANT, session?.userId ?? 0, ticket)}`,
          );
          const entry = { proc: i, names: new Set<string>(), ws };
          let pinged!: () => void;
          const admitted = new Promise<void>((resolve) => (pinged = resolve));
          ws.on('message', (raw) => {
            const frame = decodeServerFrame(raw.toString());
            if (!frame.ok) return;
            if (frame.event.name === 'ping') pinged();
            if (frame.event.name === 'instanceUpdated') entry.names.add((frame.event.data as { name: string }).name);
          });
          await once(ws, 'open');
          ws.send(encodeClientFrame({ event: 'ping', tenantName: TENANT, userId: session?.userId ?? 0 }));
          await admitted; // the pong proves admission: from here on it gets every event
          sockets.push(entry);
        }
      }

      const today = new Date();
      const day = (d: Date) => d.toISOString().slice(0, 10);
      const range = `startAt=${day(new Date(today.getTime() - 29 * 86_400_000))}&finishAt=${day(today)}`;
      const written: { name: string; proc: number }[] = [];
      let seq = 0;
      // The mix, by weight: reads dominate; every write of an instance name must reach every socket.
      const MIX: [number, string, (p: number) => Promise<Response>][] = [
        [30, 'GET users', (p) => fetch(`${procs[p]?.base}/api/users?tenantName=${TENANT}`, { headers: auth(p) })],
        [
          20,
          'POST tenant/paginated',
          (p) =>
            fetch(`${procs[p]?.base}/api/tenant/paginated`, {
              method: 'POST',
              headers: { ...auth(p), 'content-type': 'application/json' },
              body: '{"search":"farm","pagination_limit":10}',
            }),
        ],
        [
          12,
          'GET dashboard/summary',
          (p) => fetch(`${procs[p]?.base}/api/dashboard/summary?tenantName=${TENANT}&${range}`, { headers: auth(p) }),
        ],
        [
          15,
          'GraphQL users',
          (p) =>
            fetch(`${procs[p]?.base}/${TENANT}/graphql`, {
              method: 'POST',
              headers: { ...auth(p), 'content-type': 'application/json' },
              body: JSON.stringify({ query: '{ users { id name isConnected role { name } } }' }),
            }),
        ],
        [
          5,
          'GET tenant/feature',
          (p) => fetch(`${procs[p]?.base}/api/tenant/feature?tenantName=${TENANT}`, { headers: auth(p) }),
        ],
        [
          6,
          'POST tenant/feature',
          (p) =>
            fetch(`${procs[p]?.base}/api/tenant/feature`, {
              method: 'POST',
              headers: { ...auth(p), 'content-type': 'application/json' },
              body: JSON.stringify({ option: 'chatbot', enabled: seq % 2 === 0, tenantName: TENANT }),
            }),
        ],
        [
          4,
          'POST instance/update',
          (p) =>
            fetch(`${procs[p]?.base}/api/instance/update`, {
              method: 'POST',
              headers: { ...auth(p), 'content-type': 'application/json' },
              body: JSON.stringify({ id: instanceId, tenantName: TENANT, activated: true }),
            }),
        ],
        [
          8,
          'POST instance',
          (p) => {
            // A new instance per write: its InstanceUpdated carries a name no other write touches.
            const name = `soak-${p}-${(seq += 1)}`;
            written.push({ name, proc: p });
            return fetch(`${procs[p]?.base}/api/instance`, {
              method: 'POST',
              headers: { ...auth(p), 'content-type': 'application/json' },
              body: JSON.stringify({ name, tenantName: TENANT, isOfficial: false, isUnlimited: false }),
            });
          },
        ],
      ];
      const totalWeight = MIX.reduce((n, [w]) => n + w, 0);
      const pick = (i: number) => {
        // A fixed, evenly spread sequence (golden-ratio stepping), so every run sends the same mix.
        let x = ((i * 0.618_033_988_75) % 1) * totalWeight;
        for (const entry of MIX) {
          if (x < entry[0]) return entry;
          x -= entry[0];
        }
        return MIX[0] as (typeof MIX)[number];
      };

      const samples: Sample[] = [];
      const total = SECONDS * RATE;
      const t0 = performance.now() + 100;
      const inflight: Promise<void>[] = [];
      for (let i = 0; i < total; i += 1) {
        const scheduledAt = t0 + (i * 1000) / RATE;
        const wait = scheduledAt - performance.now();
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        const [, kind, call] = pick(i);
        const proc = i % 2;
        const timeout = AbortSignal.timeout(TIMEOUT_MS);
        inflight.push(
          Promise.race([
            call(proc),
            new Promise<never>((_, reject) => timeout.addEventListener('abort', () => reject(new Error('timeout')))),
          ])
            .then(async (response) => {
              const ok = response.status >= 200 && response.status < 300;
              const detail = ok ? undefined : `${response.status} ${(await response.text()).slice(0, 120)}`;
              if (ok) await response.arrayBuffer().catch(() => undefined);
              samples.push({
                kind,
                proc,
                scheduledAt,
                latency: performance.now() - scheduledAt,
                ok,
                ...(detail ? { detail } : {}),
              });
            })
            .catch((error: unknown) => {
              samples.push({
                kind,
                proc,
                scheduledAt,
                latency: performance.now() - scheduledAt,
                ok: false,
                detail: (error as Error).message,
              });
            }),
        );
      }
      await Promise.all(inflight);
      const elapsed = (performance.now() - t0) / 1000;

      // Events: every write reached every socket on both processes (bounded wait for stragglers).
      const expected = written.map((w) => w.name);
      const deadline = Date.now() + 15_000;
      while (Date.now() < deadline && !sockets.every((s) => expected.every((name) => s.names.has(name))))
        await new Promise((r) => setTimeout(r, 100));
      const missing = sockets.map((s) => expected.filter((name) => !s.names.has(name)).length);
      const crossed = sockets.reduce(
        (n, s) => n + written.filter((w) => w.proc !== s.proc && s.names.has(w.name)).length,
        0,
      );
      for (const s of sockets) s.ws.close();

      const errors = samples.filter((s) => !s.ok);
      console.info(
        [
          `soak: ${samples.length} requests in ${elapsed.toFixed(1)} s (${(samples.length / elapsed).toFixed(1)} req/s, target ${RATE}) on 2 processes, ${errors.length} errors`,
          `  all        ${summary(samples)}`,
          ...procs.map((_, i) => `  process ${i}  ${summary(samples.filter((s) => s.proc === i))}`),
          ...MIX.map(([, kind]) => `  ${kind.padEnd(22)} ${summary(samples.filter((s) => s.kind === kind))}`),
          `  events: ${written.length} InstanceUpdated × ${sockets.length} sockets, ${crossed} deliveries crossed processes, ${missing.reduce((a, b) => a + b, 0)} missing`,
        ].join('\n'),
      );
      expect(errors.slice(0, 10).map((e) => `${e.kind} on ${e.proc}: ${e.detail ?? ''}`)).toEqual([]);
      expect(samples).toHaveLength(total);
      expect(missing).toEqual(sockets.map(() => 0));
      expect(crossed).toBe(written.length * SOCKETS_PER_PROCESS);
      // The load kept its rate: the run took about as long as scheduled.
      expect(elapsed).toBeLessThan(SECONDS + TIMEOUT_MS / 1000 + 5);
      const p99 = percentile(
        samples.map((s) => s.latency).sort((a, b) => a - b),
        99,
      );
      expect(p99).toBeLessThan(TIMEOUT_MS);
    },
    (SECONDS + 120) * 1000,
  );
});
