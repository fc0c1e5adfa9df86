import fc from 'fast-check';
import type { Kysely } from 'kysely';
import { PERMISSION_ROUTES } from '../access/permissions';
import { ADMIN_ROLE, OPERATOR_ROLE } from '../db/catalog';
import type { Database } from '../db/schema';
import { startTestApp, type TestApp } from '../test-support/app';
import { startThrowawayPostgres, type ThrowawayPostgres } from '../test-support/postgres';
import { createTestRole, createTestUser } from '../test-support/users';
import { permittedRoutesOf } from '../db/user-dto';

/**
 * No way up, as a property (docs/security.md, Who may do what): whatever sequence of role and user
 * changes a user who is not administrador sends, through REST and GraphQL mixed, it never ends holding
 * a permission it did not hold, no user it created does, and it never sets the password of a user who
 * held, at any point of the run, a permission it did not hold (taking that account over is holding
 * what it holds: stripping the user's role first must not open the way). Each run starts a fresh actor with a random
 * set of permissions in the back-office (so roles are its to edit when it holds `roles-edit`), on PGlite
 * and on PostgreSQL. Refusals are expected; a 5xx never is.
 */

const ROUTES: string[] = [...PERMISSION_ROUTES];

type Action =
  | { kind: 'createRole' }
  | { kind: 'setPermissions'; role: number; routes: string[]; withinHeld: boolean; graphql: boolean }
  | { kind: 'createUser'; role: number; graphql: boolean }
  | { kind: 'changeRole'; user: number; role: number; graphql: boolean }
  | { kind: 'takeOver'; user: number };

/** Roles and users are picked by index into what exists in the run (modulo its size), so any pick is valid. */
const action: fc.Arbitrary<Action> = fc.oneof(
  fc.constant({ kind: 'createRole' as const }),
  fc.record({
    kind: fc.constant('setPermissions' as const),
    role: fc.nat(),
    routes: fc.subarray(ROUTES),
    // Half the edits keep to what the actor holds: the only ones the rules let through, the way a
    // stripped role would be written.
    withinHeld: fc.boolean(),
    graphql: fc.constant(false),
  }),
  fc.record({ kind: fc.constant('createUser' as const), role: fc.nat(), graphql: fc.boolean() }),
  fc.record({ kind: fc.constant('changeRole' as const), user: fc.nat(), role: fc.nat(), graphql: fc.boolean() }),
  fc.record({ kind: fc.constant('takeOver' as const), user: fc.nat() }),
);

describe.each([
  ['PGlite', false, 60],
  ['PostgreSQL', true, 25],
])('%s', (_label, postgres, runs) => {
  let cluster: ThrowawayPostgres | undefined;
  let t: TestApp;
  let db: Kysely<Database>;
  let run = 0;
  const statuses = new Map<number, number>();

  beforeAll(async () => {
    if (postgres) cluster = await startThrowawayPostgres();
    t = await startTestApp({ seed: { days: 1 }, ...(cluster ? { databaseUrl: cluster.url } : {}) });
    db = t.db;
  });

  afterAll(async () => {
    console.info(
      `no way up (${_label}): ${run} runs, answers ${[...statuses]
        .sort(([a], [b]) => a - b)
        .map(([s, n]) => `${s}×${n}`)
        .join(' ')}`,
    );
    await t?.close();
    await cluster?.stop();
  });

  async function routesOfUser(id: number): Promise<string[]> {
    const row = await db
      .selectFrom('users as u')
      .innerJoin('roles as r', 'r.id', 'u.role_id')
      .select(['r.id', 'r.name'])
      .where('u.id', '=', id)
      .executeTakeFirstOrThrow();
    return permittedRoutesOf(db, row.id, row.name);
  }

  it('a non-administrador never ends, nor makes a user, holding a permission it did not hold', async () => {
    await fc.assert(
      fc.asyncProperty(
        // Half the actors hold `roles-edit` and `users` both: those who could strip a role and then act.
        fc
          .tuple(fc.subarray(ROUTES, { minLength: 1 }), fc.boolean())
          .map(([routes, editor]) => (editor ? [...new Set([...routes, 'roles-edit', 'users'])] : routes)),
        fc.subarray(ROUTES, { minLength: 1 }),
        fc.array(action, { minLength: 1, maxLength: 12 }),
        async (held, victimRoutes, actions) => {
          run += 1;
          const tag = `nwu${run}${Date.now().toString(36)}`;
          const ownRole = await createTestRole(db, `p_${tag}`, held);
          const actor = await createTestUser(db, {
            email: `${tag}@demo.local`,
            tenant: 'backoffice',
            role: `p_${tag}`,
          });
          const { token } = await t.app.tokens.issue(actor.id, 0);
          const headers = { authorization: `Bearer ${token}` };
          const builtIn = await db
            .selectFrom('roles')
            .select('id')
            .where('name', 'in', [ADMIN_ROLE, OPERATOR_ROLE])
            .execute();
          // A role the actor did not make, with random routes, and a user holding it: one it may strip,
          // re-role or take over only as the rules allow.
          const victimRole = await createTestRole(db, `v_${tag}`, victimRoutes);
          const victim = await createTestUser(db, {
            email: `v-${tag}@demo.local`,
            tenant: 'backoffice',
            role: `v_${tag}`,
          });
          const roles = [ownRole, ...builtIn.map((r) => r.id), victimRole];
          // A user the actor did not create, holding what `operador` holds now: one it may or may not act on.
          const bystander = await createTestUser(db, { email: `by-${tag}@demo.local`, tenant: 'backoffice' });
          const users = [actor.id, bystander.id, victim.id];
          // Every route each user held at any point of the run.
          const everHeld = new Map<number, Set<string>>();
          const noteHoldings = async () => {
            for (const id of users) {
              const routes = everHeld.get(id) ?? new Set<string>();
              for (const route of await routesOfUser(id)) routes.add(route);
              everHeld.set(id, routes);
            }
          };
          await noteHoldings();
          const created: number[] = [];
          let n = 0;

          for (const step of actions) {
            n += 1;
            let status: number;
            if (step.kind === 'createRole') {
              const answer = await t.app.fastify.inject({
                method: 'POST',
                url: '/api/roles',
                headers,
                payload: { name: `r_${tag}_${n}`, display_name: `R ${n}` },
              });
              status = answer.statusCode;
              if (status === 201) roles.push(answer.json<{ id: number }>().id);
            } else if (step.kind === 'setPermissions') {
              const answer = await t.app.fastify.inject({
                method: 'POST',
                url: '/api/permission/update',
                headers,
                payload: {
                  roleId: roles[step.role % roles.length],
                  permissions: step.withinHeld ? step.routes.filter((r) => held.includes(r)) : step.routes,
                },
              });
              status = answer.statusCode;
            } else if (step.kind === 'createUser') {
              const role_id = roles[step.role % roles.length];
              const input = {
                username: `u.${tag}.${n}`,
                name: `U ${n}`,
                email: `u-${tag}-${n}@demo.local`,
                password: 'Prop#Erty-Pass9',
                role_id,
              };
              if (step.graphql) {
                const answer = await t.app.fastify.inject({
                  method: 'POST',
                  url: '/backoffice/graphql',
                  headers,
                  payload: {
                    query:
                      'mutation n($username: String!, $name: String!, $email: String!, $password: String!, $role_id: Int!) { newUser(username: $username, name: $name, email: $email, password: $password, role_id: $role_id) { id } }',
                    variables: input,
                  },
                });
                status = answer.statusCode;
                const id = answer.json<{ data?: { newUser?: { id: number } } | null }>().data?.newUser?.id;
                if (id) created.push(id);
              } else {
                const answer = await t.app.fastify.inject({
                  method: 'POST',
                  url: '/api/users',
                  headers,
                  payload: input,
                });
                status = answer.statusCode;
                if (status === 201) created.push(answer.json<{ id: number }>().id);
              }
              users.push(...created.filter((id) => !users.includes(id)));
            } else if (step.kind === 'takeOver') {
              const id = users[step.user % users.length]!;
              const row = await db
                .selectFrom('users')
                .select(['username', 'name', 'email', 'role_id'])
                .where('id', '=', id)
                .executeTakeFirstOrThrow();
              const answer = await t.app.fastify.inject({
                method: 'PUT',
                url: `/api/users/${id}`,
                headers,
                payload: { ...row, password: `Taken#Over-${n}x` },
              });
              status = answer.statusCode;
              if (status === 200 && id !== actor.id) {
                const lacked = [...(everHeld.get(id) ?? [])].filter((route) => !held.includes(route));
                expect(lacked, `took over user ${id} after ${JSON.stringify(actions.slice(0, n))}`).toEqual([]);
              }
            } else {
              const id = users[step.user % users.length]!;
              const role_id = roles[step.role % roles.length]!;
              if (step.graphql) {
                const answer = await t.app.fastify.inject({
                  method: 'POST',
                  url: '/backoffice/graphql',
                  headers,
                  payload: { query: `mutation { updateUser(id: ${id}, role_id: ${role_id}) { id } }` },
                });
                status = answer.statusCode;
              } else {
                const row = await db
                  .selectFrom('users')
                  .select(['username', 'name', 'email'])
                  .where('id', '=', id)
                  .executeTakeFirstOrThrow();
                const answer = await t.app.fastify.inject({
                  method: 'PUT',
                  url: `/api/users/${id}`,
                  headers,
                  payload: { ...row, role_id },
                });
                status = answer.statusCode;
              }
            }
            statuses.set(status, (statuses.get(status) ?? 0) + 1);
            expect(status, `step ${n}: ${JSON.stringify(step)}`).toBeLessThan(500);

            await noteHoldings();
            // The invariant after every step, not only at the end.
            const allowed = new Set(held);
            for (const id of [actor.id, ...created]) {
              const holding = await routesOfUser(id);
              const gained = holding.filter((route) => !allowed.has(route));
              expect(
                gained,
                `user ${id === actor.id ? 'the actor' : id} after ${JSON.stringify(actions.slice(0, n))}`,
              ).toEqual([]);
            }
          }
        },
      ),
      { numRuns: runs },
    );
  }, 600_000);
});
