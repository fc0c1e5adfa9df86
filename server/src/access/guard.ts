import { forbidden, unauthenticated } from '../base/domain-error';
import type { Actor, Caller } from './caller';
import { holdsAny } from './permissions';
import { POLICIES, type Policy, type ServiceName, type UserPolicy } from './policies';
import { isBroken } from '../base/broken-promises';

/**
 * The check every service operation runs first (./policies.ts), and the early filters of the REST and
 * GraphQL doors run before they read a request's input. Refusals are domain errors: `unauthenticated`
 * for nobody signed in where a user is needed, `forbidden` naming the permissions that would allow it.
 */
export function authorize(caller: Caller, policy: Policy, args: readonly unknown[] = []): void {
  if (policy.caller === 'anyone') return;
  if (policy.caller === 'server') {
    if (caller.kind !== 'server') throw forbidden([], 'only the server itself runs this');
    return;
  }
  if (caller.kind === 'anonymous') throw unauthenticated();
  if (caller.kind !== 'user') throw forbidden(policy.anyOf, 'this operation needs a signed-in user');
  admit(caller, policy, args);
}

/**
 * A door's early filter (server/src/plugins/auth.ts, server/src/graphql/index.ts), before it reads the
 * request's input: the policy without its tenant argument, which the door checks its own way (the
 * `tenantName` it resolves, the tenant of a GraphQL path) and the service checks again.
 */
export function precheck(caller: Caller, policy: Policy): void {
  if (policy.caller !== 'user') return authorize(caller, policy);
  if (caller.kind === 'anonymous') throw unauthenticated();
  if (caller.kind !== 'user') throw forbidden(policy.anyOf, 'this operation needs a signed-in user');
  admit(caller, { ...policy, tenantArg: undefined }, []);
}

/** The user part of a policy: permissions (unless the method serves the caller's own record), staff, tenant. */
function admit(actor: Actor, policy: UserPolicy, args: readonly unknown[]): void {
  if (!holdsAny(actor, policy.anyOf) && policy.selfService === undefined) throw forbidden(policy.anyOf);
  if (policy.staffOnly && !actor.originBackoffice) throw forbidden(policy.anyOf, 'only back-office staff may do this');
  if (policy.tenantArg !== undefined) {
    const tenant = args[policy.tenantArg] as { id?: unknown } | undefined;
    if (typeof tenant?.id !== 'number') throw new Error('access: the policy names a tenant argument the call lacks');
    if (!actor.originBackoffice && tenant.id !== actor.tenantId) throw forbidden([], 'this tenant is not yours');
  }
}

type Method = (caller: never, ...args: never[]) => unknown;

/** The methods of a service whose policies ./policies.ts lists under `name`: exactly those, no more. */
type Guardable<N extends ServiceName> = { readonly [K in keyof (typeof POLICIES)[N]]: Method };

/**
 * Builds a service from its methods, each checking its policy before it runs. Deny by default: a
 * method without a policy, or a policy without a method, stops the build (and so the server's start),
 * and a method that is not async is refused too, so a refusal is always a rejected promise, never a
 * throw at the call site.
 */
export function guardService<N extends ServiceName, T extends Guardable<N>>(
  name: N,
  methods: T & Record<Exclude<keyof T, keyof (typeof POLICIES)[N]>, never>,
): T {
  const policies = POLICIES[name] as Readonly<Record<string, Policy>>;
  const guarded: Record<string, unknown> = {};
  for (const [method, implementation] of Object.entries(methods as Record<string, unknown>)) {
    const policy = policies[method];
    if (!policy)
      throw new Error(`access: ${name}.${method} has no policy in server/src/access/policies.ts (deny by default)`);
    if (typeof implementation !== 'function' || implementation.constructor.name !== 'AsyncFunction')
      throw new Error(`access: ${name}.${method} must be an async function (a refusal is a rejected promise)`);
    const run = implementation as (caller: Caller, ...args: unknown[]) => Promise<unknown>;
    guarded[method] = async (caller: Caller, ...args: unknown[]) => {
      if (!(isBroken('permission-check-skipped') && name === 'departments' && method === 'list'))
        authorize(caller, policy, args);
      return run(caller, ...args);
    };
  }
  for (const method of Object.keys(policies))
    if (!(method in guarded))
      throw new Error(`access: server/src/access/policies.ts names ${name}.${method}, which the service lacks`);
  return guarded as T;
}
