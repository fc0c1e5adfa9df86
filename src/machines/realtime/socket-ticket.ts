import { unwrap, type RestClient } from '../../api/rest-client';
import type { SessionActor } from '../session/session.machine';
import type { SocketTicket } from './socket.machine';

/**
 * The socket's ticket source (contracts/socket.md §1.1): `POST /api/auth/socket-ticket` through the
 * session's REST client, so an expired token is refreshed first and a 401 refreshes and retries once
 * (docs/product.md, Sessions), and a refused refresh ends the session. The ticket comes back with the
 * session's token of that moment, which a later 4401 refers to (realtime.ts).
 */
export function socketTicketSource(rest: RestClient, session: SessionActor): () => Promise<SocketTicket> {
  return async () => {
    const { ticket } = unwrap(await rest.POST('/api/auth/socket-ticket'));
    return { ticket, token: session.getSnapshot().context.token };
  };
}
