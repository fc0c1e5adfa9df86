import type { Actor } from '../access/caller';
import type { Services } from '../services';
import { forbidden, notFound } from '../base/domain-error';
import type { Denial } from '../auth/service';
import { recordingDenials } from './index';
import type { GraphqlContext } from './types';

/**
 * The resolvers' last line (server/src/graphql/index.ts `recordingDenials`): a 403 a domain service gives
 * itself after the request guard let the call through is recorded as `access.denied` too. No contract
 * request reaches it today (the guard's argument checks ask the services' own rules first, see
 * server/src/audit/records-b-sessions.test.ts), so it is driven here with resolvers that refuse.
 */

const auth = { userId: 7, tenantId: 1, tenantName: 'backoffice', origin: { requestId: 'r-1', address: '::1' } };
const context = (who: unknown): GraphqlContext => ({ auth: who, tenant: { id: 1, name: 'backoffice' } }) as never;

function wrap(answer: () => Promise<unknown>) {
  const resolve = (_parent: unknown, _args: never, _ctx: GraphqlContext): Promise<unknown> => answer();
  const denials: { actor: Actor; denial: Denial }[] = [];
  const services = {
    auth: {
      recordDenial: async (actor: Actor, denial: Denial) => {
        denials.push({ actor, denial });
      },
    },
  } as unknown as Services;
  const { refuse } = recordingDenials({ refuse: resolve }, 'mutation', services);
  return { call: (who: unknown) => refuse(null, undefined as never, context(who)), denials };
}

describe('recordingDenials', () => {
  it("records a service's own 403 with the root field and the permissions, then answers it unchanged", async () => {
    const error = forbidden(['users'], 'Forbidden: not yours');
    const { call, denials } = wrap(() => Promise.reject(error));
    await expect(call(auth)).rejects.toBe(error);
    expect(denials).toEqual([
      {
        actor: auth,
        denial: { operation: 'mutation refuse', required: ['users'], reason: 'Forbidden: not yours' },
      },
    ]);
  });

  it('records no reason for the plain message, and nothing for other errors, a caller-less call or success', async () => {
    const plain = wrap(() => Promise.reject(forbidden([])));
    await expect(plain.call(auth)).rejects.toThrow('Forbidden');
    expect(plain.denials.map((d) => d.denial)).toEqual([{ operation: 'mutation refuse', required: [] }]);

    const missing = wrap(() => Promise.reject(notFound('User not found', 'id')));
    await expect(missing.call(auth)).rejects.toThrow('User not found');
    expect(missing.denials).toEqual([]);

    const anonymous = wrap(() => Promise.reject(forbidden(['users'])));
    await expect(anonymous.call(null)).rejects.toThrow('Forbidden');
    expect(anonymous.denials).toEqual([]);

    const fine = wrap(() => Promise.resolve(42));
    await expect(fine.call(auth)).resolves.toBe(42);
    expect(fine.denials).toEqual([]);
  });
});
