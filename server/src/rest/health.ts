import { sql } from 'kysely';
import { unavailable } from '../errors';
import type { Handler, HandlerDeps } from './types';

export function healthHandlers({ db }: HandlerDeps) {
  const healthLive: Handler<'healthLive'> = async () => ({ status: 'ok' });
  const healthReady: Handler<'healthReady'> = async () => {
    try {
      await sql`select 1`.execute(db);
    } catch {
      throw unavailable();
    }
    return { status: 'ok', database: 'ok' };
  };
  return { healthLive, healthReady };
}
