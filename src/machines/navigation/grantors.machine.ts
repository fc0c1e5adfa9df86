import { assign, fromPromise, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import { unwrap, type RestClient } from '../../api/rest-client';
import { ADMIN_ROLE } from '../../domain/route-access';

/** How many of the people who can grant a permission the not-authorized page names. */
export const GRANTORS_SHOWN = 5;

/** One person who can grant a permission: enough to find and write to them. */
export interface Grantor {
  id: number;
  name: string;
  email: string;
}

export interface GrantorsOutput {
  people: Grantor[];
  /** How many there are in all (more than {@link GRANTORS_SHOWN} may exist). */
  total: number;
}

/**
 * The administradores of the caller's tenant, not blocked: the people who can give any permission
 * (docs/product.md, Roles and route permissions: the administrador holds every route and gives any
 * role). GET /api/roles for the role's id, then GET /api/users/page filtered on it; both answer a
 * caller holding `users` (contracts/openapi.yaml `roleList`, `userPage`), the only callers the
 * not-authorized page asks for (docs/panel.md).
 */
export const loadGrantors = fromPromise<GrantorsOutput, { rest: RestClient }>(async ({ input, signal }) => {
  const roles = unwrap(await input.rest.GET('/api/roles', { signal }));
  const admin = roles.find((role) => role.name === ADMIN_ROLE);
  if (admin === undefined) return { people: [], total: 0 };
  const page = unwrap(
    await input.rest.GET('/api/users/page', {
      params: { query: { role: admin.id, blocked: false, sort: 'name', limit: GRANTORS_SHOWN } },
      signal,
    }),
  );
  return { people: page.data.map(({ id, name, email }) => ({ id, name, email })), total: page.total };
});

export interface GrantorsContext {
  rest: RestClient;
  people: Grantor[];
  total: number;
}

/**
 * Who can grant the permission the not-authorized page names, loaded once. States: `loading`,
 * `ready`, `failed` (the page then says only "ask an administrator").
 */
export const grantorsMachine = setup({
  types: {
    context: {} as GrantorsContext,
    input: {} as { rest: RestClient },
  },
  actors: { load: loadGrantors },
}).createMachine({
  id: 'grantors',
  context: ({ input }) => ({ rest: input.rest, people: [], total: 0 }),
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        src: 'load',
        input: ({ context }) => ({ rest: context.rest }),
        onDone: {
          target: 'ready',
          actions: assign({ people: ({ event }) => event.output.people, total: ({ event }) => event.output.total }),
        },
        onError: 'failed',
      },
    },
    ready: {},
    failed: {},
  },
});

export type GrantorsActor = ActorRefFrom<typeof grantorsMachine>;
export type GrantorsSnapshot = SnapshotFrom<typeof grantorsMachine>;
