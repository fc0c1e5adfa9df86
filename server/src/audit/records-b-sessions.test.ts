import { sql } from 'kysely';
import { totp } from '../auth/totp';
import { DEMO_PASSWORD } from '../tooling/seed';
import type { TestApp } from '../test-support/app';
import { startThrowawayPostgres, type ThrowawayPostgres } from '../test-support/postgres';
import { createTestUser, TEST_PASSWORD, type TestUser } from '../test-support/users';
import {
  ADDRESS,
  auditMark,
  auditSince,
  changesMap,
  graphql,
  rest,
  signIn,
  startRecordsApp,
  wholeLogText,
  type AuditRow,
  type Sent,
} from '../test-support/audit-records';

/**
 * Sign-ins, sign-outs, refresh-token reuse and permission denials in the audit log (docs/product.md,
 * Audit log), through REST and GraphQL: who, from where, with which request. Failed sign-ins stay in
 * `login_attempts` only; a 401 is never recorded; a denial record that cannot be written never turns
 * the 403 into anything else.
 */
describe.each([
  ['PGlite', false],
  ['PostgreSQL', true],
])('%s: audit records of sessions and denials', (_label, postgres) => {
  let cluster: ThrowawayPostgres | undefined;
  let t: TestApp;
  const secrets: string[] = [DEMO_PASSWORD, TEST_PASSWORD];
  let tenant: { id: number; name: string };
  let backoffice: number;
  /** Administrador of a customer tenant: not back-office staff. */
  let customer: TestUser;
  /** Operador of the back-office: no `users` permission. */
  let operator: TestUser & { token: string };
  /** Role ids: the customer's (administrador) and operador. */
  let customerRole: number;
  let operatorRole: number;
  let n = 0;

  beforeAll(async () => {
    if (postgres) cluster = await startThrowawayPostgres();
    // No grace for a superseded token: its next use is a reuse.
    t = await startRecordsApp(cluster?.url, { rotationGrace: 0 });
    backoffice = (
      await t.db.selectFrom('tenants').select('id').where('name', '=', 'backoffice').executeTakeFirstOrThrow()
    ).id;
    tenant = await t.db
      .selectFrom('tenants')
      .select(['id', 'name'])
      .where('name', '!=', 'backoffice')
      .where('deleted_at', 'is', null)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    customer = await createTestUser(t.db, {
      email: 'rec.cliente@demo.local',
      tenant: tenant.name,
      role: 'administrador',
      name: 'Rec Cliente',
    });
    const roleRows = await t.db.selectFrom('roles').select(['id', 'name']).execute();
    customerRole = roleRows.find((r) => r.name === 'administrador')?.id ?? 0;
    operatorRole = roleRows.find((r) => r.name === 'operador')?.id ?? 0;
    const op = await createTestUser(t.db, { email: 'rec.operador@demo.local', tenant: 'backoffice', name: 'Rec Op' });
    operator = { ...op, token: await signIn(t, op.email, TEST_PASSWORD) };
    secrets.push(operator.token);
  }, 180_000);

  afterAll(async () => {
    await t?.close();
    await cluster?.stop();
  });

  async function fresh(name: string, tenantName = 'backoffice'): Promise<TestUser> {
    n += 1;
    return createTestUser(t.db, { email: `rec.sessao${String(n)}@demo.local`, tenant: tenantName, name });
  }

  function expectActor(row: AuditRow | undefined, user: TestUser, tenantName: string, sent: Sent): void {
    expect(row).toMatchObject({
      actor_user_id: user.id,
      actor_email: user.email,
      actor_tenant_id: user.tenantId,
      actor_tenant_name: tenantName,
      address: ADDRESS,
      request_id: sent.requestId,
    });
  }

  it('REST and GraphQL sign-ins: session.sign-in by the user, in its own tenant', async () => {
    let mark = await auditMark(t.db);
    const viaRest = await rest(t, 'POST', '/api/auth/login', {
      body: { email: customer.email, password: TEST_PASSWORD, ip: null },
    });
    expect(viaRest.status).toBe(200);
    secrets.push(viaRest.body.access_token as string);
    let rows = await auditSince(t.db, mark);
    expect(rows.map((r) => r.operation)).toEqual(['session.sign-in']);
    expectActor(rows[0], customer, tenant.name, viaRest);
    expect(rows[0]).toMatchObject({
      actor_name: 'Rec Cliente',
      target_type: 'session',
      target_id: customer.id,
      target_name: 'Rec Cliente',
      tenant_id: tenant.id,
      tenant_name: tenant.name,
    });
    expect(changesMap(rows[0] as AuditRow)).toEqual({ remember: [null, 'false'] });

    mark = await auditMark(t.db);
    const viaGraphql = await graphql(
      t,
      'mutation l($email: String!, $password: String!) { logIn(email: $email, password: $password, remember: true) { token } }',
      { tenant: tenant.name, variables: { email: customer.email, password: TEST_PASSWORD } },
    );
    expect(viaGraphql.status).toBe(200);
    secrets.push((viaGraphql.data?.logIn as { token: string }).token);
    rows = await auditSince(t.db, mark);
    expect(rows.map((r) => r.operation)).toEqual(['session.sign-in']);
    expectActor(rows[0], customer, tenant.name, viaGraphql);
    expect(rows[0]).toMatchObject({ target_id: customer.id, tenant_id: tenant.id });
    expect(changesMap(rows[0] as AuditRow)).toEqual({ remember: [null, 'true'] });
  });

  it('failed sign-ins are only login attempts, never records', async () => {
    const mark = await auditMark(t.db);
    const before = await t.db.selectFrom('login_attempts').select('id').where('email', '=', customer.email).execute();
    const wrong = await rest(t, 'POST', '/api/auth/login', {
      body: { email: customer.email, password: 'Errada#Senha!123', ip: null },
    });
    const wrongGraphql = await graphql(
      t,
      'mutation l($email: String!, $password: String!) { logIn(email: $email, password: $password) { token } }',
      { tenant: tenant.name, variables: { email: customer.email, password: 'Errada#Senha!123' } },
    );
    expect(wrong.status).toBe(401);
    expect(wrongGraphql.errors[0]?.extensions?.code).toBe('INVALID_CREDENTIALS');
    const after = await t.db.selectFrom('login_attempts').select('id').where('email', '=', customer.email).execute();
    expect(after.length - before.length).toBe(2);
    expect(await auditSince(t.db, mark)).toEqual([]);
  });

  it('a two-factor sign-in is recorded once the code is right; enrolment at sign-in also records user.two-factor', async () => {
    // Two-factor on: the sign-in asks for a code (no record), then signs in with it.
    const user = await fresh('Rec Dois Fatores');
    const token = await signIn(t, user.email, TEST_PASSWORD);
    const enrol = await rest(t, 'POST', '/api/two-factor/enrol', { token });
    const secret = enrol.body.secret as string;
    secrets.push(token, secret);
    const verified = await rest(t, 'POST', '/api/two-factor/verify', {
      token,
      body: { code: totp(secret, Date.now()) },
    });
    expect(verified.status).toBe(200);
    secrets.push(...(verified.body.recovery_codes as string[]));
    let mark = await auditMark(t.db);
    const asked = await rest(t, 'POST', '/api/auth/login', {
      body: { email: user.email, password: TEST_PASSWORD, ip: null },
    });
    expect(asked.status).toBe(401);
    expect(await auditSince(t.db, mark)).toEqual([]);
    const recovery = (verified.body.recovery_codes as string[])[0];
    const withCode = await rest(t, 'POST', '/api/auth/login', {
      body: { email: user.email, password: TEST_PASSWORD, ip: null, otp: recovery },
    });
    expect(withCode.status).toBe(200);
    secrets.push(withCode.body.access_token as string);
    let rows = await auditSince(t.db, mark);
    expect(rows.map((r) => r.operation)).toEqual(['session.sign-in']);
    expectActor(rows[0], user, 'backoffice', withCode);
    expect(changesMap(rows[0] as AuditRow)).toEqual({ remember: [null, 'false'], two_factor: [null, '"verified"'] });

    // Enrolment required by an administrator: the secret handed out is no record; the code completing it is two.
    const required = await fresh('Rec Matricula');
    const admin = await signIn(t, 'admin@demo.local', DEMO_PASSWORD);
    secrets.push(admin);
    const set = await rest(t, 'PATCH', `/api/user-settings/${String(required.id)}`, {
      token: admin,
      body: { two_factor_enrolment_required: true },
    });
    expect(set.status).toBe(200);
    mark = await auditMark(t.db);
    const handedOut = await graphql(
      t,
      'mutation l($email: String!, $password: String!, $otp: String) { logIn(email: $email, password: $password, otp: $otp) { token recovery_codes } }',
      { variables: { email: required.email, password: TEST_PASSWORD } },
    );
    const enrolment = (handedOut.errors[0]?.extensions as { enrolment?: { secret: string } } | undefined)?.enrolment;
    expect(enrolment?.secret).toBeTruthy();
    secrets.push(enrolment?.secret ?? '');
    expect(await auditSince(t.db, mark)).toEqual([]);
    const completed = await graphql(
      t,
      'mutation l($email: String!, $password: String!, $otp: String) { logIn(email: $email, password: $password, otp: $otp) { token recovery_codes } }',
      { variables: { email: required.email, password: TEST_PASSWORD, otp: totp(enrolment?.secret ?? '', Date.now()) } },
    );
    const session = completed.data?.logIn as { token: string; recovery_codes: string[] };
    expect(session.recovery_codes).toHaveLength(10);
    secrets.push(session.token, ...session.recovery_codes);
    rows = await auditSince(t.db, mark);
    expect(rows.map((r) => r.operation)).toEqual(['user.two-factor', 'session.sign-in']);
    for (const row of rows) expectActor(row, required, 'backoffice', completed);
    expect(rows[0]).toMatchObject({ target_type: 'user', target_id: required.id, tenant_id: backoffice });
    expect(changesMap(rows[0] as AuditRow)).toEqual({
      two_factor_enabled: ['false', 'true'],
      two_factor_enrolment_required: ['true', 'false'],
    });
    expect(changesMap(rows[1] as AuditRow)).toEqual({ remember: [null, 'false'], two_factor: [null, '"enrolled"'] });
  });

  it('REST logout: session.sign-out by the user', async () => {
    const user = await fresh('Rec Saida');
    const token = await signIn(t, user.email, TEST_PASSWORD);
    secrets.push(token);
    const mark = await auditMark(t.db);
    const out = await rest(t, 'POST', '/api/auth/logout', {
      token,
      body: { data: { email: user.email }, ip: null },
    });
    expect(out.status).toBe(200);
    const rows = await auditSince(t.db, mark);
    expect(rows.map((r) => r.operation)).toEqual(['session.sign-out']);
    expectActor(rows[0], user, 'backoffice', out);
    expect(rows[0]).toMatchObject({
      target_type: 'session',
      target_id: user.id,
      target_name: 'Rec Saida',
      tenant_id: backoffice,
    });
  });

  it.each(['REST', 'GraphQL'])(
    'a superseded token used again (%s): session.refresh-reuse by the family’s user, once, with the revocation',
    async (protocol) => {
      const user = await fresh(`Rec Reuso ${protocol}`);
      const old = await signIn(t, user.email, TEST_PASSWORD);
      const refreshed = await graphql(t, 'mutation { refreshToken { token } }', { token: old });
      const current = (refreshed.data?.refreshToken as { token: string }).token;
      secrets.push(old, current);
      // The grace is 0: the first use of the old token after this millisecond is a reuse.
      await new Promise((resolve) => setTimeout(resolve, 5));
      const mark = await auditMark(t.db);
      const reuse =
        protocol === 'REST'
          ? await rest(t, 'GET', '/api/auth/userInfo', { token: old })
          : await graphql(t, 'query { userInfos { id } }', { token: old });
      expect(reuse.status).toBe(401);
      const rows = await auditSince(t.db, mark);
      expect(rows.map((r) => r.operation)).toEqual(['session.refresh-reuse']);
      expectActor(rows[0], user, 'backoffice', reuse);
      expect(rows[0]).toMatchObject({ target_type: 'session', target_id: user.id, tenant_id: backoffice });
      // The family is revoked with it: its current token is dead, and the next reuse finds nothing to record.
      expect((await rest(t, 'GET', '/api/auth/userInfo', { token: current })).status).toBe(401);
      expect((await rest(t, 'GET', '/api/auth/userInfo', { token: old })).status).toBe(401);
      expect((await auditSince(t.db, mark)).map((r) => r.operation)).toEqual(['session.refresh-reuse']);
    },
  );

  /** The one access.denied record a refused call wrote. */
  async function oneDenial(
    mark: number,
    sent: Sent,
    user: TestUser,
    tenantName: string,
    operation: string,
    changes: Record<string, [string | null, string | null]>,
  ) {
    expect(sent.status, JSON.stringify(sent.body)).toBe(403);
    const rows = await auditSince(t.db, mark);
    expect(rows.map((r) => r.operation)).toEqual(['access.denied']);
    expectActor(rows[0], user, tenantName, sent);
    expect(rows[0]).toMatchObject({
      target_type: 'session',
      target_id: null,
      target_name: operation,
      tenant_id: user.tenantId,
      tenant_name: tenantName,
    });
    expect(changesMap(rows[0] as AuditRow)).toEqual(changes);
  }

  it('every 403 to a signed-in caller writes access.denied (REST and GraphQL)', async () => {
    const cases: {
      name: string;
      user: () => TestUser;
      tenantName: () => string;
      send: (token: string) => Promise<Sent>;
      operation: string;
      changes: Record<string, [string | null, string | null]>;
    }[] = [
      {
        name: 'REST route permission',
        user: () => operator,
        tenantName: () => 'backoffice',
        send: (token) => rest(t, 'DELETE', `/api/users/${String(customer.id)}`, { token }),
        operation: 'DELETE /api/users/{id}',
        changes: { required: [null, '["users"]'] },
      },
      {
        name: 'REST for-others permission',
        user: () => operator,
        tenantName: () => 'backoffice',
        send: (token) =>
          rest(t, 'PATCH', `/api/user-settings/${String(customer.id)}`, { token, body: { two_factor_enabled: true } }),
        operation: 'PATCH /api/user-settings/{id}',
        changes: { required: [null, '["users"]'] },
      },
      {
        name: 'REST permission depending on the body',
        user: () => operator,
        tenantName: () => 'backoffice',
        send: (token) =>
          rest(t, 'PUT', `/api/users/${String(operator.id)}`, {
            token,
            body: { username: 'rec.op', name: 'Rec Op', email: operator.email, role_id: 1 },
          }),
        operation: 'PUT /api/users/{id}',
        changes: { required: [null, '["users"]'] },
      },
      {
        name: 'REST staff only',
        user: () => customer,
        tenantName: () => tenant.name,
        send: (token) => rest(t, 'POST', '/api/roles', { token, body: { name: 'rec-papel', display_name: 'Rec' } }),
        operation: 'POST /api/roles',
        // The permission would not do: staff only says why (server/src/access/permissions.ts requireStaff).
        changes: { required: [null, '["roles-edit"]'], reason: [null, '"only back-office staff may do this"'] },
      },
      {
        name: 'REST naming another tenant',
        user: () => customer,
        tenantName: () => tenant.name,
        send: (token) => rest(t, 'GET', '/api/users?tenantName=backoffice', { token }),
        operation: 'GET /api/users',
        changes: { required: [null, '[]'] },
      },
      {
        name: 'GraphQL root field permission',
        user: () => operator,
        tenantName: () => 'backoffice',
        send: (token) =>
          graphql(t, 'mutation d($id: Int!) { deleteUser(id: $id) }', { token, variables: { id: customer.id } }),
        operation: 'mutation deleteUser',
        changes: { required: [null, '["users"]'] },
      },
      {
        // Own profile, another role: refused on its arguments (server/src/graphql/index.ts `argumentChecks`).
        name: 'GraphQL permission depending on the arguments (updateUser)',
        user: () => operator,
        tenantName: () => 'backoffice',
        send: (token) =>
          graphql(t, 'mutation u($id: Int!) { updateUser(id: $id, role_id: 1) { id } }', {
            token,
            variables: { id: operator.id },
          }),
        operation: 'mutation updateUser',
        changes: { required: [null, '["users"]'] },
      },
      {
        // Own settings, but one's own enrolment requirement is another administrator's: refused on its
        // arguments, whatever the caller holds (server/src/access/self-service.ts).
        name: 'GraphQL permission depending on the arguments (updateUserSettings)',
        user: () => operator,
        tenantName: () => 'backoffice',
        send: (token) =>
          graphql(
            t,
            'mutation s($id: Int!) { updateUserSettings(user_id: $id, two_factor_enrolment_required: true) { user_id } }',
            {
              token,
              variables: { id: operator.id },
            },
          ),
        operation: 'mutation updateUserSettings',
        changes: {
          required: [null, '[]'],
          reason: [
            null,
            '"turn your own two-factor off on the two-factor screen, with a code; another administrator resets it or requires enrolment"',
          ],
        },
      },
      {
        // A service's refusal on stored data (server/src/users/service.ts update): one's own password only
        // on the account screen, whatever the caller holds.
        name: 'REST service rule (own password through PUT)',
        user: () => customer,
        tenantName: () => tenant.name,
        send: (token) =>
          rest(t, 'PUT', `/api/users/${String(customer.id)}`, {
            token,
            body: {
              username: 'rec.cliente',
              name: 'Rec Cliente',
              email: customer.email,
              role_id: customerRole,
              password: 'Outra#Senha-Forte9',
            },
          }),
        operation: 'PUT /api/users/{id}',
        changes: {
          required: [null, '[]'],
          reason: [null, '"change your own password on your account screen, with your current password"'],
        },
      },
      {
        // No way up (server/src/access/escalation.ts): nobody changes its own role, an administrador included.
        name: 'GraphQL service rule (own role)',
        user: () => customer,
        tenantName: () => tenant.name,
        send: (token) =>
          graphql(t, 'mutation u($id: Int!, $role: Int) { updateUser(id: $id, role_id: $role) { id } }', {
            token,
            tenant: tenant.name,
            variables: { id: customer.id, role: operatorRole },
          }),
        operation: 'mutation updateUser',
        changes: {
          required: [null, '[]'],
          reason: [null, '"you cannot change your own role; another administrator must"'],
        },
      },
      {
        // The provider's decisions: staff only, declared in the contract (x-staff-only), for its own tenant too.
        name: 'REST staff only (own tenant plan)',
        user: () => customer,
        tenantName: () => tenant.name,
        send: (token) =>
          rest(t, 'POST', '/api/tenant/set-plan', {
            token,
            body: { id: tenant.id, plan: 'enterprise', user: 200, ticket: 100000 },
          }),
        operation: 'POST /api/tenant/set-plan',
        changes: { required: [null, '["tenants"]'], reason: [null, '"only back-office staff may do this"'] },
      },
      {
        name: 'GraphQL another tenant in the path',
        user: () => customer,
        tenantName: () => tenant.name,
        send: (token) => graphql(t, 'query { userInfos { id } }', { token, tenant: 'backoffice' }),
        operation: 'POST /{tenant}/graphql',
        changes: { required: [null, '[]'], reason: [null, '"this tenant is not yours"'] },
      },
    ];
    const customerToken = await signIn(t, customer.email, TEST_PASSWORD);
    secrets.push(customerToken);
    for (const c of cases) {
      const user = c.user();
      const token = user.id === customer.id ? customerToken : operator.token;
      const mark = await auditMark(t.db);
      const sent = await c.send(token);
      await oneDenial(mark, sent, user, c.tenantName(), c.operation, c.changes);
    }
  });

  it('a 401 is never recorded', async () => {
    const mark = await auditMark(t.db);
    const answers = [
      await rest(t, 'DELETE', `/api/users/${String(customer.id)}`),
      await rest(t, 'DELETE', `/api/users/${String(customer.id)}`, { token: 'not-a-token' }),
      await graphql(t, 'mutation d($id: Int!) { deleteUser(id: $id) }', { variables: { id: customer.id } }),
      await graphql(t, 'mutation d($id: Int!) { deleteUser(id: $id) }', { token: 'x.y.z', variables: { id: 1 } }),
    ];
    expect(answers.map((a) => a.status)).toEqual([401, 401, 401, 401]);
    expect(await auditSince(t.db, mark)).toEqual([]);
  });

  it('a storm of denials: every call still gets its 403, and each is recorded', async () => {
    const mark = await auditMark(t.db);
    const storm = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        i % 2 === 0
          ? rest(t, 'DELETE', `/api/users/${String(customer.id)}`, { token: operator.token })
          : graphql(t, 'mutation d($id: Int!) { deleteUser(id: $id) }', {
              token: operator.token,
              variables: { id: customer.id },
            }),
      ),
    );
    expect(storm.map((s) => s.status)).toEqual(storm.map(() => 403));
    const rows = await auditSince(t.db, mark);
    expect(rows).toHaveLength(24);
    expect(new Set(rows.map((r) => r.request_id))).toEqual(new Set(storm.map((s) => s.requestId)));
  });

  it('a denial record that cannot be written leaves the 403 as it was', async () => {
    await sql`create function records_b_no_denials() returns trigger language plpgsql as $$
      begin
        if new.operation = 'access.denied' then raise exception 'injected audit failure'; end if;
        return new;
      end $$`.execute(t.db);
    await sql`create trigger records_b_no_denials before insert on audit_log for each row execute function records_b_no_denials()`.execute(
      t.db,
    );
    try {
      const mark = await auditMark(t.db);
      const restDenied = await rest(t, 'DELETE', `/api/users/${String(customer.id)}`, { token: operator.token });
      const graphqlDenied = await graphql(t, 'mutation d($id: Int!) { deleteUser(id: $id) }', {
        token: operator.token,
        variables: { id: customer.id },
      });
      expect(restDenied.status).toBe(403);
      expect(restDenied.body).toEqual({ message: 'Forbidden', required_permission: ['users'] });
      expect(graphqlDenied.status).toBe(403);
      expect(graphqlDenied.errors[0]?.extensions?.code).toBe('FORBIDDEN');
      expect(await auditSince(t.db, mark)).toEqual([]);
    } finally {
      await sql`drop trigger records_b_no_denials on audit_log`.execute(t.db);
      await sql`drop function records_b_no_denials()`.execute(t.db);
    }
  });

  it('no record holds a password, a token, a TOTP secret or a recovery code', async () => {
    const text = await wholeLogText(t.db);
    expect(text).toContain('session.sign-in');
    for (const value of secrets) {
      if (!value) continue;
      expect(text.includes(value), `the log holds ${value.slice(0, 12)}…`).toBe(false);
    }
  });
});
