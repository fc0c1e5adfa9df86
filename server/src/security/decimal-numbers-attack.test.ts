import { issuedBearer, startTestApp, type TestApp } from '../test-support/app';
import { startThrowawayPostgres, type ThrowawayPostgres } from '../test-support/postgres';

/**
 * An attack on "a number in a query or path is decimal digits" (contracts/openapi.yaml conventions,
 * server/src/app-validation.ts `withDecimalNumbers`) by a reviewer who did not write it, on the embedded
 * database and on PostgreSQL: repeated keys of an integer array (the bad one first or last), one key repeated
 * for a single integer, a path id declared through a `$ref` (`IdPath` → `Id`), Unicode and full-width digits,
 * `1_000`, `1.`, `.5`, `1.0` for an integer, a trailing newline or space (which `Number()` trims), and huge
 * digit strings (refused by the bounds, never a 500); decimal text with leading zeros is still the number.
 */

const SHEET = '/api/tenant/sheets/login_failures?startAt=2026-11-01&finishAt=2026-11-02';

describe.each([
  ['PGlite', false],
  ['PostgreSQL', true],
])('%s: numbers in a query or path are decimal digits', (_label, postgres) => {
  let cluster: ThrowawayPostgres | undefined;
  let t: TestApp;
  let staff: { authorization: string };

  beforeAll(async () => {
    if (postgres) cluster = await startThrowawayPostgres();
    t = await startTestApp({ ...(cluster ? { databaseUrl: cluster.url } : {}), seed: { days: 1 } });
    staff = await issuedBearer(t, 'admin@demo.local');
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await cluster?.stop();
  });

  async function get(url: string) {
    const response = await t.app.fastify.inject({ method: 'GET', url, headers: staff });
    return { status: response.statusCode, body: response.json<{ errors?: { field: string; message: string }[] }>() };
  }

  it.each([
    [`${SHEET}&userId=1&userId=0x2`, 'query/userId', 'must be integer'],
    [`${SHEET}&userId=0x2&userId=1`, 'query/userId', 'must be integer'],
    [`${SHEET}&userId=1&userId=5e0`, 'query/userId', 'must be integer'],
    [`${SHEET}&userId=1&userId=%2B5`, 'query/userId', 'must be integer'],
    [`${SHEET}&userId=2%0A`, 'query/userId', 'must be integer'],
    [`${SHEET}&userId=%D9%A1%D9%A2`, 'query/userId', 'must be integer'],
    [`${SHEET}&userId=%EF%BC%91`, 'query/userId', 'must be integer'],
    [`${SHEET}&userId=1_000`, 'query/userId', 'must be integer'],
    [`${SHEET}&userId=1.`, 'query/userId', 'must be integer'],
    [`${SHEET}&userId=.5`, 'query/userId', 'must be integer'],
    [`${SHEET}&userId=1.0`, 'query/userId', 'must be integer'],
    [`${SHEET}&userId=${'9'.repeat(400)}`, 'query/userId.0', 'must be <= 2147483647'],
    [`${SHEET}&limit=0x10`, 'query/limit', 'must be integer'],
    [`${SHEET}&limit=10%20`, 'query/limit', 'must be integer'],
    [`${SHEET}&limit=-0`, 'query/limit', 'must be >= 1'],
    [`${SHEET}&limit=${'9'.repeat(400)}`, 'query/limit', 'must be <= 1000'],
    ['/api/users/page?page=1&page=0x2', 'query/page', 'must be integer'],
    ['/api/users/page?page=%201', 'query/page', 'must be integer'],
    ['/api/audit?tenantId=1&tenantId=0x2', 'query/tenantId', 'must be integer'],
    ['/api/support/users/0x2', 'path/id', 'must be integer'],
    ['/api/support/users/2%0A', 'path/id', 'must be integer'],
    ['/api/support/users/%EF%BC%92', 'path/id', 'must be integer'],
    ['/api/support/users/-0', 'path/id', 'must be >= 1'],
  ])('%s answers 400 on %s', async (url, field, message) => {
    const answer = await get(url);
    expect(answer.status).toBe(400);
    expect(answer.body.errors).toEqual([{ field, message }]);
  });

  it('decimal digits, leading zeros included, are still the number', async () => {
    expect((await get(`${SHEET}&userId=1&userId=02&limit=010`)).body).toMatchObject({ limit: 10 });
    expect((await get(`${SHEET}&userId=1&userId=02&limit=010`)).status).toBe(200);
    const person = await get('/api/support/users/02');
    expect(person.status).toBe(200);
    expect(person.body).toMatchObject({ user: { id: 2 } });
  });
});
