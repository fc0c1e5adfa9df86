import { loadConfig } from '../base/config';
import { startTestApp, type TestApp } from '../test-support/app';
import { validateResponse } from '../test-support/contract';
import { startThrowawayPostgres, type ThrowawayPostgres } from '../test-support/postgres';
import { createTestUser, TEST_PASSWORD } from '../test-support/users';
import { startMailbox, type Mailbox, type ReceivedMessage } from '../mail/mailbox';
import { LINKS_PER_ACCOUNT_PER_HOUR, REQUEST_ANSWER, REQUESTS_PER_ADDRESS_PER_HOUR } from './password-reset';

/**
 * Reset links by e-mail through the public REST operations (docs/support-desk.md, Forgot password), on
 * PGlite and PostgreSQL: the server sends real mail through SMTP (SMTP_URL) to a receiver this test
 * starts, and the link is read out of the message's text part. Races on PostgreSQL (a pool: real
 * concurrency): two confirms of one link, a burst from one address, a burst for one account.
 */
const PUBLIC_URL = 'https://painel.example.com';
const NEW_PASSWORD = 'Nova#Senha!2026';

describe.each([
  ['PGlite', false],
  ['PostgreSQL', true],
])('reset links on %s', (_label, postgres) => {
  let cluster: ThrowawayPostgres | undefined;
  let mailbox: Mailbox;
  let t: TestApp;
  let n = 0;

  beforeAll(async () => {
    if (postgres) cluster = await startThrowawayPostgres();
    mailbox = await startMailbox();
    t = await startTestApp({
      seed: { days: 1 },
      ...(cluster ? { databaseUrl: cluster.url } : {}),
      config: { smtpUrl: `smtp://127.0.0.1:${String(mailbox.port)}`, publicUrl: PUBLIC_URL, production: true },
    });
  }, 240_000);

  afterAll(async () => {
    await t?.close();
    await mailbox?.close();
    await cluster?.stop();
  });

  /** A fresh user of the back-office tenant and an address of its own (own counters). */
  async function freshUser(tenant = 'backoffice') {
    n += 1;
    const user = await createTestUser(t.db, {
      email: `reset-${String(n)}-${postgres ? 'pg' : 'pgl'}@demo.local`,
      tenant,
    });
    return { ...user, address: `10.20.${String(n)}.1` };
  }

  async function call(method: 'GET' | 'POST', url: string, operationId: string, body?: unknown, address = '10.99.0.1') {
    const response = await t.app.fastify.inject({
      method,
      url,
      remoteAddress: address,
      ...(body === undefined ? {} : { payload: body as Record<string, unknown> }),
    });
    const json: unknown = response.json();
    expect(validateResponse(operationId, response.statusCode, json).errors, response.body).toEqual([]);
    return { status: response.statusCode, body: json as Record<string, unknown>, headers: response.headers };
  }

  const ask = (email: string, address: string, locale?: string) =>
    call(
      'POST',
      '/api/auth/password-reset/request',
      'passwordResetRequest',
      { email, ...(locale ? { locale } : {}) },
      address,
    );
  const confirm = (token: string, password = NEW_PASSWORD) =>
    call('POST', '/api/auth/password-reset/confirm', 'passwordResetConfirm', { token, password });
  const signIn = (email: string, password: string) =>
    call('POST', '/api/auth/login', 'authLogin', { email, password, ip: null }, '10.98.0.1');

  /** The link of a message, read from its text part, and its token. */
  function linkOf(message: ReceivedMessage): { link: string; token: string } {
    const link = /(https:\/\/\S+#token=([A-Za-z0-9_-]+))/.exec(message.text ?? '');
    if (!link?.[1] || !link[2]) throw new Error(`no link in the text part: ${message.text ?? '(none)'}`);
    return { link: link[1], token: link[2] };
  }

  const mailsTo = (email: string) => mailbox.messages().filter((m) => m.recipients.includes(email));
  const nextTo = (email: string, after = 0) => mailbox.next((m) => m.recipients.includes(email) && m.id > after);
  const newest = () => mailbox.messages()[0]?.id ?? 0;

  it('says reset links can be sent', async () => {
    expect((await call('GET', '/api/auth/password-reset', 'passwordResetStatus')).body).toEqual({ enabled: true });
  });

  it('sends a real e-mail whose link sets the password once: sessions end, the requirement goes, the user signs in', async () => {
    const user = await freshUser();
    const session = (await signIn(user.email, TEST_PASSWORD)).body.access_token as string;
    await t.db.updateTable('users').set({ must_change_password: true }).where('id', '=', user.id).execute();
    const before = newest();
    const asked = await ask(user.email.toUpperCase(), user.address, 'en');
    expect(asked).toMatchObject({ status: 202, body: { message: REQUEST_ANSWER.en } });
    const message = await nextTo(user.email, before);
    expect(message.subject).toBe('Reset your panel password');
    expect(message.html).toContain('#token=');
    const { link, token } = linkOf(message);
    expect(link).toBe(`${PUBLIC_URL}/backoffice/reset-password#token=${token}`);

    const weak = await confirm(token, 'abcdefgh');
    expect(weak.status).toBe(400);
    expect(weak.body.errors).toEqual([{ field: 'body/password', message: expect.stringMatching(/weak/) }]);
    expect(weak.body.error).toBeUndefined();

    expect(await confirm(token)).toEqual({
      status: 200,
      body: { message: 'Password changed' },
      headers: expect.anything(),
    });
    const me = await t.app.fastify.inject({
      method: 'GET',
      url: '/api/auth/userInfo',
      headers: { authorization: `Bearer ${session}` },
    });
    expect(me.statusCode).toBe(401);
    const row = await t.db
      .selectFrom('users')
      .select('must_change_password')
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(row.must_change_password).toBe(false);
    expect((await signIn(user.email, TEST_PASSWORD)).status).toBe(401);
    expect((await signIn(user.email, NEW_PASSWORD)).status).toBe(200);

    const again = await confirm(token, 'Outra#Senha!2027');
    expect(again.status).toBe(400);
    expect(again.body.error).toBe('reset_link_invalid');
    const records = await t.db
      .selectFrom('audit_log')
      .select(['actor_user_id', 'changes'])
      .where('operation', '=', 'user.password')
      .where('target_id', '=', user.id)
      .execute();
    expect(records).toEqual([
      {
        actor_user_id: user.id,
        changes: [
          { field: 'reset_link', before: null, after: 'true' },
          { field: 'temporary', before: 'true', after: 'false' },
        ],
      },
    ]);
  });

  it("lifts the throttle on the person's account, and only on it", async () => {
    // LOGIN_MAX_FAILURES as the app loaded it (server/src/base/config.ts).
    const LIMIT = loadConfig().loginMaxFailures;
    const person = await freshUser();
    const neighbour = await freshUser();
    const address = '10.97.0.1';
    const failFrom = (email: string) =>
      call('POST', '/api/auth/login', 'authLogin', { email, password: 'Not#The!Password9', ip: null }, address);
    for (let i = 0; i < LIMIT; i += 1) expect((await failFrom(person.email)).status).toBe(401);
    for (let i = 0; i < 2; i += 1) expect((await failFrom(neighbour.email)).status).toBe(401);
    expect((await failFrom(person.email)).status).toBe(429);

    const before = newest();
    await ask(person.email, person.address);
    expect((await confirm(linkOf(await nextTo(person.email, before)).token)).status).toBe(200);

    const signedIn = await call(
      'POST',
      '/api/auth/login',
      'authLogin',
      { email: person.email, password: NEW_PASSWORD, ip: null },
      address,
    );
    expect(signedIn.status).toBe(200);
    const lifted = await t.db
      .selectFrom('login_attempts')
      .select([
        'email',
        (eb) => eb.fn.count<number>('id').as('n'),
        (eb) => eb.fn.count<number>('lifted_at').as('lifted'),
      ])
      .where('email', 'in', [person.email, neighbour.email])
      .where('reason', '=', 'wrong_password')
      .groupBy('email')
      .orderBy('email')
      .execute();
    expect(Object.fromEntries(lifted.map((r) => [r.email, { n: Number(r.n), lifted: Number(r.lifted) }]))).toEqual({
      [person.email]: { n: LIMIT, lifted: LIMIT },
      [neighbour.email]: { n: 2, lifted: 0 },
    });
  });

  it('answers an unknown, blocked or closed-company e-mail exactly alike, and sends them nothing', async () => {
    const known = await freshUser();
    const blocked = await freshUser();
    await t.db.updateTable('users').set({ blocked: true }).where('id', '=', blocked.id).execute();
    const before = newest();
    const answers = [
      await ask('nobody-here@demo.local', '10.21.0.1'),
      await ask(blocked.email, '10.21.0.2'),
      await ask(known.email, '10.21.0.3'),
    ];
    expect(new Set(answers.map((a) => JSON.stringify([a.status, a.body]))).size).toBe(1);
    expect(answers[0]?.body).toEqual({ message: REQUEST_ANSWER['pt-BR'] });
    // The known user's mail was sent after the others were decided: by then they would have been too.
    const message = await nextTo(known.email, before);
    expect(message.subject).toBe('Redefinição de senha do painel');
    expect(
      mailbox
        .messages()
        .filter((m) => m.id > before)
        .map((m) => m.recipients),
    ).toEqual([[known.email]]);
  });

  it('one answer for a used, expired, voided, unknown or forged link', async () => {
    const user = await freshUser();
    let mark = newest();
    await ask(user.email, user.address);
    const first = linkOf(await nextTo(user.email, mark)).token;
    mark = newest();
    await ask(user.email, user.address);
    const second = linkOf(await nextTo(user.email, mark)).token;
    const refused = async (token: string) => {
      const answer = await confirm(token);
      expect(answer.status).toBe(400);
      return answer.body;
    };
    // The newer link voided the older one.
    const voided = await refused(first);
    await t.db
      .updateTable('password_reset_tokens')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('user_id', '=', user.id)
      .where('voided_at', 'is', null)
      .execute();
    const expired = await refused(second);
    const forged = await refused(`${second.slice(0, 80)}AAAAAA`);
    const garbage = await refused('not-a-token');
    expect(voided).toMatchObject({ error: 'reset_link_invalid', errors: [{ field: 'body/token' }] });
    for (const body of [expired, forged, garbage]) expect(body).toEqual(voided);
  });

  it(`sends at most ${String(LINKS_PER_ACCOUNT_PER_HOUR)} links an hour per account, answering the same`, async () => {
    const user = await freshUser();
    const before = newest();
    const answers = [];
    for (let i = 0; i <= LINKS_PER_ACCOUNT_PER_HOUR; i += 1)
      answers.push(await ask(user.email, `10.22.${String(n)}.${String(i)}`));
    expect(new Set(answers.map((a) => `${String(a.status)} ${JSON.stringify(a.body)}`)).size).toBe(1);
    // The account side of each request runs after its answer.
    await t.app.background.settled();
    const stored = await t.db.selectFrom('password_reset_tokens').select('id').where('user_id', '=', user.id).execute();
    expect(stored).toHaveLength(LINKS_PER_ACCOUNT_PER_HOUR);
    await mailbox.next(() => mailsTo(user.email).filter((m) => m.id > before).length === LINKS_PER_ACCOUNT_PER_HOUR);
    expect(mailsTo(user.email).filter((m) => m.id > before)).toHaveLength(LINKS_PER_ACCOUNT_PER_HOUR);
  });

  it(`refuses the request after ${String(REQUESTS_PER_ADDRESS_PER_HOUR)} an hour from one address, known e-mail or not`, async () => {
    const address = `10.23.${String(++n)}.9`;
    for (let i = 0; i < REQUESTS_PER_ADDRESS_PER_HOUR; i += 1)
      expect((await ask(`nobody-${String(i)}@demo.local`, address)).status).toBe(202);
    const refused = await ask('admin@demo.local', address);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(3500);
    expect((await ask('nobody@demo.local', `10.23.${String(n)}.10`)).status).toBe(202);
  });

  it('keeps no token: only its SHA-256', async () => {
    const user = await freshUser();
    const before = newest();
    await ask(user.email, user.address);
    const { token } = linkOf(await nextTo(user.email, before));
    const rows = await t.db.selectFrom('password_reset_tokens').selectAll().where('user_id', '=', user.id).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]?.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(rows)).not.toContain(token);
    expect(rows[0]?.requested_address).toBe(user.address);
    const minutes = ((rows[0]?.expires_at.getTime() ?? 0) - (rows[0]?.created_at.getTime() ?? 0)) / 60_000;
    expect(Math.round(minutes)).toBe(30);
  });

  // Races need a pool of connections: PostgreSQL only (PGlite has one connection).
  if (postgres) {
    it('two confirms of one link at once: exactly one sets the password', async () => {
      const user = await freshUser();
      const before = newest();
      await ask(user.email, user.address);
      const { token } = linkOf(await nextTo(user.email, before));
      const answers = await Promise.all([confirm(token, 'Primeira#Senha!1'), confirm(token, 'Segunda#Senha!2')]);
      expect(answers.map((a) => a.status).sort()).toEqual([200, 400]);
      const winner = answers[0]?.status === 200 ? 'Primeira#Senha!1' : 'Segunda#Senha!2';
      expect((await signIn(user.email, winner)).status).toBe(200);
      const records = await t.db
        .selectFrom('audit_log')
        .select('id')
        .where('operation', '=', 'user.password')
        .where('target_id', '=', user.id)
        .execute();
      expect(records).toHaveLength(1);
    });

    it('answers before anything of the account is looked at: its row locked elsewhere, the answer still comes', async () => {
      // Whatever depends on the e-mail runs after the answer, so the answer's time cannot tell a known
      // e-mail from an unknown one. Here the account's row is held by another transaction: an answer
      // that waited on the account (its lookup, its hourly count under the row's lock, the new link)
      // would come only when the lock goes, after the timer below.
      const user = await freshUser();
      let release = () => undefined as void;
      const released = new Promise<void>((resolve) => (release = resolve));
      let taken = () => undefined as void;
      const lockTaken = new Promise<void>((resolve) => (taken = resolve));
      const holder = t.db.transaction().execute(async (trx) => {
        await trx.selectFrom('users').select('id').where('id', '=', user.id).forUpdate().execute();
        taken();
        await released;
      });
      await lockTaken;
      let lockGone = false;
      const timer = setTimeout(() => {
        lockGone = true;
        release();
      }, 10_000);
      const before = newest();
      const answer = await ask(user.email, user.address);
      const whileLocked = !lockGone;
      clearTimeout(timer);
      release();
      await holder;
      expect(answer.status).toBe(202);
      expect(whileLocked).toBe(true);
      // The link still goes out once the account is free.
      expect(linkOf(await nextTo(user.email, before)).token).toMatch(/^[A-Za-z0-9_-]{86}$/);
    });

    it('a burst from one address gets exactly the limit through', async () => {
      const address = `10.24.${String(++n)}.1`;
      const answers = await Promise.all(
        Array.from({ length: 16 }, (_v, i) => ask(`burst-${String(i)}@demo.local`, address)),
      );
      expect(answers.filter((a) => a.status === 202)).toHaveLength(REQUESTS_PER_ADDRESS_PER_HOUR);
      expect(answers.filter((a) => a.status === 429)).toHaveLength(16 - REQUESTS_PER_ADDRESS_PER_HOUR);
    });

    it('a burst for one account from many addresses issues exactly the hourly links', async () => {
      const user = await freshUser();
      await Promise.all(Array.from({ length: 8 }, (_v, i) => ask(user.email, `10.25.${String(n)}.${String(i)}`)));
      await t.app.background.settled();
      const stored = await t.db
        .selectFrom('password_reset_tokens')
        .select('voided_at')
        .where('user_id', '=', user.id)
        .execute();
      expect(stored).toHaveLength(LINKS_PER_ACCOUNT_PER_HOUR);
      // Each newer link voided the one before: one is live.
      expect(stored.filter((r) => r.voided_at === null)).toHaveLength(1);
    });
  }
});
