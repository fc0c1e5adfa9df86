import { inject } from 'vitest';
import { SHARED_CLUSTER_VARIABLE } from './postgres';

/**
 * Setup file of the `postgres` lane (vitest.config.ts): the cluster its global setup started
 * (server/src/test-support/postgres-lane.setup.ts), where `startThrowawayPostgres()` looks for it.
 */
const cluster = inject('postgresCluster');
if (cluster) process.env[SHARED_CLUSTER_VARIABLE] = cluster;
