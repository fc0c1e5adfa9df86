import type { Kysely } from 'kysely';
import { TokenService } from '../auth/tokens';
import { loadConfig } from '../base/config';
import { DomainError } from '../base/domain-error';
import { EventBus } from '../base/events';
import type { Database } from '../db/schema';
import { createServices, type Services } from '../services';
import { openTestDatabase } from '../test-support/database';
import { anonymous, serverCaller, type Actor, type Caller } from './caller';
import { authorize, guardService } from './guard';
import { PERMISSION_ROUTES } from './permissions';
import { POLICIES, type Policy, type ServiceName } from './policies';

/**
 * Deny by default (docs/security.md, Who may do what): every method of every service checks its policy
 * before it reads a single argument, whichever adapter calls it. These tests call the services directly,
 * as no door would, with callers that lack what each policy asks, and expect a refusal every time.
 */

let db: Kysely<Database>;
let close: () => Promise<void>;
let services: Services;

beforeAll(async () => {
  process.env.LOG_LEVEL = 'silent';
  const database = await openTestDatabase();
  db = database.db;
  close = database.close;
  const config = loadConfig({ databaseUrl: 'pglite://memory' });
  const tokens = new TokenService(db, config);
  await tokens.init();
  services = createServices({ db, config, tokens, events: new EventBus() });
});

afterAll(async () => close());

const claims = { sub: '999', fam: 'f', jti: 'j', tv: 0, rxp: 0, iat: 0, exp: 0 };
const ORIGIN = { requestId: 'test', address: '127.0.0.1' };

function actor(over: Partial<Actor> = {}): Actor {
  return {
    kind: 'user',
    userId: 999_999,
    tenantId: 999_998,
    tenantName: 'no-such-tenant',
    roleId: 999_997,
    role: 'nobody',
    originBackoffice: false,
    permissions: new Set(),
    claims,
    origin: ORIGIN,
    ...over,
  };
}

/** Every service operation with its policy, as (service, method, policy). */
const OPERATIONS = (Object.entries(POLICIES) as [ServiceName, Readonly<Record<string, Policy>>][]).flatMap(
  ([service, methods]) => Object.entries(methods).map(([method, policy]) => ({ service, method, policy })),
);

/** Calls a service method with a caller and arguments nobody would send: the policy must refuse first. */
async function call(service: ServiceName, method: string, caller: Caller, args: unknown[]): Promise<unknown> {
  const target = (services as unknown as Record<string, Record<string, (...a: unknown[]) => Promise<unknown>>>)[
    service
  ]?.[method];
  if (!target) throw new Error(`no service method ${service}.${method}`);
  return target(caller, ...args);
}

/** What a refused call gives: the domain error's kind, or what went wrong instead. */
async function refusal(run: () => Promise<unknown>): Promise<string> {
  try {
    await run();
    return 'allowed';
  } catch (error) {
    return error instanceof DomainError ? error.kind : `threw ${String(error)}`;
  }
}

/** Poison arguments: reading any of them throws, so a method that looked at its input before its policy fails the test. */
const POISON = new Proxy(
  {},
  {
    get(_target, key) {
      if (key === 'then') return undefined;
      throw new Error(`argument read before the policy: ${String(key)}`);
    },
  },
);

describe('every service method refuses a caller its policy does not admit', () => {
  it('covers every service the app builds, and every method of each', () => {
    expect(Object.keys(services).sort()).toEqual(Object.keys(POLICIES).sort());
    for (const [service, methods] of Object.entries(services))
      expect(Object.keys(methods).sort(), service).toEqual(Object.keys(POLICIES[service as ServiceName]).sort());
  });

  it.each(OPERATIONS.filter((o) => o.policy.caller !== 'anyone').map((o) => [`${o.service}.${o.method}`, o]))(
    '%s: nobody signed in is refused before anything is read',
    async (_name, { service, method, policy }) => {
      const kind = await refusal(() => call(service, method, anonymous(ORIGIN), [POISON, POISON, POISON]));
      expect(kind).toBe(policy.caller === 'server' ? 'forbidden' : 'unauthenticated');
    },
  );

  it.each(
    OPERATIONS.filter(
      (o) => o.policy.caller === 'user' && o.policy.anyOf.length > 0 && o.policy.selfService === undefined,
    ).map((o) => [`${o.service}.${o.method}`, o]),
  )('%s: a user without the permission is refused before anything is read', async (_name, { service, method }) => {
    // Every permission but the ones the policy names: holding others never helps.
    const policy = POLICIES[service][method as never] as Policy;
    const named = policy.caller === 'user' ? policy.anyOf : [];
    const others = new Set<string>(PERMISSION_ROUTES.filter((route) => !named.includes(route)));
    for (const staff of [false, true]) {
      const kind = await refusal(() =>
        call(service, method, actor({ permissions: others, originBackoffice: staff }), [POISON, POISON, POISON]),
      );
      expect(kind, `staff ${staff}`).toBe('forbidden');
    }
  });

  it.each(
    OPERATIONS.filter((o) => o.policy.caller === 'user' && o.policy.staffOnly).map((o) => [
      `${o.service}.${o.method}`,
      o,
    ]),
  )('%s: a customer holding every permission, administrador included, is refused (staff only)', async (_n, o) => {
    for (const role of ['nobody', 'administrador']) {
      const customer = actor({ role, permissions: new Set(PERMISSION_ROUTES), originBackoffice: false });
      expect(await refusal(() => call(o.service, o.method, customer, [POISON, POISON, POISON]))).toBe('forbidden');
    }
  });

  it.each(
    OPERATIONS.filter((o) => o.policy.caller === 'user' && o.policy.tenantArg !== undefined).map((o) => [
      `${o.service}.${o.method}`,
      o,
    ]),
  )("%s: another tenant's record is refused to a customer, before anything else is read", async (_n, o) => {
    const policy = o.policy as Extract<Policy, { caller: 'user' }>;
    const args: unknown[] = [POISON, POISON, POISON];
    args[policy.tenantArg ?? 0] = { id: 1, name: 'someone-else' };
    const customer = actor({ role: 'administrador', permissions: new Set(PERMISSION_ROUTES) });
    expect(await refusal(() => call(o.service, o.method, customer, args))).toBe('forbidden');
  });

  it.each(OPERATIONS.filter((o) => o.policy.caller === 'user').map((o) => [`${o.service}.${o.method}`, o]))(
    "%s: the server's own caller is not a user",
    async (_n, o) => {
      expect(await refusal(() => call(o.service, o.method, serverCaller('test'), [POISON, POISON, POISON]))).toBe(
        'forbidden',
      );
    },
  );
});

describe('guardService: deny by default when building', () => {
  it('refuses a method with no policy (the server does not start)', () => {
    const methods = { ...Object.fromEntries(Object.keys(POLICIES.health).map((m) => [m, async () => true])) };
    expect(() =>
      guardService('health', { ...methods, unpoliced: async () => true } as unknown as Parameters<
        typeof guardService<'health', { databaseReachable: () => Promise<boolean> }>
      >[1]),
    ).toThrow(/health\.unpoliced has no policy/);
  });

  it('refuses a policy whose method the service lacks', () => {
    expect(() => guardService('health', {} as never)).toThrow(/names health\.databaseReachable/);
  });

  it('refuses a method that is not async, so a refusal is never thrown at the call site', () => {
    expect(() =>
      guardService('health', { databaseReachable: (() => Promise.resolve(true)) as never } as never),
    ).toThrow(/must be an async function/);
  });
});

describe('authorize', () => {
  const usersOnly: Policy = { caller: 'user', anyOf: ['users'] };

  it('lets administrador through every permission, and nobody through staff-only unless staff', () => {
    expect(() => authorize(actor({ role: 'administrador' }), usersOnly)).not.toThrow();
    const staffOnly: Policy = { caller: 'user', anyOf: ['tenants'], staffOnly: true };
    expect(() => authorize(actor({ role: 'administrador' }), staffOnly)).toThrow(/staff/);
    expect(() =>
      authorize(actor({ permissions: new Set(['tenants']), originBackoffice: true }), staffOnly),
    ).not.toThrow();
  });

  it('admits a self-service caller without the permission: the method applies its own rule', () => {
    expect(() => authorize(actor(), { ...usersOnly, selfService: 'own record' })).not.toThrow();
    expect(() => authorize(actor(), usersOnly)).toThrow(DomainError);
  });
});
