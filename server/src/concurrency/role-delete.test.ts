import type { LightMyRequestResponse } from 'fastify';
import { startTestApp, type TestApp } from '../test-support/app';
import { startThrowawayPostgres, type ThrowawayPostgres } from '../test-support/postgres';

/**
 * A role deleted while users are being given it (server/src/roles/service.ts `remove`): the delete
 * locks the role's row and counts its holders, and giving a user the role needs the row through the
 * foreign key users_role_id_fkey. Whatever the interleaving, either the delete wins (every
 * assignment after it is refused as naming an unknown role, 400 on `role_id`) or an assignment wins
 * (the delete is refused with 409): never a 5xx, never a user pointing at a deleted role. On
 * PostgreSQL (a connection pool: real concurrency) and on PGlite (one connection: serialised).
 */

const N = 15;
const ROUNDS = 4;

function outcomeOf(response: LightMyRequestResponse): string {
  const body = response.json<{ field?: string; errors?: { field?: string }[] }>();
  const field = body.field ?? body.errors?.[0]?.field;
  return `${response.statusCode}${field ? `:${field}` : ''}`;
}

describe.each([
  ['PGlite', false],
  ['PostgreSQL', true],
])('%s: a role deleted while users are given it', (_label, postgres) => {
  let cluster: ThrowawayPostgres | undefined;
  let t: TestApp;
  let admin: { authorization: string };
  const userIds: number[] = [];

  beforeAll(async () => {
    if (postgres) cluster = await startThrowawayPostgres();
    t = await startTestApp({ ...(cluster ? { databaseUrl: cluster.url } : {}), seed: { days: 1 } });
    admin = await t.auth('admin@demo.local');
    const operador = await t.db
      .selectFrom('roles')
      .select('id')
      .where('name', '=', 'operador')
      .executeTakeFirstOrThrow();
    for (let i = 0; i < N; i += 1) {
      const created = await t.app.fastify.inject({
        method: 'POST',
        url: '/api/users',
        headers: admin,
        payload: {
          username: `papel.${i}`,
          name: `Papel ${i}`,
          email: `papel.${i}@demo.local`,
          password: 'Papel#Seguro!9x',
          role_id: operador.id,
        },
      });
      expect(created.statusCode, created.body).toBe(201);
      userIds.push(created.json<{ id: number }>().id);
    }
  }, 240_000);

  afterAll(async () => {
    await t?.close();
    await cluster?.stop();
  });

  it.each(Array.from({ length: ROUNDS }, (_, round) => round))(
    'round %i: the delete and the assignments agree, and no user keeps a deleted role',
    async (round) => {
      const created = await t.app.fastify.inject({
        method: 'POST',
        url: '/api/roles',
        headers: admin,
        payload: { name: `corrida_${round}`, display_name: `Corrida ${round}` },
      });
      expect(created.statusCode, created.body).toBe(201);
      const roleId = created.json<{ id: number }>().id;
      const assign = (id: number, i: number) =>
        t.app.fastify.inject({
          method: 'PUT',
          url: `/api/users/${id}`,
          headers: admin,
          payload: { username: `papel.${i}`, name: `Papel ${i}`, email: `papel.${i}@demo.local`, role_id: roleId },
        });
      const remove = () => t.app.fastify.inject({ method: 'DELETE', url: `/api/roles/${roleId}`, headers: admin });
      // The delete goes out in a different place among the assignments each round.
      const position = Math.floor((round * N) / ROUNDS);
      const requests = userIds.map((id, i) => () => assign(id, i));
      requests.splice(position, 0, remove);
      const answers = await Promise.all(requests.map((send) => send()));
      const deleteOutcome = outcomeOf(answers[position] as LightMyRequestResponse);
      const assignOutcomes = answers.filter((_, i) => i !== position).map(outcomeOf);

      for (const answer of answers) expect(answer.statusCode, answer.body).toBeLessThan(500);
      const role = await t.db.selectFrom('roles').select('id').where('id', '=', roleId).executeTakeFirst();
      const holders = await t.db.selectFrom('users').select('id').where('role_id', '=', roleId).execute();
      if (deleteOutcome === '200') {
        expect(role).toBeUndefined();
        expect(holders).toEqual([]);
        for (const outcome of assignOutcomes) expect(['200', '400:body/role_id']).toContain(outcome);
        // Assignments that won before the delete would have made it refuse: none can have won.
        expect(assignOutcomes.filter((o) => o === '200')).toEqual([]);
      } else {
        expect(deleteOutcome).toBe('409:id');
        expect(role).toBeDefined();
        expect(holders.length).toBeGreaterThan(0);
        expect(assignOutcomes.every((o) => o === '200')).toBe(true);
      }
    },
  );
});
