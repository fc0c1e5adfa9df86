import { defineParitySuite } from '../test-support/parity-suite';
import { startThrowawayPostgres } from '../test-support/postgres';

/**
 * REST ↔ GraphQL differential suite on PostgreSQL (server/src/test-support/parity-suite.ts): one
 * throwaway cluster (or TEST_DATABASE_URL), the two twins in two schemas of it.
 */
defineParitySuite('postgres', () => startThrowawayPostgres());
