import { sql, type Kysely } from 'kysely';

/**
 * The glossary's word for a role (docs/product.md, Glossary: Função, never Perfis) in the two seeded
 * permission names that said "Perfis". Permissions are created once, by the seed and the admin tooling
 * (server/src/db/catalog.ts `ensureRbac`, which leaves existing rows alone), and no operation renames
 * them, so a database seeded before this migration keeps the old names unless it changes them here.
 * Only a row that still carries the old seeded text for its route is changed. The names are written
 * out rather than read from catalog.ts: a migration stays what it was when it was applied.
 */
const RENAMED: readonly (readonly [route: string, before: string, after: string])[] = [
  ['roles-list', 'Perfis: listar', 'Funções: listar'],
  ['roles-edit', 'Perfis: editar permissões', 'Funções: editar permissões'],
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const [route, before, after] of RENAMED) {
    await sql`update permissions set display_name = ${after}
      where route_name = ${route} and display_name = ${before}`.execute(db);
  }
}
