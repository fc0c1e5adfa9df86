import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { WebSocket } from 'ws';
import { decodeServerFrame, encodeClientFrame } from '../../src/domain/socket-codec';
import { DEMO_PASSWORD } from './tooling/seed';
import { startThrowawayPostgres, type ThrowawayPostgres } from './test-support/postgres';
import { closedWith, socketQuery, socketTicketOver } from './test-support/socket-client';

/**
 * Scale-out (docs/product.md, Availability): two real server processes (`server/src/main.ts`, as `npm start` runs it) on one
 * PostgreSQL act as one. An `InstanceUpdated` caused through process A reaches a socket on process B;
 * a socket ticket asked of A is used once, on either; a tenant renamed or deleted through A and a logout
 * on A close the sockets concerned on B.
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

/** A socket on `base` with a ticket asked of `ticketFrom` (default `base`), not yet admitted. */
async function rawSocketOn(
  base: string,
  tenantName: string,
  session: { token: string; userId: number },
  ticketFrom = base,
): Promise<WebSocket> {
  const ticket = await socketTicketOver(ticketFrom, session.token);
  const ws = new WebSocket(`${base.replace('http', 'ws')}/ws?${socketQuery(tenantName, session.userId, ticket)}`);
  await once(ws, 'open');
  return ws;
}

/** A socket on `base`, admitted (its ping answered), recording the events it receives. */
async function socketOn(
  base: string,
  tenantName: string,
  session: { token: string; userId: number },
  ticketFrom = base,
) {
  const ticket = await socketTicketOver(ticketFrom, session.token);
  const ws = new WebSocket(`${base.replace('http', 'ws')}/ws?${socketQuery(tenantName, session.userId, ticket)}`);
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

  it('a ticket asked of A opens one socket on B, and not a second one on A', async () => {
    const [a, b] = procs;
    if (!a || !b) throw new Error('servers did not start');
    const session = await login(a.base);
    const ticket = await socketTicketOver(a.base, session.token);
    const query = socketQuery('backoffice', session.userId, ticket);
    const onB = new WebSocket(`${b.base.replace('http', 'ws')}/ws?${query}`);
    const pong = new Promise<string>((resolve) => onB.once('message', (raw) => resolve(raw.toString())));
    await once(onB, 'open');
    onB.send(encodeClientFrame({ event: 'ping', tenantName: 'backoffice', userId: session.userId }));
    const answer = decodeServerFrame(await pong);
    expect(answer.ok && answer.event.name).toBe('ping');
    const onA = new WebSocket(`${a.base.replace('http', 'ws')}/ws?${query}`);
    await once(onA, 'open');
    expect(await closedWith(onA)).toEqual({ code: 4401, reason: 'Unauthorized' });
    onB.close();
  });

  it('a tenant renamed through A closes the sockets watching it on B with 4000, and deleted, with 4403', async () => {
    const [a, b] = procs;
    if (!a || !b) throw new Error('servers did not start');
    const session = await login(a.base);
    const headers = { 'content-type': 'application/json', authorization: `Bearer ${session.token}` };
    const created = await fetch(`${a.base}/api/tenant`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        name: 'cluster-renomear',
        cnpj: '11.222.333/0001-81',
        features: ['chat'],
        template: 'pharmacy',
        pool: 'pool-a',
        userLimit: 5,
        plan: 'starter',
        ticketLimit: 100,
      }),
    });
    expect(created.status).toBe(201);
    const tenant = (await created.json()) as { id: number; name: string };
    const watching = await socketOn(b.base, tenant.name, session, a.base);
    const home = await socketOn(b.base, 'backoffice', session, a.base);
    const renamedClosed = closedWith(watching.ws);
    const renamed = await fetch(`${a.base}/api/tenant/update`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        id: tenant.id,
        name: 'cluster-renomeada',
        cnpj: '11.222.333/0001-81',
        template: 'pharmacy',
        pool: 'pool-a',
      }),
    });
    expect(renamed.status).toBe(200);
    expect(await renamedClosed).toEqual({ code: 4000, reason: 'Tenant renamed' });
    const again = await socketOn(b.base, 'cluster-renomeada', session, a.base);
    const deletedClosed = closedWith(again.ws);
    const deleted = await fetch(`${a.base}/api/tenant/delete`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ id: tenant.id }),
    });
    expect(deleted.status).toBe(200);
    expect(await deletedClosed).toEqual({ code: 4403, reason: 'Tenant deleted' });
    expect(home.ws.readyState).toBe(WebSocket.OPEN);
    const refused = await rawSocketOn(b.base, 'cluster-renomeada', session, a.base);
    expect(await closedWith(refused)).toEqual({ code: 4403, reason: 'Forbidden' });
    home.ws.close();
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
