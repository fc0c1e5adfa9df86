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

describe('the socket probe facing a hostile server', () => {
  it('cuts off a server that floods frames, within the step timeout', async () => {
    const flood = MAX_FRAMES * 5;
    const url = await socketServer((socket) => {
      for (let i = 0; i < flood && socket.readyState === WebSocket.OPEN; i += 1) socket.send(frame(i));
    });
    // A step timeout far beyond what the cut-off needs, so that only the cut-off can end the wait: the
    // wait must end because the kit closed the socket after MAX_FRAMES, not because the step timed out
    // (without the cut-off, every frame re-scanned every frame so far and the step always timed out).
    // The proof is the reason, not a clock: CPU or wall time in a worker shared with other test files
    // (vitest.config.ts, `isolate: false`) counts their leftovers too.
    // The handshake's bound too: the server's flood runs in this thread right after the upgrade, so on a
    // loaded machine the client reads the upgrade's answer only seconds later (it timed out at 3 s).
    const probe = new Probe(openSocket(url, 60_000), 't', 1, 60_000);
    // A waiter that never finds its frame, as a check waiting for an event the server does not send.
    await expect(probe.event((e) => e.event === 'AuditRecorded', 'an audit event')).rejects.toThrow(
      /an audit event: the server closed the socket/,
    );
    expect(probe.envelopes.length).toBeLessThanOrEqual(MAX_FRAMES);
    expect(probe.frameProblems).toContain(`more than ${MAX_FRAMES} frames: the kit stopped reading this socket`);
    await probe.end();
  }, 90_000);

  it('closes on a frame larger than it reads, without holding it', async () => {
    const url = await socketServer((socket) => socket.send('A'.repeat(MAX_SERVER_FRAME + 4)));
    const probe = new Probe(openSocket(url, 3_000), 't', 1, 3_000);
    await probe.closedBy('the huge frame');
    expect(probe.error).toMatch(/max payload size exceeded/i);
    expect(probe.received).toBe(0);
  });
});
