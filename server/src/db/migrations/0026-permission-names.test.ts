import { Migrator } from 'kysely';
import { startThrowawayPostgres, type ThrowawayPostgres } from '../../test-support/postgres';
import { PERMISSION_CATALOG } from '../catalog';
import type { OpenDatabase } from '../connect';
import { MIGRATIONS } from '../migrate';
import { openEmptyTestDatabase } from '../../test-support/database';

/**
 * Migration 0026 on a database seeded before it, on PGlite and on PostgreSQL: the two permissions
 * seeded as "Perfis: …" take the glossary's word (docs/product.md, Glossary: Função), the names
 * server/src/db/catalog.ts now seeds; any other name is left as it is.
 */
describe.each([
  ['PGlite', false],
  ['PostgreSQL', true],
])('migration 0026-permission-names on %s', (_label, postgres) => {
  let cluster: ThrowawayPostgres | undefined;
  let database: OpenDatabase;

  beforeAll(async () => {
    if (postgres) cluster = await startThrowawayPostgres();
    database = await openEmptyTestDatabase(cluster ? cluster.url : 'pglite://memory');
    const migrator = new Migrator({
      db: database.db,
      provider: { getMigrations: () => Promise.resolve({ ...MIGRATIONS }) },
    });
    expect((await migrator.migrateTo('0025-saved-views')).error).toBeUndefined();
    // As the seed wrote them before: the old role words, and one row renamed by hand since.
    await database.db
      .insertInto('permissions')
      .values([
        { route_name: 'roles-list', display_name: 'Perfis: listar', category: 'gestao' },
        { route_name: 'roles-edit', display_name: 'Perfis: editar permissões', category: 'gestao' },
        { route_name: 'users', display_name: 'Usuários', category: 'gestao' },
        { route_name: 'legacy-perfis', display_name: 'Perfis: listar', category: 'gestao' },
      ])
      .execute();
    const { results = [] } = await migrator.migrateToLatest();
    expect(results.map((r) => [r.migrationName, r.status])).toContainEqual(['0026-permission-names', 'Success']);
  }, 120_000);

  afterAll(async () => {
    await database.close();
    await cluster?.stop();
  });

  it('renames the seeded "Perfis" permissions to what the catalog seeds now, and nothing else', async () => {
    const rows = await database.db
      .selectFrom('permissions')
      .select(['route_name', 'display_name'])
      .orderBy('route_name')
      .execute();
    expect(rows).toEqual([
      { route_name: 'legacy-perfis', display_name: 'Perfis: listar' },
      { route_name: 'roles-edit', display_name: PERMISSION_CATALOG['roles-edit'].displayName },
      { route_name: 'roles-list', display_name: PERMISSION_CATALOG['roles-list'].displayName },
      { route_name: 'users', display_name: 'Usuários' },
    ]);
    expect(PERMISSION_CATALOG['roles-list'].displayName).toBe('Funções: listar');
    expect(PERMISSION_CATALOG['roles-edit'].displayName).toBe('Funções: editar permissões');
  });
});

describe('seeded permission names', () => {
  it('use the glossary: no role is called "Perfis"', () => {
    for (const { displayName } of Object.values(PERMISSION_CATALOG)) expect(displayName).not.toMatch(/\bPerf(il|is)\b/);
  });
});
