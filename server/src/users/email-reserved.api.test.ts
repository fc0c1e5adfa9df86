import { OPERATOR_ROLE } from '../db/catalog';
import { startTestApp, type TestApp } from '../test-support/app';
import { startThrowawayPostgres, type ThrowawayPostgres } from '../test-support/postgres';

/**
 * A deleted user keeps its e-mail (docs/support-desk.md, Data; migration 0019): deleting sets
 * `email_reserved`, and nobody else gets the e-mail (a new user, another user's new e-mail: 409 on
 * `email`, ignoring case) until the user is purged. The username becomes free as before. On PGlite and
 * PostgreSQL.
 */
describe.each([
  ['PGlite', false],
  ['PostgreSQL', true],
])('%s: a deleted user keeps its e-mail', (_label, postgres) => {
  let cluster: ThrowawayPostgres | undefined;
  let t: TestApp;
  let admin: { authorization: string };
  let operatorRole = 0;
  let n = 0;
  const PASSWORD = 'Reserva#Senha-8Q4';

  beforeAll(async () => {
    cluster = postgres ? await startThrowawayPostgres() : undefined;
    t = await startTestApp({ ...(cluster ? { databaseUrl: cluster.url } : {}), seed: { days: 1 } });
    admin = await t.auth('admin@demo.local');
    operatorRole = (
      await t.db.selectFrom('roles').select('id').where('name', '=', OPERATOR_ROLE).executeTakeFirstOrThrow()
    ).id;
  }, 180_000);

  afterAll(async () => {
    await t?.close();
    await cluster?.stop();
  });

  const create = (username: string, email: string) =>
    t.app.fastify.inject({
      method: 'POST',
      url: '/api/users',
      headers: admin,
      payload: { username, name: 'Reservada', email, password: PASSWORD, role_id: operatorRole },
    });

  it('refuses the e-mail of a deleted user to a new user and to another user, until the user is purged', async () => {
    n += 1;
    const email = `reservada-${n}@reserva.local`;
    const first = await create(`reservada.${n}`, email);
    expect(first.statusCode, first.body).toBe(201);
    const id = first.json<{ id: number }>().id;
    const other = await create(`outra.${n}`, `outra-${n}@reserva.local`);
    expect(other.statusCode, other.body).toBe(201);
    const otherId = other.json<{ id: number }>().id;

    expect((await t.app.fastify.inject({ method: 'DELETE', url: `/api/users/${id}`, headers: admin })).statusCode).toBe(
      200,
    );
    const row = await t.db
      .selectFrom('users')
      .select(['deleted_at', 'email_reserved'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.deleted_at).not.toBeNull();
    expect(row.email_reserved).toBe(true);

    // The username is free again; the e-mail is not, whatever its case.
    const again = await create(`reservada.${n}`, email.toUpperCase());
    expect(again.statusCode, again.body).toBe(409);
    expect(again.json()).toMatchObject({ field: 'email' });
    const sameUsername = await create(`reservada.${n}`, `nova-${n}@reserva.local`);
    expect(sameUsername.statusCode, sameUsername.body).toBe(201);
    const moved = await t.app.fastify.inject({
      method: 'PUT',
      url: `/api/users/${otherId}`,
      headers: admin,
      payload: { email },
    });
    expect(moved.statusCode, moved.body).toBe(409);
    expect(moved.json()).toMatchObject({ field: 'email' });

    const purged = await t.app.fastify.inject({
      method: 'POST',
      url: '/api/users/purge',
      headers: admin,
      payload: { id },
    });
    expect(purged.statusCode, purged.body).toBe(200);
    const reused = await create(`reusada.${n}`, email);
    expect(reused.statusCode, reused.body).toBe(201);
  });
});
