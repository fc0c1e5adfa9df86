import { createHash } from 'node:crypto';
import { NO_ORIGIN, type Actor } from '../access/caller';
import { startTestApp, type TestApp } from '../test-support/app';
import { startThrowawayPostgres, type ThrowawayPostgres } from '../test-support/postgres';
import { createTestUser } from '../test-support/users';
import { loadActor } from './actor';
import { createSocketTickets, sessionStates, type SocketSession } from './socket-tickets';

/**
 * Socket tickets (server/src/auth/socket-tickets.ts) and the session check of sockets, on PGlite and on
 * PostgreSQL (a pool: redeems of one ticket really race). Through two processes:
 * server/src/plugins/event-relay.test.ts.
 */
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe.each([
  ['PGlite', false],
  ['PostgreSQL', true],
])('socket tickets on %s', (_label, postgres) => {
  let cluster: ThrowawayPostgres | undefined;
  let t: TestApp;
  let tickets: ReturnType<typeof createSocketTickets>;
  let users = 0;

  beforeAll(async () => {
    if (postgres) cluster = await startThrowawayPostgres();
    t = await startTestApp({ ...(cluster ? { databaseUrl: cluster.url } : {}), seed: { days: 1 } });
    tickets = createSocketTickets(t.db, { socketTicketTtl: 30 });
  }, 240_000);

  afterAll(async () => {
    await t?.close();
    await cluster?.stop();
  });

  /** A fresh user of farmacia-central with one session: its actor (as the REST door builds it). */
  async function freshActor(): Promise<Actor> {
    users += 1;
    const user = await createTestUser(t.db, { email: `ticket.${users}@demo.local`, tenant: 'farmacia-central' });
    const { token } = await t.app.tokens.issue(user.id, 0);
    const verified = await t.app.tokens.verify(token);
    if (!verified.ok) throw new Error('a fresh token did not verify');
    const actor = await loadActor(t.db, user.id, verified.claims, NO_ORIGIN);
    if (!actor) throw new Error('no actor');
    return actor;
  }

  it("redeems a ticket once, into the session it was issued for (user, family, token's tv, exp and rxp)", async () => {
    const actor = await freshActor();
    const { ticket, expiresIn } = await tickets.issue(actor);
    expect(expiresIn).toBe(30);
    const expected: SocketSession = {
      userId: actor.userId,
      familyId: actor.claims.fam,
      tokenVersion: actor.claims.tv,
      tokenExpiresAt: actor.claims.exp * 1000,
      refreshUntil: actor.claims.rxp * 1000,
    };
    expect(await tickets.redeem(ticket)).toEqual(expected);
    expect(await tickets.redeem(ticket)).toBeNull();
  });

  it('of 16 redeems of one ticket at once, exactly one gets the session', async () => {
    const actor = await freshActor();
    const { ticket } = await tickets.issue(actor);
    const answers = await Promise.all(Array.from({ length: 16 }, () => tickets.redeem(ticket)));
    expect(answers.filter((a) => a !== null)).toHaveLength(1);
  });

  it('refuses an expired ticket, a malformed one and none; the purge deletes expired tickets only', async () => {
    const actor = await freshActor();
    const [expired, kept] = [await tickets.issue(actor), await tickets.issue(actor)];
    const expiredToo = await createSocketTickets(t.db, { socketTicketTtl: 1 }).issue(actor);
    await t.db
      .updateTable('socket_tickets')
      .set({ expires_at: new Date(Date.now() - 1) })
      .where('hash', 'in', [sha256(expired.ticket), sha256(expiredToo.ticket)])
      .execute();
    expect(await tickets.redeem(expiredToo.ticket)).toBeNull();
    expect(await tickets.purgeExpired()).toBe(1);
    const left = await t.db.selectFrom('socket_tickets').select('hash').where('user_id', '=', actor.userId).execute();
    expect(left).toEqual([{ hash: sha256(kept.ticket) }]);
    for (const bad of [null, '', 'short', `${kept.ticket}x`, `*${kept.ticket.slice(1)}`])
      expect(await tickets.redeem(bad)).toBeNull();
    expect(await tickets.redeem(expired.ticket)).toBeNull();
    expect(await tickets.redeem(kept.ticket)).not.toBeNull();
  });

  it("tells a live session from a dead one: family revoked, user blocked or deleted, token_version bumped, the user's tenant deleted, refresh window over", async () => {
    const sessionOf = async (): Promise<SocketSession & { actor: Actor }> => {
      const actor = await freshActor();
      return {
        actor,
        userId: actor.userId,
        familyId: actor.claims.fam,
        tokenVersion: actor.claims.tv,
        tokenExpiresAt: actor.claims.exp * 1000,
        refreshUntil: actor.claims.rxp * 1000,
      };
    };
    const [live, revoked, blocked, deleted, bumped, windowOver] = [
      await sessionOf(),
      await sessionOf(),
      await sessionOf(),
      await sessionOf(),
      await sessionOf(),
      await sessionOf(),
    ];
    await t.db
      .updateTable('token_families')
      .set({ revoked_at: new Date() })
      .where('id', '=', revoked.familyId)
      .execute();
    await t.db.updateTable('users').set({ blocked: true }).where('id', '=', blocked.userId).execute();
    await t.db.updateTable('users').set({ deleted_at: new Date() }).where('id', '=', deleted.userId).execute();
    await t.db.updateTable('users').set({ token_version: 1 }).where('id', '=', bumped.userId).execute();
    const unknown = { ...live, familyId: 'no-such-family' };
    const states = await sessionStates(t.db, [
      live,
      revoked,
      blocked,
      deleted,
      bumped,
      { ...windowOver, refreshUntil: Date.now() - 1 },
      unknown,
    ]);
    const alive = (s: SocketSession) => states.get(s.familyId)?.alive;
    expect([live, revoked, blocked, deleted, bumped, windowOver].map(alive)).toEqual([
      true,
      false,
      false,
      false,
      false,
      false,
    ]);
    expect(states.has('no-such-family')).toBe(false);
    expect(states.get(live.familyId)).toMatchObject({
      userId: live.userId,
      tenantId: live.actor.tenantId,
      tenantName: 'farmacia-central',
      roleId: live.actor.roleId,
      role: 'operador',
      originBackoffice: false,
    });

    // The user's tenant deleted: every session of its users is dead.
    await t.db.updateTable('tenants').set({ deleted_at: new Date() }).where('id', '=', live.actor.tenantId).execute();
    try {
      expect((await sessionStates(t.db, [live])).get(live.familyId)?.alive).toBe(false);
    } finally {
      await t.db.updateTable('tenants').set({ deleted_at: null }).where('id', '=', live.actor.tenantId).execute();
    }
    expect((await sessionStates(t.db, [live])).get(live.familyId)?.alive).toBe(true);
  });
});
