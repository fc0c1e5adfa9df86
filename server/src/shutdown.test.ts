import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { WebSocket } from 'ws';
import { DEMO_PASSWORD } from './tooling/seed';
import { admitted, socketQuery, socketTicketOver } from './test-support/socket-client';

/**
 * Graceful shutdown. SIGTERM while a CSV sheet is streaming and a socket is open:
 * the download completes (every row, no reset), the socket gets close code 1001, the process exits 0.
 * The server runs in a child process on its own database: @test-lane server (vitest.lanes.ts).
 */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const MAIN = fileURLToPath(new URL('./main.ts', import.meta.url));

let child: ChildProcess;
let base: string;
const output: string[] = [];

beforeAll(async () => {
  child = spawn(process.execPath, ['--import', 'tsx', MAIN], {
    cwd: ROOT,
    // Port 0: the OS picks; the server prints the address it got.
    env: {
      ...process.env,
      DATABASE_URL: 'pglite://memory',
      PORT: '0',
      HOST: '127.0.0.1',
      SEED_DEMO: '1',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  base = await new Promise<string>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      output.push(chunk.toString());
      const match = /Back-office panel: (http:\/\/[\d.]+:\d+)\//.exec(output.join(''));
      if (match?.[1]) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code}:\n${output.join('')}`)));
  });
}, 120_000);

afterAll(() => {
  if (child.exitCode === null) child.kill('SIGKILL');
});

describe('graceful shutdown', () => {
  it('finishes an in-flight CSV download, closes sockets with 1001 and exits 0', async () => {
    const login = await fetch(`${base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@demo.local', password: DEMO_PASSWORD, ip: null }),
    });
    const { access_token: token, user } = (await login.json()) as { access_token: string; user: { id: number } };
    const headers = { authorization: `Bearer ${token}` };
    const query = 'startAt=2026-01-01&finishAt=2026-11-23';
    const { total } = (await (
      await fetch(`${base}/api/tenant/sheets/attendances?${query}&limit=1`, { headers })
    ).json()) as { total: number };
    expect(total).toBeGreaterThan(1000);

    const ticket = await socketTicketOver(base, token);
    const ws = new WebSocket(`${base.replace('http', 'ws')}/ws?${socketQuery('backoffice', user.id, ticket)}`);
    await once(ws, 'open');
    await admitted(ws, 'backoffice', user.id);
    const socketClosed = once(ws, 'close');

    const response = await fetch(`${base}/api/tenant/sheets/attendances?${query}`, {
      headers: { ...headers, accept: 'text/csv' },
    });
    expect(response.status).toBe(200);
    const reader = response.body?.getReader();
    if (!reader) throw new Error('no body');
    const first = await reader.read(); // the stream has started: the request is in flight
    const exited = once(child, 'exit');
    child.kill('SIGTERM');

    const decoder = new TextDecoder();
    let text = decoder.decode(first.value, { stream: true });
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
    // Header line plus one line per row: nothing cut off.
    expect(text.endsWith('\n')).toBe(true);
    expect(text.trimEnd().split('\n')).toHaveLength(total + 1);

    const [code] = (await socketClosed) as [number];
    expect(code).toBe(1001);
    const [exitCode] = (await exited) as [number | null];
    expect(exitCode).toBe(0);
  }, 60_000);
});
