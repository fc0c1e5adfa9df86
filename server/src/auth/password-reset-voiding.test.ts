import { ADMIN_ROLE } from '../db/catalog';
import { startMailbox, type Mailbox } from '../mail/mailbox';
import { issuedBearer, startTestApp, type TestApp } from '../test-support/app';
import { startThrowawayPostgres, type ThrowawayPostgres } from '../test-support/postgres';
import { createTestUser, TEST_PASSWORD, type TestUser } from '../test-support/users';

/**
 * What a reset link may not outlive (docs/support-desk.md, What voids a link), on PGlite and
 * PostgreSQL: a link e-mailed before the account's credentials or standing changed is of no use after
 * the change. Otherwise whoever read the old mailbox (the reason the e-mail was moved, or the password
 * changed, or the account blocked) still sets the password within the link's 30 minutes: after the
 * e-mail moved, after the owner's own new password, after an administrator's new password, and again
 * after an unblock or a restore.
 */
const NEW_PASSWORD = 'Nova#Senha!2026';

describe.each([
  ['PGlite', false],
  ['PostgreSQL', true],
])('reset links a change outlives on %s', (_label, postgres) => {
  let cluster: ThrowawayPostgres | undefined;
  let mailbox: Mailbox;
  let t: TestApp;
  let admin: { authorization: string };
  let n = 0;
  const engine = postgres ? 'pg' : 'lite';

  const bearer = (user: { id: number }) => issuedBearer(t, user.id);

  beforeAll(async () => {
    if (postgres) cluster = await startThrowawayPostgres();
    mailbox = await startMailbox();
    t = await startTestApp({
      seed: { days: 1 },
      ...(cluster ? { databaseUrl: cluster.url } : {}),
      config: { smtpUrl: `smtp://127.0.0.1:${String(mailbox.port)}`, publicUrl: 'https://painel.example.com' },
    });
    // Users made straight in the database pass the tenant's limit, which a restore respects.
    await t.db.updateTable('tenants').set({ user_limit: 100_000 }).where('name', '=', 'farmacia-central').execute();
    admin = await bearer(
      await createTestUser(t.db, {
        email: `voiding-admin-${engine}@demo.local`,
        tenant: 'backoffice',
        role: ADMIN_ROLE,
      }),
    );
  }, 240_000);

  afterAll(async () => {
    await t?.close();
    await mailbox?.close();
    await cluster?.stop();
  });

  const fresh = async (): Promise<TestUser> =>
    createTestUser(t.db, { email: `voiding-${engine}-${String(++n)}@demo.local`, tenant: 'farmacia-central' });

  const inject = (
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    payload?: unknown,
    headers: Record<string, string> = admin,
  ) =>
    t.app.fastify.inject({
      method,
      url,
      headers,
      remoteAddress: `10.31.${String(n)}.1`,
      ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    });

  /** A link asked for from the login page, read out of the e-mail the receiver got. */
  async function linkFor(user: TestUser): Promise<string> {
    const after = mailbox.messages()[0]?.id ?? 0;
    const asked = await inject('POST', '/api/auth/password-reset/request', { email: user.email }, {});
    expect(asked.statusCode).toBe(202);
    const message = await mailbox.next((m) => m.recipients.includes(user.email) && m.id > after);
    const token = /#token=([A-Za-z0-9_-]+)/.exec(message.text ?? '')?.[1];
    if (!token) throw new Error(`no link in ${message.text ?? '(none)'}`);
    return token;
  }

  const confirm = async (token: string) =>
    (await inject('POST', '/api/auth/password-reset/confirm', { token, password: NEW_PASSWORD }, {})).statusCode;

  const userRow = (id: number) =>
    t.db
      .selectFrom('users')
      .select(['username', 'name', 'email', 'role_id'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();

  /** The password still works (the link set nothing). */
  async function passwordKept(user: TestUser) {
    const { password_hash } = await t.db
      .selectFrom('users')
      .select('password_hash')
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    const { verifyPassword } = await import('../db/password');
    expect(await verifyPassword(password_hash, NEW_PASSWORD)).toBe(false);
  }

  it('a link is void once the e-mail moved to another address', async () => {
    const user = await fresh();
    const token = await linkFor(user);
    const moved = await inject('PUT', `/api/users/${String(user.id)}`, { email: `moved-${user.email}` });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(await confirm(token)).toBe(400);
    await passwordKept(user);
  });

  it('a link is void once the owner changed the e-mail with the current password', async () => {
    const user = await fresh();
    const token = await linkFor(user);
    const own = await bearer(user);
    const moved = await inject(
      'PUT',
      `/api/users/${String(user.id)}`,
      { email: `own-${user.email}`, current_password: TEST_PASSWORD },
      own,
    );
    expect(moved.statusCode, moved.body).toBe(200);
    expect(await confirm(token)).toBe(400);
    await passwordKept(user);
  });

  it('a link is void once the owner set a new password on the account screen', async () => {
    const user = await fresh();
    const token = await linkFor(user);
    const own = await bearer(user);
    const changed = await t.app.fastify.inject({
      method: 'POST',
      url: `/${user.tenantName}/graphql`,
      headers: { ...own, 'content-type': 'application/json', accept: 'application/graphql-response+json' },
      payload: JSON.stringify({
        query: 'mutation($p: String!, $c: String) { updateUserPassword(password: $p, current_password: $c) { token } }',
        variables: { p: 'Minha#Propria!2026', c: TEST_PASSWORD },
      }),
    });
    expect(changed.json<{ errors?: unknown }>().errors, changed.body).toBeUndefined();
    expect(await confirm(token)).toBe(400);
  });

  it('a link is void once an administrator set a new password', async () => {
    const user = await fresh();
    const token = await linkFor(user);
    const row = await userRow(user.id);
    const set = await inject('PUT', `/api/users/${String(user.id)}`, {
      username: row.username,
      name: row.name,
      email: row.email,
      role_id: row.role_id,
      password: 'Do#Administrador!2026',
    });
    expect(set.statusCode, set.body).toBe(200);
    expect(await confirm(token)).toBe(400);
  });

  it('a link is void once the user was blocked, unblocked or not (users list and desk alike)', async () => {
    const listed = await fresh();
    const listedToken = await linkFor(listed);
    expect((await inject('PATCH', `/api/users/${String(listed.id)}`, { blocked: true })).statusCode).toBe(200);
    expect((await inject('PATCH', `/api/users/${String(listed.id)}`, { blocked: false })).statusCode).toBe(200);
    expect(await confirm(listedToken)).toBe(400);
    await passwordKept(listed);

    const desk = await fresh();
    const deskToken = await linkFor(desk);
    expect((await inject('POST', `/api/support/users/${String(desk.id)}/block`, { blocked: true })).statusCode).toBe(
      200,
    );
    expect((await inject('POST', `/api/support/users/${String(desk.id)}/block`, { blocked: false })).statusCode).toBe(
      200,
    );
    expect(await confirm(deskToken)).toBe(400);
    await passwordKept(desk);
  });

  it('a link is void once the user was deleted, restored or not', async () => {
    const user = await fresh();
    const token = await linkFor(user);
    expect((await inject('DELETE', `/api/users/${String(user.id)}`)).statusCode).toBe(200);
    expect((await inject('POST', `/api/support/users/${String(user.id)}/restore`, {})).statusCode).toBe(200);
    expect(await confirm(token)).toBe(400);
    await passwordKept(user);
  });

  it("a link is void once the user's company was deleted, restored or not", async () => {
    const user = await fresh();
    const token = await linkFor(user);
    const { id } = await t.db
      .selectFrom('tenants')
      .select('id')
      .where('name', '=', 'farmacia-central')
      .executeTakeFirstOrThrow();
    expect((await inject('POST', '/api/tenant/delete', { id })).statusCode).toBe(200);
    expect((await inject('POST', '/api/tenant/restore', { id })).statusCode).toBe(200);
    expect(await confirm(token)).toBe(400);
    await passwordKept(user);
  });

  it('a link nothing touched still works (the refusals above are the changes, not the test)', async () => {
    const user = await fresh();
    const token = await linkFor(user);
    expect(await confirm(token)).toBe(200);
  });
});
