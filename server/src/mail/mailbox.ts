import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { parseMessage, type ParsedMessage } from './mime';

/** How many received messages the development mailbox keeps (the oldest go first). */
export const MAILBOX_LIMIT = 200;
/** The largest message the receiver takes (the server's own e-mails are a few kilobytes). */
const MAX_MESSAGE_BYTES = 1024 * 1024;

export interface ReceivedMessage extends ParsedMessage {
  id: number;
  receivedAt: string;
  /** The envelope's recipients, as the SMTP session gave them. */
  recipients: string[];
  raw: string;
}

/**
 * An SMTP receiver on 127.0.0.1 (smtp-server) that keeps what it is sent, in memory: the development
 * server sends its mail here when no SMTP_URL is set, so nothing is silently dropped, and `/dev/mailbox`
 * (./mailbox-page.ts) shows it. Tests start one to receive real e-mails. No authentication and no TLS:
 * it listens on the loopback interface only.
 */
export interface Mailbox {
  host: string;
  port: number;
  messages(): readonly ReceivedMessage[];
  message(id: number): ReceivedMessage | undefined;
  /** Resolves with the next message received (or one already received that `match` accepts). */
  next(match?: (message: ReceivedMessage) => boolean, timeoutMs?: number): Promise<ReceivedMessage>;
  close(): Promise<void>;
}

export async function startMailbox(options: { port?: number } = {}): Promise<Mailbox> {
  const received: ReceivedMessage[] = [];
  const waiters = new Set<(message: ReceivedMessage) => boolean>();
  let nextId = 1;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    logger: false,
    size: MAX_MESSAGE_BYTES,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        if (stream.sizeExceeded) {
          callback(Object.assign(new Error('Message too large'), { responseCode: 552 }));
          return;
        }
        const raw = Buffer.concat(chunks).toString('utf8');
        const message: ReceivedMessage = {
          id: nextId++,
          receivedAt: new Date().toISOString(),
          recipients: session.envelope.rcptTo.map((r) => r.address),
          raw,
          ...parseMessage(raw),
        };
        received.push(message);
        if (received.length > MAILBOX_LIMIT) received.splice(0, received.length - MAILBOX_LIMIT);
        for (const waiter of [...waiters]) if (waiter(message)) waiters.delete(waiter);
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  // Errors after the start (a client dropping mid-session) concern that session only.
  server.on('error', () => undefined);
  const address = server.server.address() as AddressInfo;
  return {
    host: '127.0.0.1',
    port: address.port,
    messages: () => [...received].reverse(),
    message: (id) => received.find((m) => m.id === id),
    next(match = () => true, timeoutMs = 10_000) {
      const already = received.find(match);
      if (already) return Promise.resolve(already);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(waiter);
          reject(new Error(`no message arrived within ${String(timeoutMs)} ms`));
        }, timeoutMs);
        const waiter = (message: ReceivedMessage) => {
          if (!match(message)) return false;
          clearTimeout(timer);
          resolve(message);
          return true;
        };
        waiters.add(waiter);
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
