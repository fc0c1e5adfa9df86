import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { WebSocket } from 'ws';
import { decodeServerFrame, encodeClientFrame } from '../../src/domain/socket-codec';
import { DEMO_PASSWORD } from './tooling/seed';
import { startThrowawayPostgres, type ThrowawayPostgres } from './test-support/postgres';

/**
 * Scale-out (docs/product.md, Availability): two real server processes (`server/src/main.ts`, as `npm start` runs it) on one
 * PostgreSQL act as one. An `InstanceUpdated` caused through process A reaches a socket on process B;
 * a logout on A closes that session's socket on B.
 */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const MAIN = fileURLToPath(new URL('./main.ts', import.meta.url));

interface Proc {
  child: ChildProcess;
  base: string;
  output: string[];
}

let database: ThrowawayPostgres;
const procs: Proc[] = [];

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** Starts `main.ts` and resolves once it prints its URL (migrated, seeded if asked, listening). */
async function startServer(url: string, seed: boolean): Promise<Proc> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATABASE_URL: url,
      PORT: String(port),
      HOST: '127.0.0.1',
      SEED_DEMO: seed ? '1' : '0',
      LOG_LEVEL: 'warn',
      NODE_ENV: 'test',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const proc: Proc = { child, base: `http://127.0.0.1:${port}`, output: [] };
  procs.push(proc);
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      proc.output.push(chunk.toString());
      if (proc.output.join('').includes('Back-office panel:')) resolve();
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (chunk: Buffer) => proc.output.push(chunk.toString()));
    child.once('exit', (code) => reject(new Error(`server exited with ${code}:\n${proc.output.join('')}`)));
  });
  return proc;
}

async function stopServer(proc: Proc): Promise<void> {
  if (proc.child.exitCode !== null) return;
  const exited = once(proc.child, 'exit');
  proc.child.kill('SIGTERM');
  await exited;
}

async function login(base: string): Promise<{ token: string; userId: number }> {
  const response = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'admin@demo.local', password: DEMO_PASSWORD, ip: null }),
  });
  expect(response.status).toBe(200);
  const body = (await response.json()) as { access_token: string; user: { id: number } };
  return { token: body.access_token, userId: body.user.id };
}

/** A socket on `base`, admitted (its ping answered), recording the events it receives. */
async function socketOn(base: string, tenantName: string, session: { token: string; userId: number }) {
  const ws = new WebSocket(
    `${base.replace('http', 'ws')}/ws?tenantName=${tenantName}&userId=${session.userId}&token=${session.token}`,
  );
  const events: { name: string; data: unknown }[] = [];
  let waiter: (() => void) | undefined;
  ws.on('message', (raw) => {
    const decoded = decodeServerFrame(raw.toString());
    if (decoded.ok) events.push({ name: decoded.event.name, data: decoded.event.data });
    waiter?.();
  });
  await once(ws, 'open');
  ws.send(encodeClientFrame({ event: 'ping', tenantName, userId: session.userId }));
  const next = async (match: (e: { name: string; data: unknown }) => boolean) => {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const found = events.find(match);
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no matching event; got ${JSON.stringify(events.map((e) => e.name))}`);
      await new Promise<void>((resolve) => {
        waiter = resolve;
        setTimeout(resolve, 100);
      });
    }
  };
  await next((e) => e.name === 'ping');
  return { ws, events, next };
}

beforeAll(async () => {
  database = await startThrowawayPostgres();
  // A schema of its own, so the processes and this test never touch another suite's data.
  const schema = `cluster_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: database.url });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  const url = new URL(database.url);
  url.searchParams.set('options', `-c search_path=${schema},public`);
  // A migrates and seeds first; B starts on the same, already seeded database.
  await startServer(url.toString(), true);
  await startServer(url.toString(), false);
}, 180_000);

afterAll(async () => {
  await Promise.all(procs.map(stopServer));
  await database?.stop();
});

describe('two server processes on one PostgreSQL', () => {
  it('an InstanceUpdated caused through process A reaches a socket on process B', async () => {
    const [a, b] = procs;
    if (!a || !b) throw new Error('servers did not start');
    const session = await login(a.base);
    const onB = await socketOn(b.base, 'farmacia-central', session);

    const name = `relay-${Date.now()}`;
    const created = await fetch(`${a.base}/api/instance`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${session.token}` },
      body: JSON.stringify({ name, tenantName: 'farmacia-central', isOfficial: false, isUnlimited: false }),
    });
    expect(created.status).toBe(201);
    const event = await onB.next((e) => e.name === 'instanceUpdated' && (e.data as { name?: string }).name === name);
    expect(event.data).toMatchObject({ name, tenantName: 'farmacia-central', status: 'idle' });
    onB.ws.close();
  });

  it("a logout on process A closes that session's socket on process B with 4401", async () => {
    const [a, b] = procs;
    if (!a || !b) throw new Error('servers did not start');
    const session = await login(b.base);
    const onB = await socketOn(b.base, 'backoffice', session);
    const closed = once(onB.ws, 'close');
    const logout = await fetch(`${a.base}/api/auth/logout`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${session.token}` },
      body: JSON.stringify({ data: { email: 'admin@demo.local' }, ip: null }),
    });
    expect(logout.status).toBe(200);
    const [code] = (await closed) as [number];
    expect(code).toBe(4401);
  });
});
