import pg from 'pg';
import { SHARED_CLUSTER_VARIABLE, startThrowawayPostgres } from './postgres';

async function query(url: string, sql: string): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(sql);
  } finally {
    await client.end();
  }
}

// The postgres lane starts one cluster (server/src/test-support/postgres-lane.setup.ts); each caller
// gets a database of its own in it, as separate from the others as a cluster of its own would be.
const external = process.env.TEST_DATABASE_URL;

// With TEST_DATABASE_URL (README.md), every caller but an outage test gets that server as it is.
if (external)
  it('hands TEST_DATABASE_URL as it is to callers without { own: true }', async () => {
    const db = await startThrowawayPostgres();
    expect(db.url).toBe(external);
    await db.stop();
    expect((await query(external, 'select 1 as one')).rows[0].one).toBe(1);
  });
else
  describe('startThrowawayPostgres in the postgres lane', () => {
    it('gives each caller an empty database of its own in the lane cluster, and drops it on stop', async () => {
      const cluster = process.env[SHARED_CLUSTER_VARIABLE];
      expect(cluster).toMatch(/^postgres:\/\/postgres@127\.0\.0\.1:\d+\/postgres$/);
      const [a, b] = await Promise.all([startThrowawayPostgres(), startThrowawayPostgres()]);
      try {
        expect(new URL(a.url).host).toBe(new URL(cluster!).host);
        expect(new URL(b.url).host).toBe(new URL(cluster!).host);
        expect(a.url).not.toBe(b.url);
        await query(a.url, 'create table only_in_a (id int)');
        const inB = await query(b.url, "select count(*)::int as n from pg_tables where tablename = 'only_in_a'");
        expect(inB.rows[0].n).toBe(0);
        await expect(a.pause()).rejects.toThrow(/own: true/);
      } finally {
        await a.stop();
        await b.stop();
      }
      const name = new URL(a.url).pathname.slice(1);
      const left = await query(cluster!, `select count(*)::int as n from pg_database where datname = '${name}'`);
      expect(left.rows[0].n).toBe(0);
    });

    it('drops a database that still has connections open', async () => {
      const db = await startThrowawayPostgres();
      const client = new pg.Client({ connectionString: db.url });
      await client.connect();
      client.on('error', () => undefined);
      await db.stop();
      await expect(client.query('select 1')).rejects.toThrow();
      await client.end().catch(() => undefined);
    });

    it('with { own: true } starts a cluster of its own, which pauses and resumes', async () => {
      const own = await startThrowawayPostgres({ own: true });
      try {
        expect(new URL(own.url).port).not.toBe(new URL(process.env[SHARED_CLUSTER_VARIABLE]!).port);
        await own.pause();
        await expect(query(own.url, 'select 1')).rejects.toThrow();
        await own.resume();
        expect((await query(own.url, 'select 1 as one')).rows[0].one).toBe(1);
      } finally {
        await own.stop();
      }
    });
  });
