import type { AddressInfo } from 'node:net';
import { WebSocket, WebSocketServer } from 'ws';
import { MAX_FRAMES, MAX_SERVER_FRAME, Probe, openSocket } from './checks-socket.js';

/**
 * The socket group's probe (./checks-socket.ts) facing a hostile server: a flood of frames or one huge
 * frame ends that socket with a problem within the per-step timeout, instead of stalling the run (each
 * frame wakes the waiters, which look through every frame so far) or filling its memory.
 */

const servers: WebSocketServer[] = [];

async function socketServer(onConnection: (socket: WebSocket) => void): Promise<string> {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  servers.push(server);
  server.on('connection', onConnection);
  await new Promise<void>((resolve) => server.on('listening', resolve));
  return `ws://127.0.0.1:${(server.address() as AddressInfo).port}/ws`;
}

afterEach(async () => {
  for (const server of servers.splice(0)) {
    for (const client of server.clients) client.terminate();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** A valid server frame (§2.2): the base64 of the UTF-8 JSON envelope. */
const frame = (n: number): string =>
  Buffer.from(
    JSON.stringify({
      event: 'ping',
      data: { message: 'pong', serverTime: new Date().toISOString(), n },
      tenantName: 't',
      sentAt: new Date().toISOString(),
    }),
  ).toString('base64');

/** CPU time of this thread (Node 24 and 26 have `process.threadCpuUsage`; the installed types predate it). */
const threadCpu = (previous?: NodeJS.CpuUsage): NodeJS.CpuUsage =>
  (process as NodeJS.Process & { threadCpuUsage(previous?: NodeJS.CpuUsage): NodeJS.CpuUsage }).threadCpuUsage(
    previous,
  );

describe('the socket probe facing a hostile server', () => {
  it('cuts off a server that floods frames, within the step timeout', async () => {
    const flood = MAX_FRAMES * 5;
    const url = await socketServer((socket) => {
      for (let i = 0; i < flood && socket.readyState === WebSocket.OPEN; i += 1) socket.send(frame(i));
    });
    const probe = new Probe(openSocket(url, 3_000), 't', 1, 3_000);
    const cpuBefore = threadCpu();
    // A waiter that never finds its frame, as a check waiting for an event the server does not send.
    await expect(probe.event((e) => e.event === 'AuditRecorded', 'an audit event')).rejects.toThrow();
    // The work the flood cost this process, in CPU time rather than wall time (which other processes on
    // a busy machine stretch): reading stopped after MAX_FRAMES, so it stays far below the step timeout
    // (server and probe share this thread; without the cut-off it was the quadratic re-scan of every frame).
    // This thread's time only: the process's would count the other test files the pool runs beside it.
    const cpu = threadCpu(cpuBefore);
    expect((cpu.user + cpu.system) / 1000).toBeLessThan(3_000);
    expect(probe.envelopes.length).toBeLessThanOrEqual(MAX_FRAMES);
    expect(probe.frameProblems).toContain(`more than ${MAX_FRAMES} frames: the kit stopped reading this socket`);
    await probe.end();
  }, 20_000);

  it('closes on a frame larger than it reads, without holding it', async () => {
    const url = await socketServer((socket) => socket.send('A'.repeat(MAX_SERVER_FRAME + 4)));
    const probe = new Probe(openSocket(url, 3_000), 't', 1, 3_000);
    await probe.closedBy('the huge frame');
    expect(probe.error).toMatch(/max payload size exceeded/i);
    expect(probe.received).toBe(0);
  });
});
