import { issuedBearer, startTestApp, type TestApp } from '../test-support/app';
import { startThrowawayPostgres, type ThrowawayPostgres } from '../test-support/postgres';
import { createTestUser, type TestUser } from '../test-support/users';

// The audit records a GraphQL change wrote, named in its answer (server/src/graphql/audit-records.ts;
// contracts/schema.graphql, AUDIT RECORDS): `extensions.auditRecords` per root field, the header
// `x-audit-record` when the answer is one change's whole answer, and the named record undone through
// REST (POST /api/audit/{id}/undo) puts the old value back.
describe.each([
  ['PGlite', false],
  ['PostgreSQL', true],
])('%s', (_label, postgres) => {
  let cluster: ThrowawayPostgres | undefined;
  let t: TestApp;
  let staff: { authorization: string };
  let seq = 0;
  const tag = postgres ? 'pg' : 'pl';

  async function subject(): Promise<TestUser> {
    seq += 1;
    return createTestUser(t.db, { email: `gql-alvo-${seq}-${tag}@undo.local`, tenant: 'backoffice' });
  }

  interface Answer {
    status: number;
    header: string | undefined;
    data: Record<string, unknown> | null | undefined;
    errors: { extensions?: { code?: string } }[] | undefined;
    records: Record<string, number> | undefined;
  }

  async function gql(query: string, variables: Record<string, unknown> = {}): Promise<Answer> {
    const response = await t.app.fastify.inject({
      method: 'POST',
      url: '/backoffice/graphql',
      headers: { ...staff, 'content-type': 'application/json', accept: 'application/graphql-response+json' },
      payload: JSON.stringify({ query, variables }),
    });
    const body = response.json<{
      data?: Record<string, unknown> | null;
      errors?: Answer['errors'];
      extensions?: { auditRecords?: Record<string, number> };
    }>();
    const header = response.headers['x-audit-record'];
    return {
      status: response.statusCode,
      header: header === undefined ? undefined : String(header),
      data: body.data,
      errors: body.errors,
      records: body.extensions?.auditRecords,
    };
  }

  async function nameOf(id: number): Promise<string> {
    return (await t.db.selectFrom('users').select('name').where('id', '=', id).executeTakeFirstOrThrow()).name;
  }

  async function operationOf(record: number): Promise<{ operation: string; target_id: number | null }> {
    return t.db
      .selectFrom('audit_log')
      .select(['operation', 'target_id'])
      .where('id', '=', record)
      .executeTakeFirstOrThrow();
  }

  const undo = (id: number) => t.app.fastify.inject({ method: 'POST', url: `/api/audit/${id}/undo`, headers: staff });

  beforeAll(async () => {
    if (postgres) cluster = await startThrowawayPostgres();
    t = await startTestApp({ seed: { days: 1 }, ...(cluster ? { databaseUrl: cluster.url } : {}) });
    const admin = await t.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'admin@demo.local')
      .executeTakeFirstOrThrow();
    staff = await issuedBearer(t, admin.id);
  }, 120_000);

  afterAll(async () => {
    await t?.close();
    await cluster?.stop();
  });

  it("names a change's record in the header and in extensions; undoing it puts the old value back", async () => {
    const user = await subject();
    const before = await nameOf(user.id);
    const answer = await gql('mutation rename($id: Int!) { updateUser(id: $id, name: "Nome Novo") { id name } }', {
      id: user.id,
    });
    expect(answer.errors).toBeUndefined();
    expect(answer.status).toBe(200);
    const record = Number(answer.header);
    expect(Number.isInteger(record) && record > 0, `x-audit-record: ${String(answer.header)}`).toBe(true);
    expect(answer.records).toEqual({ updateUser: record });
    expect(await operationOf(record)).toEqual({ operation: 'user.update', target_id: user.id });
    expect(await nameOf(user.id)).toBe('Nome Novo');

    const undone = await undo(record);
    expect(undone.statusCode, undone.body).toBe(200);
    expect(await nameOf(user.id)).toBe(before);
    // The undo's own REST answer names the reversing record, as for a change made over REST.
    expect(Number(undone.headers['x-audit-record'])).toBeGreaterThan(record);
  });

  it("names a delete's record; its undo restores the user", async () => {
    const user = await subject();
    const answer = await gql('mutation drop($id: Int!) { deleteUser(id: $id) }', { id: user.id });
    expect(answer.errors).toBeUndefined();
    const record = Number(answer.header);
    expect(answer.records).toEqual({ deleteUser: record });
    expect((await operationOf(record)).operation).toBe('user.delete');
    const undone = await undo(record);
    expect(undone.statusCode, undone.body).toBe(200);
    const row = await t.db.selectFrom('users').select('deleted_at').where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(row.deleted_at).toBeNull();
  });

  it('several changes in one document: each named under its response key, no header', async () => {
    const [one, two] = [await subject(), await subject()];
    const answer = await gql(
      `mutation both($a: Int!, $b: Int!) {
        first: updateUser(id: $a, name: "Primeiro") { id }
        second: updateUser(id: $b, name: "Segundo") { id }
      }`,
      { a: one.id, b: two.id },
    );
    expect(answer.errors).toBeUndefined();
    expect(answer.header).toBeUndefined();
    const first = answer.records?.first ?? 0;
    const second = answer.records?.second ?? 0;
    expect(Object.keys(answer.records ?? {}).sort()).toEqual(['first', 'second']);
    expect(await operationOf(first)).toEqual({ operation: 'user.update', target_id: one.id });
    expect(await operationOf(second)).toEqual({ operation: 'user.update', target_id: two.id });
  });

  it('a failed change names nothing; the changes that committed before it stay named, without the header', async () => {
    const failed = await gql('mutation { updateUser(id: 999999, name: "Ninguém") { id } }');
    expect(failed.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    expect(failed.header).toBeUndefined();
    expect(failed.records).toBeUndefined();

    const user = await subject();
    const partly = await gql(
      `mutation partly($id: Int!) {
        done: updateUser(id: $id, name: "Feito") { id }
        missing: updateUser(id: 999999, name: "Ninguém") { id }
      }`,
      { id: user.id },
    );
    expect(partly.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    expect(partly.header).toBeUndefined();
    expect(Object.keys(partly.records ?? {})).toEqual(['done']);
    expect(await operationOf(partly.records?.done ?? 0)).toEqual({ operation: 'user.update', target_id: user.id });
  });

  it('a read names nothing', async () => {
    const answer = await gql('query { users { id } }');
    expect(answer.errors).toBeUndefined();
    expect(answer.header).toBeUndefined();
    expect(answer.records).toBeUndefined();
  });
});
