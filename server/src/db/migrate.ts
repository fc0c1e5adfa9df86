import { Migrator, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import * as core from './migrations/0001-core';
import * as auth from './migrations/0002-auth';
import * as activity from './migrations/0003-activity';
import * as tenantSearch from './migrations/0004-tenant-search';
import * as twoFactor from './migrations/0005-two-factor';
import * as sheetKeysetIndexes from './migrations/0006-sheet-keyset-indexes';
import * as tenantSearchText from './migrations/0007-tenant-search-text';
import * as alphanumericCnpj from './migrations/0008-alphanumeric-cnpj';
import * as totpEncryption from './migrations/0009-totp-encryption';
import * as uniqueNames from './migrations/0010-unique-names';
import * as tenantSearchLexemes from './migrations/0011-tenant-search-lexemes';
import * as addressThrottle from './migrations/0012-address-throttle';
import * as departmentConnectionNames from './migrations/0013-department-connection-names';
import * as twoFactorEnrolmentRequired from './migrations/0014-two-factor-enrolment-required';
import * as auditLog from './migrations/0015-audit-log';
import * as loginAttemptReservations from './migrations/0016-login-attempt-reservations';
import * as socketTickets from './migrations/0017-socket-tickets';
import * as retentionIndexes from './migrations/0018-retention-indexes';
import * as supportDesk from './migrations/0019-support-desk';
import * as passwordReset from './migrations/0020-password-reset';
import * as listFilters from './migrations/0021-list-filters';
import * as auditBatches from './migrations/0022-audit-batches';
import * as recordVersions from './migrations/0023-record-versions';
import * as auditUndo from './migrations/0024-audit-undo';
import * as savedViews from './migrations/0025-saved-views';
import * as permissionNames from './migrations/0026-permission-names';
import * as webhooks from './migrations/0027-webhooks';
import * as webhookRunsBefore from './migrations/0028-webhook-runs-before';
import * as webhookParked from './migrations/0029-webhook-parked';
import type { Database } from './schema';

/**
 * Every migration, in order. Static imports rather than a folder glob, so the list is the same
 * under tsx, vitest and any bundler. Append new migrations here; never edit an applied one.
 */
export const MIGRATIONS: Readonly<Record<string, Migration>> = {
  '0001-core': core,
  '0002-auth': auth,
  '0003-activity': activity,
  '0004-tenant-search': tenantSearch,
  '0005-two-factor': twoFactor,
  '0006-sheet-keyset-indexes': sheetKeysetIndexes,
  '0007-tenant-search-text': tenantSearchText,
  '0008-alphanumeric-cnpj': alphanumericCnpj,
  '0009-totp-encryption': totpEncryption,
  '0010-unique-names': uniqueNames,
  '0011-tenant-search-lexemes': tenantSearchLexemes,
  '0012-address-throttle': addressThrottle,
  '0013-department-connection-names': departmentConnectionNames,
  '0014-two-factor-enrolment-required': twoFactorEnrolmentRequired,
  '0015-audit-log': auditLog,
  '0016-login-attempt-reservations': loginAttemptReservations,
  '0017-socket-tickets': socketTickets,
  '0018-retention-indexes': retentionIndexes,
  '0019-support-desk': supportDesk,
  '0020-password-reset': passwordReset,
  '0021-list-filters': listFilters,
  '0022-audit-batches': auditBatches,
  '0023-record-versions': recordVersions,
  '0024-audit-undo': auditUndo,
  '0025-saved-views': savedViews,
  '0026-permission-names': permissionNames,
  '0027-webhooks': webhooks,
  '0028-webhook-runs-before': webhookRunsBefore,
  '0029-webhook-parked': webhookParked,
};

const provider: MigrationProvider = {
  getMigrations: () => Promise.resolve({ ...MIGRATIONS }),
};

/**
 * Brings the schema up to date. Idempotent: applied migrations are skipped, and Kysely's lock table
 * keeps two processes starting together from applying the same migration twice.
 *
 * @returns the names of the migrations applied by this call
 * @throws the first migration error, after Kysely rolled it back
 */
export async function migrate(db: Kysely<Database>): Promise<{ applied: string[] }> {
  const migrator = new Migrator({ db, provider });
  const { error, results = [] } = await migrator.migrateToLatest();
  if (error !== undefined) {
    const failed = results.find((r) => r.status === 'Error');
    const cause = error instanceof Error ? error : new Error(String(error));
    throw new Error(`Migration ${failed?.migrationName ?? '(unknown)'} failed: ${cause.message}`, { cause });
  }
  return { applied: results.filter((r) => r.status === 'Success').map((r) => r.migrationName) };
}
