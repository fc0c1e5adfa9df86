import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { once } from 'node:events';
import type { AddressInfo, Socket } from 'node:net';
import { verifySignature } from '../webhooks/signature';

/**
 * A webhook receiver for tests (docs/webhooks.md): an HTTP server on 127.0.0.1 that checks every
 * request's signature as the docs' snippet does, records what arrived, and answers as the test says:
 * by default 200; `plan(...)` queues answers for the next requests (500, 429 with Retry-After, 400, 301,
 * a hang until the sender gives up, a closed socket), `fallback` answers the rest.
 */
export type ReceiverAnswer =
  | { status: number; body?: string; headers?: Record<string, string> }
  | { hang: true }
  | { close: true }
  | { delayMs: number; status: number };

export interface Arrival {
  id: string;
  attempt: number;
  timestamp: number;
  signature: string;
  body: string;
  /** Whether one of the signature's `v1` values verified under each secret the receiver knows. */
  verified: boolean[];
  headers: IncomingMessage['headers'];
  receivedAt: number;
}

export interface WebhookReceiver {
  url: string;
  port: number;
  arrivals: Arrival[];
  /** The secrets signatures are checked with (set them after creating the endpoint). */
  secrets: string[];
  /** Answers for the next requests, in order. */
  plan(...answers: ReceiverAnswer[]): void;
  /** The answer once the plan is used up (default 200). */
  fallback: ReceiverAnswer;
  /** Distinct idempotency keys that arrived. */
  keys(): Set<string>;
  /** Resolves once `count` requests arrived. */
  waitFor(count: number): Promise<void>;
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const queue: ReceiverAnswer[] = [];
  const sockets = new Set<Socket>();
  const waiters: { count: number; resolve: () => void }[] = [];
  const receiver: WebhookReceiver = {
    url: '',
    port: 0,
    arrivals: [],
    secrets: [],
    fallback: { status: 200, body: 'ok' },
    plan: (...answers) => void queue.push(...answers),
    keys: () => new Set(receiver.arrivals.map((a) => a.id)),
    waitFor: (count) =>
      receiver.arrivals.length >= count
        ? Promise.resolve()
        : new Promise((resolve) => waiters.push({ count, resolve })),
    close: async () => {
      for (const socket of sockets) socket.destroy();
      server.close();
      await once(server, 'close');
    },
  };

  const answer = (res: ServerResponse, how: ReceiverAnswer) => {
    if ('hang' in how) return;
    if ('close' in how) return void res.socket?.destroy();
    if ('delayMs' in how) {
      setTimeout(() => answer(res, { status: how.status }), how.delayMs);
      return;
    }
    res.writeHead(how.status, { 'content-type': 'text/plain; charset=utf-8', ...how.headers });
    res.end(how.body ?? '');
  };

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const signature = String(req.headers['webhook-signature'] ?? '');
      receiver.arrivals.push({
        id: String(req.headers['webhook-id'] ?? ''),
        attempt: Number(req.headers['webhook-attempt']),
        timestamp: Number(req.headers['webhook-timestamp']),
        signature,
        body,
        verified: receiver.secrets.map((secret) => verifySignature(signature, body, secret)),
        headers: req.headers,
        receivedAt: Date.now(),
      });
      for (const waiter of [...waiters])
        if (receiver.arrivals.length >= waiter.count) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve();
        }
      answer(res, queue.shift() ?? receiver.fallback);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  receiver.port = (server.address() as AddressInfo).port;
  receiver.url = `http://127.0.0.1:${String(receiver.port)}/hooks`;
  return receiver;
}
