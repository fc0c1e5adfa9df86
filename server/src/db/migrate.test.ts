import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type OpenDatabase } from './connect';
import { MIGRATIONS, migrate } from './migrate';
import { openTestDatabase } from '../test-support/database';

const ENGINES = ['pglite://memory', ...(process.env.TEST_DATABASE_URL ? [process.env.TEST_DATABASE_URL] : [])];
const label = (url: string) => (url.startsWith('pglite') ? 'PGlite' : 'PostgreSQL');

describe.each(ENGINES)('schema on %s', (url) => {
  let database: OpenDatabase;

  beforeAll(async () => {
    database = await openTestDatabase(url);
  }, 60_000);

  afterAll(async () => {
    await database.close();
  });

  it(`migrates idempotently (${label(url)})`, async () => {
    // openTestDatabase applied everything once; a second and third run apply nothing.
    expect(await migrate(database.db)).toEqual({ applied: [] });
    expect(await migrate(database.db)).toEqual({ applied: [] });
    const rows = await database.db.selectFrom('plans').select('name').orderBy('name').execute();
    expect(rows.map((r) => r.name)).toEqual(['enterprise', 'professional', 'starter']);
    const options = await database.db.selectFrom('feature_options').select('option').execute();
    expect(options.map((o) => o.option).sort()).toEqual([
      'analytics',
      'blacklist',
      'campaigns',
      'chat',
      'chatbot',
      'reports',
      'webhooks',
    ]);
    const reasons = await database.db.selectFrom('reasons').select('name').orderBy('id').execute();
    expect(reasons.map((r) => r.name)).toEqual([
      'Preço',
      'Falta de estoque',
      'Entrega',
      'Receita médica',
      'Dúvida',
      'Outro',
    ]);
  });

  it('reads numeric and int8 as numbers, date as YYYY-MM-DD, timestamptz as Date', async () => {
    const { rows } = await sql<{ n: unknown; b: unknown; c: unknown; d: unknown; t: unknown }>`
      select 1234.50::numeric(12, 2) as n, 9007199254740::int8 as b, count(*) as c, date '2024-02-29' as d, now() as t
    `.execute(database.db);
    const row = rows[0];
    expect(row).toBeDefined();
    expect(row?.n).toBe(1234.5);
    expect(row?.b).toBe(9007199254740);
    expect(row?.c).toBe(1);
    expect(row?.d).toBe('2024-02-29');
    expect(row?.t).toBeInstanceOf(Date);
  });

  it('enforces unique lower(email) among live users, and lets a deleted address be reused', async () => {
    const db = database.db;
    const { id: tenantId } = await db
      .insertInto('tenants')
      .values({
        name: 'acme',
        cnpj: '11.222.333/0001-81',
        template: 't',
        pool: 'p',
        plan: 'starter',
        user_limit: 5,
        ticket_limit: 10,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const { id: roleId } = await db
      .insertInto('roles')
      .values({ name: 'tester', display_name: 'Tester' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const user = (email: string) => ({
      tenant_id: tenantId,
      role_id: roleId,
      name: 'X',
      username: 'xxx',
      email,
      password_hash: 'h',
    });

    const { id } = await db
      .insertInto('users')
      .values(user('maria@acme.com'))
      .returning('id')
      .executeTakeFirstOrThrow();
    await expect(db.insertInto('users').values(user('Maria@ACME.com')).execute()).rejects.toMatchObject({
      code: '23505',
    });
    await db.updateTable('users').set({ deleted_at: new Date() }).where('id', '=', id).execute();
    await expect(db.insertInto('users').values(user('MARIA@acme.com')).execute()).resolves.toBeDefined();
  });

  it('rejects values the CHECK constraints forbid', async () => {
    const db = database.db;
    const tenant = { template: 't', pool: 'p', plan: 'starter' as const, user_limit: 5, ticket_limit: 10 };
    await expect(
      db
        .insertInto('tenants')
        .values({ ...tenant, name: 'Bad Name', cnpj: '11.222.333/0001-81' })
        .execute(),
    ).rejects.toMatchObject({ code: '23514' });
    await expect(
      db
        .insertInto('tenants')
        .values({ ...tenant, name: 'okname', cnpj: '11222333000181' })
        .execute(),
    ).rejects.toMatchObject({ code: '23514' });
    // Stored masked and upper-case (migration 0008): bare, lower-case or a letter in a check digit are refused.
    await expect(
      db
        .insertInto('tenants')
        .values({ ...tenant, name: 'okname', cnpj: '12ABC34501DE35' })
        .execute(),
    ).rejects.toMatchObject({ code: '23514' });
    await expect(
      db
        .insertInto('tenants')
        .values({ ...tenant, name: 'okname', cnpj: '12.abc.345/01de-35' })
        .execute(),
    ).rejects.toMatchObject({ code: '23514' });
    await expect(
      db
        .insertInto('tenants')
        .values({ ...tenant, name: 'okname', cnpj: '12.ABC.345/01DE-3A' })
        .execute(),
    ).rejects.toMatchObject({ code: '23514' });
    const row = await db
      .insertInto('tenants')
      .values({ ...tenant, name: 'digits', cnpj: '11.222.333/0001-81' })
      .returning(['cnpj_bare', 'search_text'])
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ cnpj_bare: '11222333000181', search_text: 'digits 11.222.333/0001-81' });
    const letters = await db
      .insertInto('tenants')
      .values({ ...tenant, name: 'letters', cnpj: '12.ABC.345/01DE-35' })
      .returning(['cnpj_bare', 'search_text'])
      .executeTakeFirstOrThrow();
    expect(letters).toEqual({ cnpj_bare: '12ABC34501DE35', search_text: 'letters 12.abc.345/01de-35' });
  });

  it('reports affected rows for builder and raw writes alike', async () => {
    const db = database.db;
    await db
      .insertInto('reasons')
      .values([{ name: 'contagem-1' }, { name: 'contagem-2' }])
      .execute();
    const updated = await db
      .updateTable('reasons')
      .set({ name: sql<string>`name || '!'` })
      .where('name', 'like', 'contagem-%')
      .executeTakeFirst();
    expect(updated.numUpdatedRows).toBe(2n);
    const raw = await sql`delete from reasons where name like 'contagem-%'`.execute(db);
    expect(raw.numAffectedRows).toBe(2n);
  });

  it('creates the trigram indexes when pg_trgm is available', async () => {
    const { rows } = await sql<{ name: string }>`
      select indexname as name from pg_indexes where tablename = 'tenants' and indexname like '%trgm%' order by 1
    `.execute(database.db);
    const ext = await sql<{ n: number }>`select count(*) as n from pg_extension where extname = 'pg_trgm'`.execute(
      database.db,
    );
    const expected = ext.rows[0]?.n === 1 ? ['tenants_cnpj_bare_trgm_idx', 'tenants_search_text_trgm_idx'] : [];
    if (url.startsWith('pglite')) expect(ext.rows[0]?.n).toBe(1);
    expect(rows.map((r) => r.name)).toEqual(expected);
  });
});

describe('PGlite connection lease', () => {
  let database: OpenDatabase;

  beforeAll(async () => {
    database = await openTestDatabase();
  }, 60_000);

  afterAll(async () => {
    await database.close();
  });

  it('keeps a concurrent query out of another caller’s transaction', async () => {
    const db = database.db;
    const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    const rolledBack = db.transaction().execute(async (trx) => {
      await trx.insertInto('reasons').values({ name: 'temporário' }).execute();
      await sleep(50);
      throw new Error('roll back');
    });
    await sleep(10);
    // Without the lease this query would run inside the open transaction and see the row.
    const seen = await db.selectFrom('reasons').select('id').where('name', '=', 'temporário').execute();
    await expect(rolledBack).rejects.toThrow('roll back');
    expect(seen).toEqual([]);
    expect(await db.selectFrom('reasons').select('id').where('name', '=', 'temporário').execute()).toEqual([]);
  });

  it('supports savepoints', async () => {
    const db = database.db;
    const trx = await db.startTransaction().execute();
    const inner = await trx.savepoint('inner').execute();
    await inner.insertInto('reasons').values({ name: 'descartado' }).execute();
    await inner.rollbackToSavepoint('inner').execute();
    await trx.insertInto('reasons').values({ name: 'mantido' }).execute();
    await trx.commit().execute();
    const names = (
      await db.selectFrom('reasons').select('name').where('name', 'in', ['descartado', 'mantido']).execute()
    ).map((r) => r.name);
    expect(names).toEqual(['mantido']);
  });
});

describe('embedded database on disk', () => {
  it('persists across reopen and does not re-apply migrations', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'pglite-test-'));
    try {
      const first = await openDatabase(`pglite://${join(dir, 'db')}`);
      expect((await migrate(first.db)).applied).toEqual(Object.keys(MIGRATIONS));
      await first.db.insertInto('reasons').values({ name: 'persistido' }).execute();
      await first.close();
      const second = await openDatabase(`pglite://${join(dir, 'db')}`);
      expect(await migrate(second.db)).toEqual({ applied: [] });
      expect(
        await second.db.selectFrom('reasons').select('name').where('name', '=', 'persistido').execute(),
      ).toHaveLength(1);
      await second.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('refuses an unknown URL scheme', async () => {
    await expect(openDatabase('mysql://user:secret@host/db')).rejects.toThrow(/mysql:\/\/user:\*\*\*@host/);
  });
});
