import { asArray, asRecord, totpCode } from './kit-client.js';
import type { ConformanceClient } from './kit-client.js';
import type { RunContext, RunTenants } from './kit-rest-steps.js';

/** The later steps of a conformance run (./kit.ts): users through REST and GraphQL, soft delete, logout. */

/**
 * Two-factor as a throwaway user: status, enrol, verify (recovery codes), login without a code (401
 * two_factor_required), login with a recovery code, disable with the next TOTP step.
 */
/** The REST throwaway user's password: fixed and strong (a stamp could spell a sequence the strength rule calls weak). */
const USER_PASSWORD = 'Conf#Kx9!Qm2@Lp';

async function twoFactorFlow(c: ConformanceClient, who: string, secret: string): Promise<void> {
  const { rest, check, loginToken } = c;
  // Two-factor enrolment is an extension (contracts/openapi.yaml twoFactorEnrol): not in `base`.
  if (!c.inProfile('twoFactorEnrol')) return;
  const own = await loginToken(who, secret);
  if (!own) {
    for (const id of ['twoFactorStatus', 'twoFactorEnrol', 'twoFactorVerify', 'twoFactorDisable'])
      check(id, 'rest', 0, ['could not sign in as the throwaway user']);
    return;
  }
  await rest('twoFactorStatus', 'GET', '/api/two-factor', 200, { token: own });
  const enrolment = asRecord(await rest('twoFactorEnrol', 'POST', '/api/two-factor/enrol', 200, { token: own }));
  const totpSecret = typeof enrolment.secret === 'string' ? enrolment.secret : '';
  const activated = asRecord(
    await rest('twoFactorVerify', 'POST', '/api/two-factor/verify', 200, {
      token: own,
      body: { code: totpCode(totpSecret) },
    }),
  );
  const recovery = asArray(activated.recovery_codes).filter((c): c is string => typeof c === 'string');
  const credentials = { email: who, password: secret, ip: null };
  const asked = asRecord(
    await rest(
      'authLogin',
      'POST',
      '/api/auth/login',
      401,
      { token: null, body: credentials },
      'authLogin (two-factor required)',
    ),
  );
  if (asked.error !== 'two_factor_required')
    check('authLogin (two-factor required)', 'auth', 401, [
      `expected error two_factor_required, got ${JSON.stringify(asked)}`,
    ]);
  await rest(
    'authLogin',
    'POST',
    '/api/auth/login',
    200,
    { token: null, body: { ...credentials, otp: recovery[0] ?? 'AAAAA-AAAAA' } },
    'authLogin (recovery code)',
  );
  await rest('twoFactorDisable', 'POST', '/api/two-factor/disable', 200, {
    token: own,
    body: { code: totpCode(totpSecret, 1) },
  });
}

/**
 * Its own credentials as the throwaway user (contracts/openapi.yaml userUpdate): its password never
 * through PUT /api/users/{id} (403 with a reason, even with the current one), a new e-mail of its own
 * only with the current password (400 on body/current_password without it), and that change ends its
 * other sessions (401 Unauthorized) while the session that made it goes on. Answers its e-mail now.
 */
async function ownCredentials(
  c: ConformanceClient,
  userId: number,
  user: { username: string; email: string; password: string; roleId: number },
  stamp: string,
): Promise<string> {
  const { rest, check, loginToken, expect401 } = c;
  const own = await loginToken(user.email, user.password);
  const other = await loginToken(user.email, user.password);
  if (!own || !other) {
    check('userUpdate (own credentials)', 'rest', 0, ['could not sign in twice as the throwaway user']);
    return user.email;
  }
  const refused = asRecord(
    await rest(
      'userUpdate',
      'PUT',
      `/api/users/${userId}`,
      403,
      {
        token: own,
        body: {
          username: user.username,
          name: 'Conformance User Renamed',
          email: user.email,
          role_id: user.roleId,
          password: 'Conf#Own7!Pw@Zq',
          current_password: user.password,
        },
      },
      'userUpdate (own password: 403)',
    ),
  );
  if (typeof refused.reason !== 'string')
    check('userUpdate (own password: reason)', 'rest', 403, [
      `a refusal no permission lifts carries a reason (Forbidden.reason), got ${JSON.stringify(refused)}`,
    ]);
  const moved = `conf-moved-${stamp}@example.com`;
  const missing = asRecord(
    await rest(
      'userUpdate',
      'PUT',
      `/api/users/${userId}`,
      400,
      { token: own, body: { email: moved } },
      'userUpdate (own e-mail without the current password)',
    ),
  );
  const fields = asArray(missing.errors).map((e) => asRecord(e).field);
  if (!fields.includes('body/current_password'))
    check('userUpdate (own e-mail without the current password: field)', 'rest', 400, [
      `expected an error on body/current_password, got ${JSON.stringify(missing)}`,
    ]);
  await rest(
    'userUpdate',
    'PUT',
    `/api/users/${userId}`,
    200,
    { token: own, body: { email: moved, current_password: user.password } },
    'userUpdate (own e-mail with the current password)',
  );
  await rest(
    'authUserInfo',
    'GET',
    '/api/auth/userInfo',
    200,
    { token: own },
    'authUserInfo (the session that changed its e-mail)',
  );
  await expect401('401 another session after an own e-mail change (REST)', 'GET', '/api/auth/userInfo', other, {
    status: 'Unauthorized',
  });
  return moved;
}

/**
 * Runs `body` with the GraphQL path of the run's customer tenant (staff act in any tenant,
 * contracts/schema.graphql), so what it creates there goes with the tenant at the cleanup.
 */
async function inCustomerTenant<T>(c: ConformanceClient, tenants: RunTenants, body: () => Promise<T>): Promise<T> {
  const own = c.session.tenant;
  c.session.tenant = tenants.customerName;
  try {
    return await body();
  } finally {
    c.session.tenant = own;
  }
}

/**
 * An administrador of the run's customer tenant, created through GraphQL `newUser` on that tenant's
 * path with the caller's own role; its token (null when it could not be created or sign in). REST
 * `userCreate` puts a user in the caller's tenant, so the REST users are created by this one: they land
 * in the customer tenant and go with it (a deleted user's row stays: userDelete is a soft delete).
 */
async function customerAdministrator(
  c: ConformanceClient,
  run: RunContext,
  tenants: RunTenants,
): Promise<string | null> {
  const email = `conf-admin-${run.stamp}@example.com`;
  const password = 'Conf#Ad8!Tn3@Vx';
  const created = await inCustomerTenant(c, tenants, () =>
    c.graphql('newUser', {
      username: `conf.admin.${run.stamp}`,
      name: 'Conformance Tenant Administrator',
      email,
      password,
      role_id: run.ownRoleId ?? 0,
      user_department_id: null,
      chosen_instances: [],
    }),
  );
  if (!created) return null;
  return c.loginToken(email, password);
}

/**
 * A throwaway user through REST, created by an administrador of the run's customer tenant (so in that
 * tenant); its id (undefined when it could not be created).
 */
export async function restUsers(
  c: ConformanceClient,
  run: RunContext,
  me: Record<string, unknown>,
  roleId: number | undefined,
  tenants: RunTenants,
): Promise<number | undefined> {
  const token = await customerAdministrator(c, run, tenants);
  if (!token) {
    c.check('userCreate', 'rest', 0, ["not exercised: no administrador of the run's customer tenant"]);
    return undefined;
  }
  const caller = c.session.token;
  c.session.token = token;
  try {
    return await restUsersAs(c, run, me, roleId ?? run.ownRoleId);
  } finally {
    c.session.token = caller;
  }
}

async function restUsersAs(
  c: ConformanceClient,
  run: RunContext,
  me: Record<string, unknown>,
  roleId: number | undefined,
): Promise<number | undefined> {
  const { rest, csv, check } = c;
  const { stamp } = run;
  const users = asArray(await rest('userList', 'GET', '/api/users', 200)).map(asRecord);
  const anyUserId =
    typeof me.id === 'number' ? me.id : users.map((u) => u.id).find((id): id is number => typeof id === 'number');
  const userEmail = `conf-${stamp}@example.com`;
  const userPassword = USER_PASSWORD;
  const user = asRecord(
    await rest('userCreate', 'POST', '/api/users', 201, {
      body: {
        username: `conf.${stamp}`,
        name: 'Conformance User',
        email: userEmail,
        password: userPassword,
        role_id: roleId ?? 0,
        user_department_id: null,
        chosen_instances: [],
      },
    }),
  );
  const userId = typeof user.id === 'number' ? user.id : undefined;
  await rest('userFindByEmail', 'POST', '/api/users/email', 200, { body: { email: userEmail } });
  // The list on the server (docs/lists.md): the new user is found by its e-mail in a page, among the ids and in the export.
  const listed = asRecord(
    await rest('userPage', 'GET', '/api/users/page', 200, { query: { q: userEmail, blocked: 'false', limit: '5' } }),
  );
  const selected = asRecord(await rest('userIds', 'GET', '/api/users/ids', 200, { query: { q: userEmail } }));
  if (userId && (listed.data !== undefined || selected.ids !== undefined)) {
    const inPage = asArray(listed.data).some((u) => asRecord(u).id === userId);
    const inIds = asArray(selected.ids).includes(userId);
    check('userPage and userIds (find the new user by its e-mail)', 'rest', 200, [
      ...(inPage ? [] : ['the user is not in the page']),
      ...(inIds ? [] : ['the user is not among the ids']),
    ]);
  }
  await csv('userExport', '/api/users/export', { q: userEmail, sort: 'email' });
  if (userId) {
    await rest('userUpdate', 'PUT', `/api/users/${userId}`, 200, { body: { name: 'Conformance User Renamed' } });
    await rest('userSetBlocked', 'PATCH', `/api/users/${userId}`, 200, { body: { blocked: false } });
    // Two-factor can only be turned on by enrolling (409 here); off is an administrator's reset.
    await rest(
      'userSettingsUpdate',
      'PATCH',
      `/api/user-settings/${userId}`,
      409,
      { body: { two_factor_enabled: true } },
      'userSettingsUpdate (on without enrolment)',
    );
    await rest('userSettingsUpdate', 'PATCH', `/api/user-settings/${userId}`, 200, {
      body: { two_factor_enabled: false },
    });
    // An administrator requires enrolment at the next sign-in, and lifts it again (the flow below signs in).
    await rest(
      'userSettingsUpdate',
      'PATCH',
      `/api/user-settings/${userId}`,
      200,
      { body: { two_factor_enrolment_required: true } },
      'userSettingsUpdate (require enrolment)',
    );
    await rest('userSettingsUpdate', 'PATCH', `/api/user-settings/${userId}`, 200, {
      body: { two_factor_enrolment_required: false },
    });
    await twoFactorFlow(c, userEmail, userPassword);
    await ownCredentials(
      c,
      userId,
      { username: `conf.${stamp}`, email: userEmail, password: userPassword, roleId: roleId ?? 0 },
      stamp,
    );
  } else if (anyUserId) {
    // Without a throwaway user, still exercise the read-only-ish setting on the caller itself.
    await rest('userSettingsUpdate', 'PATCH', `/api/user-settings/${anyUserId}`, 200, {
      body: { two_factor_enabled: me.twoFactorEnabled === true },
    });
  }
  return userId;
}

/**
 * Every GraphQL operation (contracts/operations), on the path of the run's customer tenant (what it
 * creates there goes with the tenant), on a throwaway user of its own.
 */
export async function graphqlOperations(
  c: ConformanceClient,
  run: RunContext,
  roleId: number | undefined,
  tenants: RunTenants,
): Promise<void> {
  await inCustomerTenant(c, tenants, () => graphqlOperationsHere(c, run, roleId ?? run.ownRoleId));
}

async function graphqlOperationsHere(c: ConformanceClient, run: RunContext, roleId: number | undefined): Promise<void> {
  const { graphql, graphqlRefused, http, rest, check, loginToken, expect401, email, password, tenant } = c;
  const { stamp } = run;
  await graphql('logIn', { email, password, remember: false }, null);
  await graphql('userInfos', {});
  await graphql('users', {});
  await graphql('usersPage', {
    filter: { blocked: false },
    sort: { field: 'email', direction: 'desc' },
    page: 1,
    limit: 5,
  });
  await graphql('roles', {});
  await graphql('departments', {});
  const gqlInstances = asArray((await graphql('instances', { remove_ids: [] }))?.instances).map(asRecord);
  await graphql('onlineUsers', { user_id: null, instance_id: null });
  // The caller's presence ends as it was (userInfo `isConnected` at sign-in): the other one first.
  if (run.ownConnected === true) {
    await graphql('disconnected', {});
    await graphql('connected', {});
  } else {
    await graphql('connected', {});
    await graphql('disconnected', {});
  }

  let instanceIds = gqlInstances.map((i) => i.id).filter((id): id is number => typeof id === 'number');
  if (instanceIds.length === 0) {
    // The GraphQL tenant has no instance: create one so links can be made and removed.
    const extra = asRecord(
      (
        await http('POST', '/api/instance', {
          body: { name: `Conformance ${stamp} gql`, tenantName: tenant, isOfficial: false, isUnlimited: false },
        })
      ).json,
    );
    if (typeof extra.id === 'number') instanceIds = [extra.id];
  }
  // A throwaway department and connection of the GraphQL tenant (unique names), renamed and deactivated.
  const department = asRecord(
    (await graphql('createDepartment', { name: `Conformance ${stamp} gql` }))?.createDepartment,
  );
  if (typeof department.id === 'number')
    await graphql('updateDepartment', { id: department.id, name: `Conformance ${stamp} gql 2`, activated: false });
  else if (c.inProfile('updateDepartment'))
    check('updateDepartment', 'graphql', 0, ['not exercised: createDepartment created nothing']);
  await graphql('connections', {});
  await graphql('auditRecords', { limit: 5 });
  await graphql('auditNames', { of: 'actor', limit: 5 });
  await graphql('attention', {});
  const connection = asRecord(
    (await graphql('createConnection', { instance_id: instanceIds[0] ?? 0, name: `Conformance ${stamp} gql` }))
      ?.createConnection,
  );
  if (typeof connection.id === 'number')
    await graphql('updateConnection', { id: connection.id, name: `Conformance ${stamp} gql 2`, activated: false });
  else if (c.inProfile('updateConnection'))
    check('updateConnection', 'graphql', 0, ['not exercised: createConnection created nothing']);
  const gqlPassword = 'Conf#Gq7!Zr4@Wt';
  const gqlEmail = `conf-gql-${stamp}@example.com`;
  const created = asRecord(
    (
      await graphql('newUser', {
        username: `conf.gql.${stamp}`,
        name: 'Conformance GraphQL User',
        email: gqlEmail,
        password: gqlPassword,
        role_id: roleId ?? 0,
        user_department_id: null,
        chosen_instances: instanceIds.slice(0, 1),
      })
    )?.newUser,
  );
  const gqlUserId = typeof created.id === 'number' ? created.id : undefined;
  if (gqlUserId) {
    const links = asArray((await graphql('userInstances', { user_id: gqlUserId }))?.userInstances).map(asRecord);
    await graphql('updateUser', {
      id: gqlUserId,
      name: 'Conformance GraphQL User Renamed',
      chosen_instances: instanceIds.slice(0, 1),
    });
    const linkId = links.map((l) => l.id).find((id): id is number => typeof id === 'number');
    if (linkId) await graphql('deleteUserInstance', { id: linkId });
    else check('deleteUserInstance', 'graphql', 0, ['no user–instance link to delete (newUser linked no instance)']);
    // Require enrolment at the next sign-in and lift it again before signing in as the user.
    await graphql('updateUserSettings', { user_id: gqlUserId, two_factor_enrolment_required: true });
    await graphql('updateUserSettings', { user_id: gqlUserId, two_factor_enrolment_required: false });
    // Password change as the throwaway user (never touches the caller's password), proven with the
    // current one: a wrong one is BAD_USER_INPUT current_password; the change answers a new token of this
    // session and ends the user's other sessions (401 Unauthorized).
    const gqlToken = await loginToken(gqlEmail, gqlPassword);
    const otherSession = await loginToken(gqlEmail, gqlPassword);
    if (gqlToken && otherSession) {
      await graphqlRefused(
        'updateUserPassword',
        { password: `${gqlPassword}2`, current_password: `${gqlPassword}x` },
        gqlToken,
        { code: 'BAD_USER_INPUT', field: 'current_password' },
        'updateUserPassword (wrong current password)',
      );
      const changed = asRecord(
        (await graphql('updateUserPassword', { password: `${gqlPassword}2`, current_password: gqlPassword }, gqlToken))
          ?.updateUserPassword,
      );
      if (typeof changed.token === 'string')
        await rest(
          'authUserInfo',
          'GET',
          '/api/auth/userInfo',
          200,
          { token: changed.token },
          'authUserInfo (token answered by updateUserPassword)',
        );
      await expect401('401 another session after a password change (REST)', 'GET', '/api/auth/userInfo', otherSession, {
        status: 'Unauthorized',
      });
    } else check('updateUserPassword', 'graphql', 0, ['could not sign in twice as the throwaway GraphQL user']);
    await graphql('disconnectUser', { user_id: gqlUserId });
    await graphql('deleteUser', { id: gqlUserId });
  } else {
    for (const name of [
      'userInstances',
      'updateUser',
      'deleteUserInstance',
      'updateUserSettings',
      'updateUserPassword',
      'disconnectUser',
      'deleteUser',
    ]) {
      check(name, 'graphql', 0, ['not exercised: newUser did not create a user']);
    }
  }
  // refreshToken on a session of its own, so the main token keeps working.
  const refreshable = await loginToken();
  if (refreshable) await graphql('refreshToken', {}, refreshable);
  else check('refreshToken', 'graphql', 0, ['could not sign in for a separate session']);
}

/** Soft delete and restore of the throwaway tenant (the cleanup removes it, ./kit-fixtures.ts). */
export async function softDeleteAndRestore(c: ConformanceClient, tenants: RunTenants): Promise<void> {
  const { rest, http, check } = c;
  const { tenantName, tenantId } = tenants;
  if (tenantId) {
    const findIn = async (onlyDeleted: boolean): Promise<Record<string, unknown> | undefined> => {
      const page = await http('POST', '/api/tenant/paginated', {
        body: { search: tenantName, pagination_limit: 100, only_deleted: onlyDeleted },
      });
      return asArray(asRecord(page.json).data)
        .map(asRecord)
        .find((t) => t.id === tenantId);
    };
    const deleted = asRecord(await rest('tenantDelete', 'POST', '/api/tenant/delete', 200, { body: { id: tenantId } }));
    const problems: string[] = [];
    if (typeof deleted.deleted_at !== 'string') problems.push('tenantDelete answered deleted_at not set');
    if (await findIn(false)) problems.push('a deleted tenant is still in the paginated list');
    const hidden = await findIn(true);
    if (!hidden) problems.push('a deleted tenant is missing from the list with only_deleted');
    else if (typeof hidden.deleted_at !== 'string')
      problems.push('a deleted tenant lists deleted_at null with only_deleted');
    const listed = asArray((await http('GET', '/api/tenant/false')).json).map(asRecord);
    if (listed.some((t) => t.id === tenantId)) problems.push('a deleted tenant is still in GET /api/tenant/false');
    const restored = asRecord(
      await rest('tenantRestore', 'POST', '/api/tenant/restore', 200, { body: { id: tenantId } }),
    );
    if (restored.deleted_at !== null) problems.push('tenantRestore answered deleted_at not null');
    if (!(await findIn(false))) problems.push('a restored tenant is missing from the paginated list');
    if (await findIn(true)) problems.push('a restored tenant is still in the list with only_deleted');
    check('soft delete / restore', 'rest', 200, problems);
    await undoRestore(c, tenantId, findIn);
  }
}

/**
 * Undo on the server (contracts/openapi.yaml `auditUndo`): the restore just made is undone (the tenant is
 * deleted again), the undo is undone (restored again, as the run leaves it), and the first record,
 * undone already, is refused (409 `already_undone`).
 */
async function undoRestore(
  c: ConformanceClient,
  tenantId: number,
  findIn: (onlyDeleted: boolean) => Promise<Record<string, unknown> | undefined>,
): Promise<void> {
  const { rest, http, check } = c;
  if (!c.inProfile('auditUndo') || !c.inProfile('auditList')) return;
  const latest = async (operation: string): Promise<Record<string, unknown> | undefined> =>
    asArray(
      asRecord(
        (
          await http('GET', '/api/audit', {
            query: { operation, targetType: 'tenant', targetId: tenantId, limit: 1 },
          })
        ).json,
      ).data,
    ).map(asRecord)[0];
  const record = await latest('tenant.restore');
  if (typeof record?.id !== 'number' || typeof record.undoable_until !== 'string') {
    check('auditUndo', 'rest', 0, ['the restore just made is not in the audit log as undoable']);
    return;
  }
  const problems: string[] = [];
  const undone = asRecord(await rest('auditUndo', 'POST', `/api/audit/${record.id}/undo`, 200));
  if (!(await findIn(true))) problems.push('an undone restore left the tenant live');
  if (typeof undone.by === 'number') {
    await rest('auditUndo', 'POST', `/api/audit/${undone.by}/undo`, 200, {}, 'auditUndo (the undo undone)');
    if (!(await findIn(false))) problems.push('an undone undo left the tenant deleted');
  } else problems.push('auditUndo answered no reversing record');
  await rest('auditUndo', 'POST', `/api/audit/${record.id}/undo`, 409, {}, 'auditUndo (undone already: 409)');
  check('undo / undo of the undo', 'rest', 200, problems);
}

/**
 * The support desk (docs/support-desk.md) on the deleted throwaway user: found by its e-mail, shown,
 * restored, blocked and unblocked, two-factor required and withdrawn; what would change nothing is
 * refused (409); then deleted again, as the run leaves it.
 */
async function supportDesk(c: ConformanceClient, userId: number): Promise<void> {
  const { rest, check } = c;
  if (!c.inProfile('supportPerson')) return;
  const person = asRecord(await rest('supportPerson', 'GET', `/api/support/users/${userId}`, 200));
  const email = asRecord(person.user).email;
  const found = asRecord(
    await rest('supportSearch', 'GET', `/api/support/users?q=${encodeURIComponent(String(email))}`, 200),
  );
  if (!asArray(found.data).some((u) => asRecord(u).id === userId))
    check('supportSearch (finds the user by its e-mail)', 'rest', 200, ['the user is not in the answer']);
  const path = `/api/support/users/${userId}`;
  await rest('supportBlock', 'POST', `${path}/block`, 409, { body: { blocked: true } }, 'supportBlock (deleted: 409)');
  await rest('supportRestore', 'POST', `${path}/restore`, 200, { body: {} });
  await rest('supportRestore', 'POST', `${path}/restore`, 409, { body: {} }, 'supportRestore (not deleted: 409)');
  await rest('supportBlock', 'POST', `${path}/block`, 200, { body: { blocked: true } });
  await rest('supportBlock', 'POST', `${path}/block`, 200, { body: { blocked: false } });
  await rest('supportTwoFactor', 'POST', `${path}/two-factor`, 200, { body: { action: 'require' } });
  await rest('supportTwoFactor', 'POST', `${path}/two-factor`, 200, { body: { action: 'unrequire' } });
  // A wrong password counts against the user; the desk lifts it, and then there is nothing to lift.
  await c.http('POST', '/api/auth/login', { body: { email, password: 'Wrong#Conf-5x', ip: null } });
  await rest('supportLiftThrottle', 'POST', `${path}/lift-throttle`, 200, { body: {} });
  await rest(
    'supportLiftThrottle',
    'POST',
    `${path}/lift-throttle`,
    409,
    { body: {} },
    'supportLiftThrottle (nothing counted: 409)',
  );
  // A session of the user (its password of restUsersAs) ends, and then there is none to end.
  if (typeof email === 'string' && (await c.loginToken(email, USER_PASSWORD))) {
    await rest('supportEndSessions', 'POST', `${path}/sessions/end`, 200, { body: {} });
    await rest(
      'supportEndSessions',
      'POST',
      `${path}/sessions/end`,
      409,
      { body: {} },
      'supportEndSessions (no session: 409)',
    );
  } else check('supportEndSessions', 'rest', 0, ['the restored user could not sign in']);
  await supportCredentials(c, path, email);
  await rest('userDelete', 'DELETE', `/api/users/${userId}`, 200, {}, 'userDelete (again, after the support desk)');
}

/**
 * The desk's two actions on a password (docs/support-desk.md): a weak temporary password is refused
 * (400); a strong one answers the person with `mustChangePassword`, and signing in with it asks for a new
 * password (401 `password_change_required`, no session) until one is sent along (200). A reset link is
 * sent (200), or refused 503 when the server says it cannot send mail (`passwordResetStatus`).
 */
async function supportCredentials(c: ConformanceClient, path: string, email: unknown): Promise<void> {
  const { rest, check, http } = c;
  await rest(
    'supportTemporaryPassword',
    'POST',
    `${path}/temporary-password`,
    400,
    { body: { password: 'abcdefgh' } },
    'supportTemporaryPassword (weak: 400)',
  );
  const temporary = 'Temp#Conf-7Kq!x';
  const person = asRecord(
    await rest('supportTemporaryPassword', 'POST', `${path}/temporary-password`, 200, {
      body: { password: temporary },
    }),
  );
  const problems: string[] = [];
  if (person.mustChangePassword !== true) problems.push('the answer does not say mustChangePassword: true');
  const asked = await http('POST', '/api/auth/login', { token: null, body: { email, password: temporary, ip: null } });
  if (asked.status !== 401 || asRecord(asked.json).error !== 'password_change_required')
    problems.push(`signing in with it answered ${asked.status}, not 401 password_change_required`);
  const changed = await http('POST', '/api/auth/login', {
    token: null,
    body: { email, password: temporary, new_password: USER_PASSWORD, ip: null },
  });
  if (changed.status !== 200) problems.push(`signing in with new_password answered ${changed.status}, not 200`);
  check('temporary password: sign-in asks for a new one, then signs in', 'rest', changed.status, problems);
  const status = asRecord(await http('GET', '/api/auth/password-reset', { token: null }).then((a) => a.json));
  await rest('supportResetLink', 'POST', `${path}/reset-link`, status.enabled === false ? 503 : 200, { body: {} });
}

/**
 * Bulk actions on users (docs/lists.md, Bulk actions) on the live throwaway user: a dry run says the block
 * would change it and writes nothing; the real run blocks it in a new batch; an unblock puts it back.
 */
async function bulkUsers(c: ConformanceClient, userId: number): Promise<void> {
  const { rest, check } = c;
  if (!c.inProfile('userBulk')) return;
  const outcome = (answer: unknown) => asRecord(asArray(asRecord(answer).results)[0]).outcome;
  const problems: string[] = [];
  const bulk = (action: string, dry_run: boolean) =>
    rest('userBulk', 'POST', '/api/users/bulk', 200, { body: { action, ids: [userId], dry_run } });
  const dry = await bulk('block', true);
  if (outcome(dry) !== 'change') problems.push(`a dry run of block answered ${String(outcome(dry))}, not change`);
  if (asRecord(dry).batch_id !== null) problems.push('a dry run answered a batch_id');
  const blocked = await bulk('block', false);
  if (outcome(blocked) !== 'changed') problems.push(`block answered ${String(outcome(blocked))}, not changed`);
  if (typeof asRecord(blocked).batch_id !== 'number') problems.push('a real run answered no batch_id');
  const again = await bulk('block', true);
  if (outcome(again) !== 'unchanged') problems.push(`a second block's dry run answered ${String(outcome(again))}`);
  const unblocked = await bulk('unblock', false);
  if (outcome(unblocked) !== 'changed') problems.push(`unblock answered ${String(outcome(unblocked))}, not changed`);
  check('userBulk (dry run, block, unblock)', 'rest', 200, problems);
}

/** The REST throwaway user goes last, then logout. */
export async function deleteUserAndLogOut(c: ConformanceClient, userId: number | undefined): Promise<void> {
  const { rest, check, loginToken, expect401, email } = c;
  if (userId) await bulkUsers(c, userId);
  if (userId) await rest('userDelete', 'DELETE', `/api/users/${userId}`, 200);
  if (userId) await supportDesk(c, userId);
  const session = await loginToken();
  if (session) {
    await rest('authLogout', 'POST', '/api/auth/logout', 200, { token: session, body: { data: { email }, ip: null } });
    await expect401('401 token after logout (REST)', 'GET', '/api/auth/userInfo', session, { status: 'Unauthorized' });
  } else {
    check('authLogout', 'rest', 0, ['could not sign in for a separate session']);
  }
}
