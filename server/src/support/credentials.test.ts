import { anonymous, type Actor } from '../access/caller';
import { loadConfig } from '../base/config';
import { DomainError } from '../base/domain-error';
import { startMailbox, type Mailbox } from '../mail/mailbox';
import { createMailer, disabledMailer, type Mailer } from '../mail/mailer';
import { createServices, type Services } from '../services';
import { startTestApp, type TestApp } from '../test-support/app';
import { startThrowawayPostgres, type ThrowawayPostgres } from '../test-support/postgres';
import { createTestRole, createTestUser, TEST_PASSWORD } from '../test-support/users';

/**
 * The desk's temporary password and reset link (docs/support-desk.md) on PGlite and PostgreSQL: who may
 * (staff with `users`, on people they may act on, never themselves), what changes, what is recorded.
 * Called on the services (server/src/services.ts) as the REST handlers will be once the desk's contract
 * entries exist (server/src/rest/password-reset.ts).
 */
const TEMPORARY = 'Temp#Senha!2026';

describe.each([
  ['PGlite', false],
  ['PostgreSQL', true],
])('support credentials on %s', (_label, postgres) => {
  let cluster: ThrowawayPostgres | undefined;
  let t: TestApp;
  let mailbox: Mailbox;
  let mailer: Mailer;
  let services: Services;
  let withoutMail: Services;
  let n = 0;
  const ids = { staffNoUsers: 0, customerAdmin: 0, staffEditor: 0 };

  beforeAll(async () => {
    if (postgres) cluster = await startThrowawayPostgres();
    t = await startTestApp({ seed: { days: 1 }, ...(cluster ? { databaseUrl: cluster.url } : {}) });
    mailbox = await startMailbox();
    mailer = await createMailer({
      smtpUrl: `smtp://127.0.0.1:${String(mailbox.port)}`,
      mailFrom: 'a@example.com',
      production: true,
    });
    const config = loadConfig({ publicUrl: 'https://painel.example.com' });
    const base = { db: t.db, config, tokens: t.app.tokens, events: t.app.events };
    services = createServices({ ...base, mailer });
    withoutMail = createServices({ ...base, mailer: disabledMailer });
    await createTestRole(t.db, 'support_tenants', ['tenants']);
    await createTestRole(t.db, 'support_users', ['users']);
    ids.staffNoUsers = (
      await createTestUser(t.db, {
        email: 'staff-tenants@support.local',
        tenant: 'backoffice',
        role: 'support_tenants',
      })
    ).id;
    ids.staffEditor = (
      await createTestUser(t.db, { email: 'staff-users@support.local', tenant: 'backoffice', role: 'support_users' })
    ).id;
    const customer = await t.db
      .selectFrom('tenants')
      .select('name')
      .where('name', '<>', 'backoffice')
      .where('deleted_at', 'is', null)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    ids.customerAdmin = (
      await createTestUser(t.db, {
        email: 'admin@cliente.support.local',
        tenant: customer.name,
        role: 'administrador',
        originBackoffice: false,
      })
    ).id;
  }, 240_000);

  afterAll(async () => {
    await mailer?.close();
    await mailbox?.close();
    await t?.close();
    await cluster?.stop();
  });

  async function actorOf(email: string, password = TEST_PASSWORD): Promise<Actor> {
    const session = await services.auth.signIn(anonymous(), {
      email,
      password,
      ip: null,
      remoteAddress: '10.40.0.1',
      origin: { requestId: 'test', address: '10.40.0.1' },
    });
    return services.auth.authenticate(anonymous(), session.token);
  }
  const admin = () => actorOf('admin@demo.local', 'Back#Office!Demo');

  async function person(role = 'operador') {
    n += 1;
    const user = await createTestUser(t.db, { email: `person-${String(n)}@support.local`, tenant: 'backoffice', role });
    const session = await services.auth.signIn(anonymous(), {
      email: user.email,
      password: TEST_PASSWORD,
      ip: null,
      remoteAddress: '10.41.0.1',
      origin: { requestId: null, address: null },
    });
    return { ...user, token: session.token };
  }

  async function refusal(promise: Promise<unknown>): Promise<{ kind: string; code?: string; field?: string }> {
    const error = await promise.then(
      () => null,
      (e: unknown) => e,
    );
    if (!(error instanceof DomainError)) throw new Error(`expected a refusal, got ${String(error)}`);
    return {
      kind: error.kind,
      ...(error.details.code ? { code: error.details.code } : {}),
      ...(error.field ? { field: error.field } : {}),
    };
  }

  const alive = async (token: string) =>
    services.auth.authenticate(anonymous(), token).then(
      () => true,
      () => false,
    );

  it('a temporary password: set, every session ended, asked to change at sign-in, recorded', async () => {
    const actor = await admin();
    const target = await person();
    expect(await services.supportCredentials.temporaryPassword(actor, target.id, { password: TEMPORARY })).toEqual({
      mustChangePassword: true,
    });
    expect(await alive(target.token)).toBe(false);
    const signIn = services.auth.signIn(anonymous(), {
      email: target.email,
      password: TEMPORARY,
      ip: null,
      remoteAddress: '10.42.0.1',
      origin: { requestId: null, address: null },
    });
    expect(await refusal(signIn)).toEqual({ kind: 'password_change_required' });
    const records = await t.db
      .selectFrom('audit_log')
      .select(['actor_user_id', 'tenant_id', 'target_name', 'changes'])
      .where('operation', '=', 'user.password')
      .where('target_id', '=', target.id)
      .execute();
    expect(records).toEqual([
      {
        actor_user_id: actor.userId,
        tenant_id: target.tenantId,
        target_name: expect.any(String),
        changes: [{ field: 'temporary', before: 'false', after: 'true' }],
      },
    ]);
  });

  it('refuses a weak temporary password, changing nothing', async () => {
    const target = await person();
    expect(
      await refusal(services.supportCredentials.temporaryPassword(await admin(), target.id, { password: '12345678' })),
    ).toEqual({
      kind: 'invalid',
      field: 'password',
    });
    expect(await alive(target.token)).toBe(true);
  });

  it('never on one’s own account, never by non-staff or staff without users, never above the caller', async () => {
    const actor = await admin();
    expect(
      await refusal(services.supportCredentials.temporaryPassword(actor, actor.userId, { password: TEMPORARY })),
    ).toEqual({
      kind: 'conflict',
      code: 'own_account',
    });
    expect(await refusal(services.supportCredentials.resetLink(actor, actor.userId))).toEqual({
      kind: 'conflict',
      code: 'own_account',
    });
    const target = await person();
    const customer = await actorOf('admin@cliente.support.local');
    const tenantsOnly = await actorOf('staff-tenants@support.local');
    for (const who of [customer, tenantsOnly]) {
      expect(
        (await refusal(services.supportCredentials.temporaryPassword(who, target.id, { password: TEMPORARY }))).kind,
      ).toBe('forbidden');
      expect((await refusal(services.supportCredentials.resetLink(who, target.id))).kind).toBe('forbidden');
    }
    // Staff holding `users` only may not act on an administrador.
    const editor = await actorOf('staff-users@support.local');
    const administrador = await person('administrador');
    expect(
      (await refusal(services.supportCredentials.temporaryPassword(editor, administrador.id, { password: TEMPORARY })))
        .kind,
    ).toBe('forbidden');
    expect((await refusal(services.supportCredentials.resetLink(editor, administrador.id))).kind).toBe('forbidden');
    expect(await alive(administrador.token)).toBe(true);
    // …nor on someone holding what it lacks (an operador's dashboards), but on a peer it may.
    expect((await refusal(services.supportCredentials.resetLink(editor, target.id))).kind).toBe('forbidden');
    const peer = await person('support_users');
    expect(await services.supportCredentials.temporaryPassword(editor, peer.id, { password: TEMPORARY })).toEqual({
      mustChangePassword: true,
    });
    expect((await refusal(services.supportCredentials.resetLink(actor, 99_999_999))).kind).toBe('not_found');
  });

  it('a reset link: mailed to the person, not counted against its hourly links, older ones voided, recorded', async () => {
    const actor = await admin();
    const target = await person();
    const sent = [];
    for (let i = 0; i < 4; i += 1) sent.push(await services.supportCredentials.resetLink(actor, target.id));
    for (const answer of sent) {
      expect(answer.sent).toBe(true);
      const minutes = (Date.parse(answer.expires_at) - Date.now()) / 60_000;
      expect(minutes).toBeGreaterThan(29);
      expect(minutes).toBeLessThanOrEqual(30);
    }
    const mails = mailbox.messages().filter((m) => m.recipients.includes(target.email));
    expect(mails).toHaveLength(4);
    expect(mails[0]?.text).toMatch(
      /https:\/\/painel\.example\.com\/backoffice\/reset-password#token=[A-Za-z0-9_-]{86}/,
    );
    const links = await t.db
      .selectFrom('password_reset_tokens')
      .select(['voided_at', 'requested_address'])
      .where('user_id', '=', target.id)
      .execute();
    expect(links.filter((l) => l.voided_at === null)).toHaveLength(1);
    expect(links.every((l) => l.requested_address === null)).toBe(true);
    const records = await t.db
      .selectFrom('audit_log')
      .select(['actor_user_id', 'tenant_id'])
      .where('operation', '=', 'user.reset-link')
      .where('target_id', '=', target.id)
      .execute();
    expect(records).toHaveLength(4);
    expect(records[0]).toEqual({ actor_user_id: actor.userId, tenant_id: target.tenantId });
    // A temporary password voids the link that is left.
    await services.supportCredentials.temporaryPassword(actor, target.id, { password: TEMPORARY });
    const after = await t.db
      .selectFrom('password_reset_tokens')
      .select('voided_at')
      .where('user_id', '=', target.id)
      .execute();
    expect(after.filter((l) => l.voided_at === null)).toHaveLength(0);
  });

  it('says why no link can be sent: no mail, a blocked person', async () => {
    const actor = await admin();
    const target = await person();
    expect(await refusal(withoutMail.supportCredentials.resetLink(actor, target.id))).toEqual({
      kind: 'mail_disabled',
    });
    // The person page says so before anyone presses the button, and says it can when it can.
    expect((await withoutMail.support.person(actor, target.id)).resetLinks).toEqual({ enabled: false });
    expect((await services.support.person(actor, target.id)).resetLinks).toEqual({ enabled: true });
    await t.db.updateTable('users').set({ blocked: true }).where('id', '=', target.id).execute();
    expect(await refusal(services.supportCredentials.resetLink(actor, target.id))).toEqual({
      kind: 'conflict',
      code: 'blocked',
    });
    expect(
      await t.db.selectFrom('password_reset_tokens').select('id').where('user_id', '=', target.id).execute(),
    ).toEqual([]);
  });

  // Races need a pool of connections: PostgreSQL only (PGlite has one connection).
  if (postgres) {
    it('a burst of links sent by staff leaves one live link, the newest; a burst of temporary passwords, no 5xx', async () => {
      const actor = await admin();
      const target = await person();
      const N = 6;
      const sent = await Promise.allSettled(
        Array.from({ length: N }, () => services.supportCredentials.resetLink(actor, target.id)),
      );
      expect(sent.map((s) => s.status)).toEqual(Array.from({ length: N }, () => 'fulfilled'));
      const links = await t.db
        .selectFrom('password_reset_tokens')
        .select(['id', 'voided_at'])
        .where('user_id', '=', target.id)
        .orderBy('id')
        .execute();
      expect(links).toHaveLength(N);
      // "A newer link voids the older ones" holds when they race too: only the last one issued lives.
      expect(links.filter((l) => l.voided_at === null).map((l) => l.id)).toEqual([links[N - 1]?.id]);

      const temporary = await Promise.allSettled(
        Array.from({ length: N }, (_v, i) =>
          services.supportCredentials.temporaryPassword(actor, target.id, { password: `${TEMPORARY}-${String(i)}` }),
        ),
      );
      expect(temporary.map((s) => s.status)).toEqual(Array.from({ length: N }, () => 'fulfilled'));
      expect(
        await t.db
          .selectFrom('password_reset_tokens')
          .select('id')
          .where('user_id', '=', target.id)
          .where('voided_at', 'is', null)
          .execute(),
      ).toEqual([]);
    });
  }
});
