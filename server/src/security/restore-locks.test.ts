import { sql } from 'kysely';
import { randomBytes } from 'node:crypto';
import type { TestApp } from '../test-support/app';
import { startAttackApp, type Answer, type AttackApp, type Send } from '../test-support/attack-kit';
import { createTestUser, type TestUser } from '../test-support/users';

/**
 * A restore of a user (the undo of its delete, the undo of a bulk delete of it, the support desk's restore)
 * against a change of that user at the same moment (docs/lists.md, Undo on the server), on the embedded
 * database and on PostgreSQL.
 *
 * On PostgreSQL one undo of a user's delete in about three chaos bursts answered 500 `deadlock detected`.
 * The two orders: the restore locked the user's tenant `FOR UPDATE` (its user limit), then waited for the
 * user; a delete, block or two-factor change of the user held the user and updated its row a second time
 * in its transaction (the record raises the version, server/src/audit/versions.ts), and PostgreSQL checks
 * the foreign key `users.tenant_id` again when a row the transaction itself wrote is updated: a `FOR KEY
 * SHARE` lock on the tenant, which waits for `FOR UPDATE` and for nothing weaker. The restores now lock
 * the tenant `FOR NO KEY UPDATE` (server/src/users/repository.ts `lockTenantForRestore`,
 * server/src/support/repository.ts `lockTenant`): they still run one after the other with a creation and
 * with the tenant's deletion, and a foreign key's check goes through.
 */

describe.each([
  ['PGlite', false],
  ['PostgreSQL', true],
])('%s: a user restored while it is changed', (_label, postgres) => {
  let kit: AttackApp;
  let t: TestApp;
  let staff: { authorization: string };
  let seq = 0;
  const tag = postgres ? 'pg' : 'pl';

  const send: Send = (...args) => kit.send(...args);

  async function subject(tenant: { name: string }): Promise<TestUser> {
    seq += 1;
    return createTestUser(t.db, { email: `restaura-${seq}-${tag}@lists.local`, tenant: tenant.name });
  }

  const deletedAt = async (id: number) =>
    (await t.db.selectFrom('users').select('deleted_at').where('id', '=', id).executeTakeFirstOrThrow()).deleted_at;

  beforeAll(async () => {
    kit = await startAttackApp(postgres);
    ({ t, staff } = kit);
  }, 240_000);

  afterAll(async () => {
    await kit?.stop();
  });

  if (postgres)
    describe('PostgreSQL: the restore waits for the user while the change of it waits for nothing', () => {
      /** Until a statement of this database matching `like` waits for a lock (10 s at most). */
      async function waitingOn(like: string): Promise<void> {
        for (let i = 0; i < 500; i += 1) {
          const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity
            where datname = current_database() and wait_event_type = 'Lock' and query like ${like}`.execute(t.db);
          if ((rows[0]?.n ?? 0) > 0) return;
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        const { rows } = await sql<{ state: string; wait: string | null; query: string }>`select state,
          wait_event_type || ':' || wait_event as wait, left(query, 120) as query from pg_stat_activity
          where datname = current_database() and pid <> pg_backend_pid()`.execute(t.db);
        throw new Error(`no statement like ${like} waited for a lock: ${JSON.stringify(rows)}`);
      }

      type Restorer = (user: TestUser, tenant: { name: string }) => Promise<() => Promise<Answer>>;

      // Each prepares a restore of a live user (the user deleted, then restored by the support desk, so
      // the record of the delete is not undone), to be run while the user is deleted again.
      const restorers: [string, Restorer][] = [
        [
          'the undo of its delete',
          async (user, tenant) => {
            const removed = await send('DELETE', `/api/users/${user.id}?tenantName=${tenant.name}`, staff);
            expect(removed.status, JSON.stringify(removed.body)).toBe(200);
            const record = Number(removed.headers['x-audit-record']);
            expect((await send('POST', `/api/support/users/${user.id}/restore`, staff, {})).status).toBe(200);
            return () => send('POST', `/api/audit/${record}/undo`, staff);
          },
        ],
        [
          'the undo of a bulk delete of it',
          async (user, tenant) => {
            const run = await send('POST', `/api/users/bulk?tenantName=${tenant.name}`, staff, {
              action: 'delete',
              ids: [user.id],
              dry_run: false,
            });
            expect(run.status, JSON.stringify(run.body)).toBe(200);
            expect((await send('POST', `/api/support/users/${user.id}/restore`, staff, {})).status).toBe(200);
            return () => send('POST', `/api/audit/${String(run.body.batch_id)}/undo`, staff);
          },
        ],
        [
          "the support desk's restore",
          async (user) => async () => send('POST', `/api/support/users/${user.id}/restore`, staff, {}),
        ],
      ];

      it.each(restorers)(
        '%s while a delete of the user holds it and writes it twice: both 200, the user restored',
        async (_name, prepare) => {
          const tenant = await kit.createTenant(`restaura-${seq}-${tag}`, 50);
          const user = await subject(tenant);
          const restore = await prepare(user, tenant);
          // A reset link of the user, held by this test: the delete stops at voiding it, after its first
          // write of the user's row and before its second (the record's version).
          await t.db
            .insertInto('password_reset_tokens')
            .values({
              user_id: user.id,
              token_hash: randomBytes(16).toString('hex'),
              expires_at: new Date(Date.now() + 3_600_000),
            })
            .execute();
          let release!: () => void;
          const released = new Promise<void>((resolve) => {
            release = resolve;
          });
          let locked!: () => void;
          const lockHeld = new Promise<void>((resolve) => {
            locked = resolve;
          });
          const held = t.db.transaction().execute(async (trx) => {
            await trx
              .selectFrom('password_reset_tokens')
              .select('id')
              .where('user_id', '=', user.id)
              .forUpdate()
              .execute();
            locked();
            await released;
          });
          // The link is held before the delete starts, else the delete might void it first and never stop.
          await lockHeld;
          try {
            const removal = send('DELETE', `/api/users/${user.id}?tenantName=${tenant.name}`, staff);
            await waitingOn('update "password_reset_tokens"%');
            const restored = restore();
            // The restore holds the tenant and waits for the user.
            await waitingOn('select%from "users"%for update');
            release();
            await held;
            const [removed, back] = await Promise.all([removal, restored]);
            expect(removed.status, JSON.stringify(removed.body)).toBe(200);
            expect(back.status, JSON.stringify(back.body)).toBe(200);
            expect(await deletedAt(user.id)).toBeNull();
          } finally {
            release();
            await held;
          }
        },
        60_000,
      );
    });

  it('a burst of undos of deletes, bulk runs, saves, a feature change and its tenant deleted and restored: no 5xx, no failed row', async () => {
    const tenant = await kit.createTenant(`restaura-caos-${tag}`, 500);
    const others: TestUser[] = [];
    for (let i = 0; i < 4; i += 1) others.push(await subject(tenant));
    const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    for (let round = 0; round < 8; round += 1) {
      // Four users deleted, two of them restored by the support desk: the undo of each delete locks the
      // tenant and then its user, whom the bulk runs below change at the same moment when it is live.
      const users: TestUser[] = [];
      const deletes: number[] = [];
      for (let i = 0; i < 4; i += 1) {
        const user = await subject(tenant);
        users.push(user);
        const removed = await send('DELETE', `/api/users/${user.id}?tenantName=${tenant.name}`, staff);
        expect(removed.status, JSON.stringify(removed.body)).toBe(200);
        deletes.push(Number(removed.headers['x-audit-record']));
        if (i % 2 === 0)
          expect((await send('POST', `/api/support/users/${user.id}/restore`, staff, {})).status).toBe(200);
      }
      const ids = [...users, ...others].map((u) => u.id);
      const jobs: [string, () => Promise<Answer>][] = [
        ...deletes.map((record, i): [string, () => Promise<Answer>] => [
          `undo of delete ${i}`,
          () => send('POST', `/api/audit/${record}/undo`, staff),
        ]),
        [
          'bulk block',
          () =>
            send('POST', `/api/users/bulk?tenantName=${tenant.name}`, staff, {
              action: round % 2 === 0 ? 'unblock' : 'block',
              ids: [...ids].reverse(),
              dry_run: false,
            }),
        ],
        [
          'bulk two-factor',
          () =>
            send('POST', `/api/users/bulk?tenantName=${tenant.name}`, staff, {
              action: 'require_two_factor',
              ids,
              dry_run: false,
            }),
        ],
        ['save', () => send('PUT', `/api/users/${users[0]?.id}`, staff, { name: `Caos ${round}` })],
        ['save of another', () => send('PUT', `/api/users/${others[0]?.id}`, staff, { name: `Outro ${round}` })],
        [
          'feature',
          () =>
            send('POST', '/api/tenant/feature', staff, {
              option: 'chat',
              enabled: round % 2 === 0,
              tenantName: tenant.name,
            }),
        ],
        [
          'tenant deleted',
          async () => (await pause(round % 5), send('POST', '/api/tenant/delete', staff, { id: tenant.id })),
        ],
        [
          'tenant restored',
          async () => (await pause(5), send('POST', '/api/tenant/restore', staff, { id: tenant.id })),
        ],
      ];
      const answers = await Promise.all(jobs.map(([, job]) => job()));
      for (const [i, answer] of answers.entries()) {
        const what = `round ${round}, ${jobs[i]?.[0] ?? ''}: ${JSON.stringify(answer.body)}`;
        // Each answers as documented: 200, 404 (its tenant deleted meanwhile) or 409 (a conflict, already
        // undone, not deleted); a bulk run 200 with each row's outcome, none failed.
        expect([200, 404, 409], what).toContain(answer.status);
        const rows = (answer.body.results ?? []) as { outcome: string }[];
        expect(
          rows.filter((row) => row.outcome === 'failed'),
          what,
        ).toEqual([]);
      }
      // Each record undone at most once, whatever ran at the same time.
      const undos = await t.db.selectFrom('audit_log').select('undo_of').where('undo_of', 'in', deletes).execute();
      expect(new Set(undos.map((u) => u.undo_of)).size).toBe(undos.length);
      await send('POST', '/api/tenant/restore', staff, { id: tenant.id });
    }
  }, 240_000);
});
