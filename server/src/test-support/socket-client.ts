import { WebSocket } from 'ws';
import { encodeClientFrame } from '../../../src/domain/socket-codec';
import type { App } from '../app';

/**
 * A socket client for tests (contracts/socket.md §1): a single-use ticket from
 * `POST /api/auth/socket-ticket`, then the socket with it. The session token never goes in the URL.
 */

/** A ticket from an app in this process (`authorization`: `Bearer <token>`). */
export async function socketTicket(app: App, authorization: string): Promise<string> {
  const response = await app.fastify.inject({
    method: 'POST',
    url: '/api/auth/socket-ticket',
    headers: { authorization },
  });
  if (response.statusCode !== 200) throw new Error(`socket ticket: ${response.statusCode} ${response.body}`);
  return response.json<{ ticket: string }>().ticket;
}

/** A ticket from a server over HTTP (`base`: `http://host:port`). */
export async function socketTicketOver(base: string, token: string): Promise<string> {
  const response = await fetch(`${base}/api/auth/socket-ticket`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
  });
  if (response.status !== 200) throw new Error(`socket ticket: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { ticket: string }).ticket;
}

/** The socket query of §1.1. */
export function socketQuery(tenantName: string, userId: number, ticket: string): string {
  return new URLSearchParams({ tenantName, userId: String(userId), ticket }).toString();
}

/** Opens `${wsBase}?${query}` (`wsBase`: `ws://host:port/ws`); resolves once the upgrade is done. */
export function openSocket(wsBase: string, query: string, options: { autoPong?: boolean } = {}): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${wsBase}?${query}`, options);
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
  });
}

/** Resolves with the close code and reason. */
export function closedWith(ws: WebSocket): Promise<{ code: number; reason: string }> {
  return new Promise((resolve) => ws.once('close', (code, reason) => resolve({ code, reason: reason.toString() })));
}

/** Pings and waits for the pong: admission (ticket, session and tenant checks) is over. */
export async function admitted(ws: WebSocket, tenantName: string, userId: number): Promise<void> {
  const pong = new Promise<void>((resolve, reject) => {
    ws.once('message', () => resolve());
    ws.once('close', (code, reason) => reject(new Error(`closed ${code} ${reason.toString()} before admission`)));
  });
  ws.send(encodeClientFrame({ event: 'ping', tenantName, userId }));
  await pong;
}
