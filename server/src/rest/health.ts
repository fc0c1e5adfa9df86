import { anonymous } from '../access/caller';
import { unavailable } from '../base/errors';
import type { Handler, HandlerDeps } from './types';
import { isBroken } from '../base/broken-promises';

export function healthHandlers({ services }: HandlerDeps) {
  const healthLive: Handler<'healthLive'> = async () => ({
    status: isBroken('health-wrong-body') ? ('up' as 'ok') : 'ok',
  });
  const healthReady: Handler<'healthReady'> = async () => {
    if (!(await services.health.databaseReachable(anonymous()))) throw unavailable();
    return { status: 'ok', database: 'ok' };
  };
  return { healthLive, healthReady };
}
