import { startThrowawayPostgres } from '../../../server/src/test-support/postgres';
import { describeConformance } from './suite';

/**
 * The same kit on PostgreSQL (0 schema violations, on PGlite and on PostgreSQL alike): a
 * throwaway cluster this suite starts itself (`TEST_DATABASE_URL` to use an existing server).
 */
describeConformance('PostgreSQL', startThrowawayPostgres);
