import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { CSV_BATCH } from '../base/csv';
import { csvChunks, pagedCsvLines, type ExportLanguage, type FormattedPage } from '../base/csv-stream';
import { userListQueries, type UserCursor, type UserListFilter, type UserListSort } from './list';

/**
 * The users list as CSV (contracts/openapi.yaml `userExport`): the list's columns, the sheets' rules
 * (server/src/base/csv.ts) and their streaming (server/src/base/csv-stream.ts `pagedCsvLines`), read in
 * keyset pages of the list's own order (./list.ts), so memory stays flat at any size.
 */

const HEADINGS: Record<ExportLanguage, readonly string[]> = {
  'pt-BR': ['id', 'nome', 'email', 'usuario', 'perfil', 'departamento', 'online', 'bloqueado', 'dois_fatores'],
  en: ['id', 'name', 'email', 'username', 'role', 'department', 'online', 'blocked', 'two_factor'],
};

const YES_NO: Record<ExportLanguage, readonly [string, string]> = { 'pt-BR': ['sim', 'não'], en: ['yes', 'no'] };

export function userExportLines(
  db: Kysely<Database>,
  tenantId: number,
  filter: UserListFilter,
  order: UserListSort,
  language: ExportLanguage,
): AsyncGenerator<string> {
  const queries = userListQueries(db, tenantId, filter, order);
  const [yes, no] = YES_NO[language];
  const flag = (value: boolean) => (value ? yes : no);
  const read = async (cursor: UserCursor | null): Promise<FormattedPage<UserCursor>> => {
    const rows = await queries.exportPage(cursor, CSV_BATCH);
    const last = rows.at(-1);
    return {
      chunks: csvChunks(rows, (r) => [
        r.id,
        r.name,
        r.email,
        r.username,
        r.role,
        r.department,
        flag(r.is_connected),
        flag(r.blocked),
        flag(r.two_factor_enabled),
      ]),
      next: rows.length < CSV_BATCH || last === undefined ? null : last.cursor,
    };
  };
  return pagedCsvLines(HEADINGS[language], read);
}
