import type { FetchLike } from '../../api/auth-middleware';
import { createGraphqlClient } from '../../api/graphql-client';
import { createRestClient } from '../../api/create-rest-client';
import type { RealtimeInput } from '../realtime/realtime';
import type { CreateSocket } from '../realtime/socket-actors';
import { createAppBus } from '../shared/app-bus';

/**
 * The realtime side's input as the composition root builds it (src/app/app-services.ts), over one
 * fetch: the REST and GraphQL clients at `http://api.test`, the page's window, a bus of its own and the
 * sockets the test makes (socket-fakes.ts `fakeSockets().create`).
 */
export function realtimeTestInput(options: {
  fetch: FetchLike;
  tenant: string;
  createSocket: CreateSocket;
}): RealtimeInput {
  const { execute } = createGraphqlClient({
    url: () => `http://api.test/${options.tenant}/graphql`,
    fetch: options.fetch,
  });
  return {
    window,
    bus: createAppBus(),
    execute,
    executeIfFresh: execute,
    rest: createRestClient({ baseUrl: 'http://api.test', fetch: options.fetch }),
    socketUrl: '/ws',
    tenant: () => options.tenant,
    createSocket: options.createSocket,
  };
}
