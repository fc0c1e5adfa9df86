import { sql } from 'kysely';
import { totp } from '../auth/totp';
import { DEMO_PASSWORD } from '../tooling/seed';
import type { TestApp } from '../test-support/app';
import { startThrowawayPostgres, type ThrowawayPostgres } from '../test-support/postgres';
import { createTestUser, TEST_PASSWORD } from '../test-support/users';
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
 * Every successful change to a user, through REST and GraphQL, writes exactly one audit record in the
 * change's transaction (docs/product.md, Audit log): operation, target, tenant, actor, address,
 * request id and the real before/after; never a password, hash, token, TOTP secret or recovery code.
 * A refused change writes nothing, and a change that fails inside its transaction leaves no record.
 */
describe.each([
  ['PGlite', false],
  ['PostgreSQL', true],
])('%s: audit records of users', (_label, postgres) => {
  let cluster: ThrowawayPostgres | undefined;
  let t: TestApp;
  /** Everything secret the run handed out or sent: none may appear in the log. */
  const secrets: string[] = [DEMO_PASSWORD, TEST_PASSWORD];
  const PASSWORDS = ['Cadastro#Rest!2024', 'Cadastro#Gql!2024', 'Troca#Admin!2024', 'Troca#Propria!2024'];
  secrets.push(...PASSWORDS);

  let admin: { id: number; token: string };
  let self: { id: number; email: string; token: string };
  let backoffice: number;
  let roles: { admin: number; operator: number };
  let departments: number[];
  let instances: number[];
  const users: { rest?: number; graphql?: number } = {};

  beforeAll(async () => {
    if (postgres) cluster = await startThrowawayPostgres();
    t = await startRecordsApp(cluster?.url);
    const db = t.db;
    backoffice = (
      await db.selectFrom('tenants').select('id').where('name', '=', 'backoffice').executeTakeFirstOrThrow()
    ).id;
    const roleRows = await db.selectFrom('roles').select(['id', 'name']).execute();
    roles = {
      admin: roleRows.find((r) => r.name === 'administrador')?.id ?? 0,
      operator: roleRows.find((r) => r.name === 'operador')?.id ?? 0,
    };
    departments = (
      await db.selectFrom('departments').select('id').where('tenant_id', '=', backoffice).orderBy('id').execute()
    ).map((r) => r.id);
    instances = (
      await db.selectFrom('instances').select('id').where('tenant_id', '=', backoffice).orderBy('id').execute()
    ).map((r) => r.id);
    expect(departments.length).toBeGreaterThanOrEqual(2);
    expect(instances.length).toBeGreaterThanOrEqual(2);
    const adminRow = await db
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'admin@demo.local')
      .executeTakeFirstOrThrow();
    admin = { id: adminRow.id, token: await signIn(t, 'admin@demo.local', DEMO_PASSWORD) };
    const created = await createTestUser(db, {
      email: 'rec.self@demo.local',
      tenant: 'backoffice',
      name: 'Rec Self',
    });
    self = { id: created.id, email: created.email, token: await signIn(t, created.email, TEST_PASSWORD) };
    secrets.push(admin.token, self.token);
  }, 180_000);

  afterAll(async () => {
    await t?.close();
    await cluster?.stop();
  });

  const json = (value: unknown) => JSON.stringify(value);

  /** The one record a call wrote, checked against who acted, from where, on what. */
  async function oneRecord(
    mark: number,
    sent: Sent,
    expected: {
      operation: string;
      targetId: number;
      targetName: string;
      actor: 'admin' | 'self';
      changes: Record<string, [string | null, string | null]>;
    },
  ): Promise<AuditRow> {
    expect(sent.status, JSON.stringify(sent.body)).toBeLessThan(300);
    expect((sent.body as { errors?: unknown }).errors, JSON.stringify(sent.body)).toBeUndefined();
    const rows = await auditSince(t.db, mark);
    expect(rows.map((r) => r.operation)).toEqual([expected.operation]);
    const [row] = rows;
    if (!row) throw new Error('no record');
    const actor =
      expected.actor === 'admin'
        ? { id: admin.id, name: 'Ana Administradora', email: 'admin@demo.local' }
        : { id: self.id, name: null, email: self.email };
    expect(row).toMatchObject({
      target_type: 'user',
      target_id: expected.targetId,
      target_name: expected.targetName,
      tenant_id: backoffice,
      tenant_name: 'backoffice',
      actor_user_id: actor.id,
      actor_email: actor.email,
      actor_tenant_id: backoffice,
      actor_tenant_name: 'backoffice',
      address: ADDRESS,
      request_id: sent.requestId,
    });
    if (actor.name) expect(row.actor_name).toBe(actor.name);
    expect(changesMap(row)).toEqual(expected.changes);
    return row;
  }

  const NEW_USER = `mutation newUser($username: String!, $name: String!, $email: String!, $password: String!, $role_id: Int!, $user_department_id: Int, $chosen_instances: [Int!]) {
    newUser(username: $username, name: $name, email: $email, password: $password, role_id: $role_id, user_department_id: $user_department_id, chosen_instances: $chosen_instances) { id }
  }`;
  const UPDATE_USER = `mutation updateUser($id: Int!, $name: String, $role_id: Int, $chosen_instances: [Int!], $user_department_id: Int) {
    updateUser(id: $id, name: $name, role_id: $role_id, chosen_instances: $chosen_instances, user_department_id: $user_department_id) { id }
  }`;
  const SETTINGS = `mutation updateUserSettings($user_id: Int!, $two_factor_enabled: Boolean, $two_factor_enrolment_required: Boolean) {
    updateUserSettings(user_id: $user_id, two_factor_enabled: $two_factor_enabled, two_factor_enrolment_required: $two_factor_enrolment_required) { user_id }
  }`;

  const fresh = (
    name: string,
    username: string,
    email: string,
    department: number,
    instance: number,
  ): Record<string, [string | null, string | null]> => ({
    name: [null, json(name)],
    username: [null, json(username)],
    email: [null, json(email)],
    image: [null, 'null'],
    role_id: [null, json(roles.operator)],
    department_id: [null, json(department)],
    instances: [null, json([instance])],
    blocked: [null, 'false'],
  });

  it('REST userCreate: user.create with every field after', async () => {
    const mark = await auditMark(t.db);
    const sent = await rest(t, 'POST', '/api/users', {
      token: admin.token,
      body: {
        username: 'rec.rest',
        name: 'Rec Rest',
        email: 'rec.rest@demo.local',
        password: PASSWORDS[0],
        role_id: roles.operator,
        user_department_id: departments[0],
        chosen_instances: [instances[0]],
      },
    });
    users.rest = sent.body.id as number;
    await oneRecord(mark, sent, {
      operation: 'user.create',
      targetId: users.rest,
      targetName: 'Rec Rest',
      actor: 'admin',
      changes: fresh('Rec Rest', 'rec.rest', 'rec.rest@demo.local', departments[0] ?? 0, instances[0] ?? 0),
    });
  });

  it('GraphQL newUser: user.create with every field after', async () => {
    const mark = await auditMark(t.db);
    const sent = await graphql(t, NEW_USER, {
      token: admin.token,
      variables: {
        username: 'rec.gql',
        name: 'Rec Gql',
        email: 'rec.gql@demo.local',
        password: PASSWORDS[1],
        role_id: roles.operator,
        user_department_id: departments[1],
        chosen_instances: [instances[1]],
      },
    });
    users.graphql = (sent.data?.newUser as { id: number }).id;
    await oneRecord(mark, sent, {
      operation: 'user.create',
      targetId: users.graphql,
      targetName: 'Rec Gql',
      actor: 'admin',
      changes: fresh('Rec Gql', 'rec.gql', 'rec.gql@demo.local', departments[1] ?? 0, instances[1] ?? 0),
    });
  });

  it('REST userUpdate: user.update with the real before and after of what changed', async () => {
    const mark = await auditMark(t.db);
    const sent = await rest(t, 'PUT', `/api/users/${String(users.rest)}`, {
      token: admin.token,
      body: {
        username: 'rec.rest',
        name: 'Rec Rest Dois',
        email: 'rec.rest@demo.local',
        role_id: roles.admin,
        user_department_id: departments[1],
        chosen_instances: [instances[0], instances[1]],
      },
    });
    await oneRecord(mark, sent, {
      operation: 'user.update',
      targetId: users.rest ?? 0,
      targetName: 'Rec Rest Dois',
      actor: 'admin',
      changes: {
        name: [json('Rec Rest'), json('Rec Rest Dois')],
        role_id: [json(roles.operator), json(roles.admin)],
        department_id: [json(departments[0]), json(departments[1])],
        instances: [json([instances[0]]), json([instances[0], instances[1]])],
      },
    });
  });

  it('GraphQL updateUser: user.update with the real before and after of what changed', async () => {
    const mark = await auditMark(t.db);
    const sent = await graphql(t, UPDATE_USER, {
      token: admin.token,
      variables: { id: users.graphql, name: 'Rec Gql Dois', user_department_id: null, chosen_instances: [] },
    });
    await oneRecord(mark, sent, {
      operation: 'user.update',
      targetId: users.graphql ?? 0,
      targetName: 'Rec Gql Dois',
      actor: 'admin',
      changes: {
        name: [json('Rec Gql'), json('Rec Gql Dois')],
        department_id: [json(departments[1]), 'null'],
        instances: [json([instances[1]]), '[]'],
      },
    });
  });

  it('REST userUpdate with a password: user.password, the other changes, never the password', async () => {
    const mark = await auditMark(t.db);
    const sent = await rest(t, 'PUT', `/api/users/${String(users.rest)}`, {
      token: admin.token,
      body: {
        username: 'rec.rest',
        name: 'Rec Rest Dois',
        email: 'rec.rest2@demo.local',
        password: PASSWORDS[2],
        role_id: roles.admin,
      },
    });
    await oneRecord(mark, sent, {
      operation: 'user.password',
      targetId: users.rest ?? 0,
      targetName: 'Rec Rest Dois',
      actor: 'admin',
      changes: { email: [json('rec.rest@demo.local'), json('rec.rest2@demo.local')] },
    });
  });

  it('REST userSetBlocked: user.block, then user.unblock', async () => {
    let mark = await auditMark(t.db);
    let sent = await rest(t, 'PATCH', `/api/users/${String(users.rest)}`, {
      token: admin.token,
      body: { blocked: true },
    });
    await oneRecord(mark, sent, {
      operation: 'user.block',
      targetId: users.rest ?? 0,
      targetName: 'Rec Rest Dois',
      actor: 'admin',
      changes: { blocked: ['false', 'true'] },
    });
    mark = await auditMark(t.db);
    sent = await rest(t, 'PATCH', `/api/users/${String(users.rest)}`, {
      token: admin.token,
      body: { blocked: false },
    });
    await oneRecord(mark, sent, {
      operation: 'user.unblock',
      targetId: users.rest ?? 0,
      targetName: 'Rec Rest Dois',
      actor: 'admin',
      changes: { blocked: ['true', 'false'] },
    });
  });

  it('REST userSettingsUpdate and GraphQL updateUserSettings: user.two-factor (enrolment required)', async () => {
    let mark = await auditMark(t.db);
    let sent = await rest(t, 'PATCH', `/api/user-settings/${String(users.rest)}`, {
      token: admin.token,
      body: { two_factor_enrolment_required: true },
    });
    await oneRecord(mark, sent, {
      operation: 'user.two-factor',
      targetId: users.rest ?? 0,
      targetName: 'Rec Rest Dois',
      actor: 'admin',
      changes: { two_factor_enrolment_required: ['false', 'true'] },
    });
    mark = await auditMark(t.db);
    sent = await graphql(t, SETTINGS, {
      token: admin.token,
      variables: { user_id: users.graphql, two_factor_enrolment_required: true },
    });
    await oneRecord(mark, sent, {
      operation: 'user.two-factor',
      targetId: users.graphql ?? 0,
      targetName: 'Rec Gql Dois',
      actor: 'admin',
      changes: { two_factor_enrolment_required: ['false', 'true'] },
    });
  });

  it('GraphQL disconnectUser: user.disconnect', async () => {
    const mark = await auditMark(t.db);
    const sent = await graphql(t, 'mutation d($user_id: Int!) { disconnectUser(user_id: $user_id) }', {
      token: admin.token,
      variables: { user_id: users.rest },
    });
    await oneRecord(mark, sent, {
      operation: 'user.disconnect',
      targetId: users.rest ?? 0,
      targetName: 'Rec Rest Dois',
      actor: 'admin',
      changes: { sessions: [null, json('ended')] },
    });
  });

  it('GraphQL deleteUserInstance: user.instance-unlink with the instances before and after', async () => {
    const link = await t.db
      .selectFrom('user_instances')
      .select('id')
      .where('user_id', '=', users.rest ?? 0)
      .where('instance_id', '=', instances[1] ?? 0)
      .executeTakeFirstOrThrow();
    const mark = await auditMark(t.db);
    const sent = await graphql(t, 'mutation u($id: Int!) { deleteUserInstance(id: $id) }', {
      token: admin.token,
      variables: { id: link.id },
    });
    await oneRecord(mark, sent, {
      operation: 'user.instance-unlink',
      targetId: users.rest ?? 0,
      targetName: 'Rec Rest Dois',
      actor: 'admin',
      changes: { instances: [json([instances[0], instances[1]]), json([instances[0]])] },
    });
  });

  it('own profile, REST and GraphQL: user.update by the user itself', async () => {
    let mark = await auditMark(t.db);
    let sent = await rest(t, 'PUT', `/api/users/${String(self.id)}`, {
      token: self.token,
      body: { name: 'Rec Self Rest' },
    });
    await oneRecord(mark, sent, {
      operation: 'user.update',
      targetId: self.id,
      targetName: 'Rec Self Rest',
      actor: 'self',
      changes: { name: [json('Rec Self'), json('Rec Self Rest')] },
    });
    mark = await auditMark(t.db);
    sent = await graphql(t, UPDATE_USER, { token: self.token, variables: { id: self.id, name: 'Rec Self Gql' } });
    await oneRecord(mark, sent, {
      operation: 'user.update',
      targetId: self.id,
      targetName: 'Rec Self Gql',
      actor: 'self',
      changes: { name: [json('Rec Self Rest'), json('Rec Self Gql')] },
    });
  });

  it('own two-factor (REST): enrolment confirmed and disabled are user.two-factor, with no secret or code', async () => {
    let mark = await auditMark(t.db);
    const enrol = await rest(t, 'POST', '/api/two-factor/enrol', { token: self.token });
    expect(enrol.status).toBe(200);
    const secret = enrol.body.secret as string;
    secrets.push(secret);
    // A pending secret is no change yet: only its confirmation is.
    expect(await auditSince(t.db, mark)).toEqual([]);
    const code = totp(secret, Date.now());
    let sent = await rest(t, 'POST', '/api/two-factor/verify', { token: self.token, body: { code } });
    const recovery = sent.body.recovery_codes as string[];
    secrets.push(...recovery);
    await oneRecord(mark, sent, {
      operation: 'user.two-factor',
      targetId: self.id,
      targetName: 'Rec Self Gql',
      actor: 'self',
      changes: { two_factor_enabled: ['false', 'true'] },
    });
    mark = await auditMark(t.db);
    sent = await rest(t, 'POST', '/api/two-factor/disable', { token: self.token, body: { code: recovery[0] } });
    await oneRecord(mark, sent, {
      operation: 'user.two-factor',
      targetId: self.id,
      targetName: 'Rec Self Gql',
      actor: 'self',
      changes: { two_factor_enabled: ['true', 'false'] },
    });
  });

  it('GraphQL updateUserPassword: user.password by the user itself, with no change value', async () => {
    const mark = await auditMark(t.db);
    const sent = await graphql(
      t,
      'mutation p($password: String!, $current: String) { updateUserPassword(password: $password, current_password: $current) { token } }',
      {
        token: self.token,
        variables: { password: PASSWORDS[3], current: TEST_PASSWORD },
      },
    );
    self.token = (sent.data?.updateUserPassword as { token: string }).token;
    secrets.push(self.token);
    await oneRecord(mark, sent, {
      operation: 'user.password',
      targetId: self.id,
      targetName: 'Rec Self Gql',
      actor: 'self',
      changes: {},
    });
  });

  it('refused changes (400, 404, 409, REST and GraphQL) write no record', async () => {
    const mark = await auditMark(t.db);
    const refusals: Sent[] = [
      await rest(t, 'POST', '/api/users', {
        token: admin.token,
        body: {
          username: 'rec.dup',
          name: 'Dup',
          email: 'rec.gql@demo.local',
          password: PASSWORDS[0],
          role_id: roles.operator,
        },
      }),
      await rest(t, 'POST', '/api/users', {
        token: admin.token,
        body: {
          username: 'rec.bad',
          name: 'Bad',
          email: 'not-an-email',
          password: PASSWORDS[0],
          role_id: roles.operator,
        },
      }),
      await rest(t, 'PUT', '/api/users/999999', { token: admin.token, body: { name: 'Nobody' } }),
      // A username taken: refused inside the change's transaction (server/src/users/service.ts assertUnique).
      await rest(t, 'PUT', `/api/users/${String(users.rest)}`, {
        token: admin.token,
        body: { username: 'rec.gql', name: 'X', email: 'rec.rest2@demo.local', role_id: roles.admin },
      }),
      await rest(t, 'PATCH', `/api/users/${String(admin.id)}`, { token: admin.token, body: { blocked: true } }),
      await rest(t, 'DELETE', `/api/users/${String(admin.id)}`, { token: admin.token }),
      await rest(t, 'PATCH', `/api/users/999999`, { token: admin.token, body: { blocked: true } }),
      // Turning on two-factor of a user who has not enrolled: refused inside the change's transaction.
      await rest(t, 'PATCH', `/api/user-settings/${String(self.id)}`, {
        token: admin.token,
        body: { two_factor_enabled: true },
      }),
    ];
    const gqlRefusals = [
      await graphql(t, NEW_USER, {
        token: admin.token,
        variables: {
          username: 'rec.dup2',
          name: 'Dup',
          email: 'rec.gql@demo.local',
          password: PASSWORDS[1],
          role_id: roles.operator,
        },
      }),
      await graphql(t, 'mutation d($id: Int!) { deleteUser(id: $id) }', {
        token: admin.token,
        variables: { id: 999999 },
      }),
      await graphql(t, 'mutation d($id: Int!) { deleteUser(id: $id) }', {
        token: admin.token,
        variables: { id: admin.id },
      }),
      await graphql(t, 'mutation u($id: Int!) { deleteUserInstance(id: $id) }', {
        token: admin.token,
        variables: { id: 999999 },
      }),
      await graphql(t, 'mutation p($password: String!) { updateUserPassword(password: $password) { token } }', {
        token: admin.token,
        variables: { password: 'short' },
      }),
      // A strong new password without the current one, and with a wrong one (self's is PASSWORDS[3] by now).
      await graphql(t, 'mutation p($password: String!) { updateUserPassword(password: $password) { token } }', {
        token: self.token,
        variables: { password: PASSWORDS[0] },
      }),
      await graphql(
        t,
        'mutation p($password: String!, $current: String) { updateUserPassword(password: $password, current_password: $current) { token } }',
        { token: self.token, variables: { password: PASSWORDS[0], current: TEST_PASSWORD } },
      ),
      // A new e-mail of one's own without the current password.
      await graphql(t, 'mutation u($id: Int!, $email: String) { updateUser(id: $id, email: $email) { id } }', {
        token: self.token,
        variables: { id: self.id, email: 'rec.self.moved@demo.local' },
      }),
    ];
    expect(refusals.map((r) => r.status)).toEqual([409, 400, 404, 409, 409, 409, 404, 409]);
    expect(gqlRefusals.map((r) => [r.errors[0]?.extensions?.code, r.errors[0]?.extensions?.field])).toEqual([
      ['BAD_USER_INPUT', 'email'],
      ['NOT_FOUND', 'id'],
      ['BAD_USER_INPUT', 'id'],
      ['NOT_FOUND', 'id'],
      ['BAD_USER_INPUT', 'password'],
      ['BAD_USER_INPUT', 'current_password'],
      ['BAD_USER_INPUT', 'current_password'],
      ['BAD_USER_INPUT', 'current_password'],
    ]);
    expect(await auditSince(t.db, mark)).toEqual([]);
  });

  it('a failure inside the change transaction (a trigger raising on users) leaves neither change nor record', async () => {
    await sql`create function records_b_fail() returns trigger language plpgsql as $$
      begin
        if new.name = 'Falha Injetada' then raise exception 'injected failure'; end if;
        return new;
      end $$`.execute(t.db);
    await sql`create trigger records_b_fail before insert or update on users for each row execute function records_b_fail()`.execute(
      t.db,
    );
    try {
      const mark = await auditMark(t.db);
      const failed = [
        await rest(t, 'PUT', `/api/users/${String(users.rest)}`, {
          token: admin.token,
          body: { name: 'Falha Injetada' },
        }),
        await rest(t, 'POST', '/api/users', {
          token: admin.token,
          body: {
            username: 'rec.fail',
            name: 'Falha Injetada',
            email: 'rec.fail@demo.local',
            password: PASSWORDS[0],
            role_id: roles.operator,
          },
        }),
        await graphql(t, UPDATE_USER, { token: admin.token, variables: { id: users.graphql, name: 'Falha Injetada' } }),
      ];
      expect(failed.map((f) => f.status)).toEqual([500, 500, 500]);
      expect(await auditSince(t.db, mark)).toEqual([]);
      const names = await t.db.selectFrom('users').select('name').where('name', '=', 'Falha Injetada').execute();
      expect(names).toEqual([]);
    } finally {
      await sql`drop trigger records_b_fail on users`.execute(t.db);
      await sql`drop function records_b_fail()`.execute(t.db);
    }
  });

  it('a record that cannot be written undoes its change (one transaction)', async () => {
    await sql`create function records_b_refuse() returns trigger language plpgsql as $$
      begin
        if new.operation = 'user.update' then raise exception 'injected audit failure'; end if;
        return new;
      end $$`.execute(t.db);
    await sql`create trigger records_b_refuse before insert on audit_log for each row execute function records_b_refuse()`.execute(
      t.db,
    );
    try {
      const sent = await rest(t, 'PUT', `/api/users/${String(users.graphql)}`, {
        token: admin.token,
        body: { name: 'Sem Registro' },
      });
      expect(sent.status).toBe(500);
      const row = await t.db
        .selectFrom('users')
        .select('name')
        .where('id', '=', users.graphql ?? 0)
        .executeTakeFirstOrThrow();
      expect(row.name).toBe('Rec Gql Dois');
    } finally {
      await sql`drop trigger records_b_refuse on audit_log`.execute(t.db);
      await sql`drop function records_b_refuse()`.execute(t.db);
    }
  });

  it('REST userDelete and GraphQL deleteUser: user.delete with the state before and nothing after', async () => {
    let mark = await auditMark(t.db);
    let sent = await rest(t, 'DELETE', `/api/users/${String(users.rest)}`, { token: admin.token });
    await oneRecord(mark, sent, {
      operation: 'user.delete',
      targetId: users.rest ?? 0,
      targetName: 'Rec Rest Dois',
      actor: 'admin',
      changes: {
        name: [json('Rec Rest Dois'), null],
        username: [json('rec.rest'), null],
        email: [json('rec.rest2@demo.local'), null],
        image: ['null', null],
        role_id: [json(roles.admin), null],
        department_id: [json(departments[1]), null],
        instances: [json([instances[0]]), null],
        blocked: ['false', null],
      },
    });
    mark = await auditMark(t.db);
    sent = await graphql(t, 'mutation d($id: Int!) { deleteUser(id: $id) }', {
      token: admin.token,
      variables: { id: users.graphql },
    });
    const row = await oneRecord(mark, sent, {
      operation: 'user.delete',
      targetId: users.graphql ?? 0,
      targetName: 'Rec Gql Dois',
      actor: 'admin',
      changes: {
        name: [json('Rec Gql Dois'), null],
        username: [json('rec.gql'), null],
        email: [json('rec.gql@demo.local'), null],
        image: ['null', null],
        role_id: [json(roles.operator), null],
        department_id: ['null', null],
        instances: ['[]', null],
        blocked: ['false', null],
      },
    });
    expect(row.target_type).toBe('user');
  });

  it('no record holds a password, a hash, a token, a TOTP secret or a recovery code', async () => {
    const text = await wholeLogText(t.db);
    expect(text).toContain('user.password');
    const stored = await t.db
      .selectFrom('users')
      .select(['password_hash', 'two_factor_secret', 'two_factor_pending_secret'])
      .execute();
    const hashes = stored.flatMap((r) => [r.password_hash, r.two_factor_secret, r.two_factor_pending_secret]);
    const codes = await t.db.selectFrom('two_factor_recovery_codes').select('code_hash').execute();
    for (const value of [...secrets, ...hashes, ...codes.map((c) => c.code_hash)]) {
      if (!value) continue;
      expect(text.includes(value), `the log holds ${value.slice(0, 12)}…`).toBe(false);
    }
    // Recovery codes also without their dash, as a user might type them.
    for (const value of secrets) expect(text.includes(value.replace(/-/g, ''))).toBe(false);
  });
});
