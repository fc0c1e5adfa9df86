import { asArray, asRecord, randomCnpj } from './kit-client.js';
import type { ConformanceClient } from './kit-client.js';
import type { Fixtures } from './kit-fixtures.js';

/** The first steps of a conformance run (./kit.ts): sign-in, the 401 table, tenants, instances, reports, roles. */

/**
 * What the steps of one run share: a unique stamp for throwaway names, the report range, and what the
 * run created (removed at the end, ./kit-fixtures.ts).
 */
export interface RunContext {
  stamp: string;
  startAt: string;
  finishAt: string;
  fixtures: Fixtures;
  /** The caller's role (`userInfo` `user.role.id`): the role of the throwaway users when the run has none. */
  ownRoleId?: number;
  /** The caller's presence at sign-in (`userInfo` `user.isConnected`), which the run leaves as it found it. */
  ownConnected?: boolean;
}

/**
 * The run's two throwaway tenants: one it edits, soft-deletes and restores (`tenantName`), and a
 * customer tenant of its own (`customerName`) whose users, instances, reports and GraphQL it exercises.
 */
export interface RunTenants {
  customerName: string;
  customerId: number;
  tenantName: string;
  tenantId: number | undefined;
}

/** Health, then sign-in as the caller; its user (null: sign-in failed and nothing else can run). */
export async function signIn(c: ConformanceClient): Promise<Record<string, unknown> | null> {
  const { rest, check, email, password } = c;
  // ----- health and sign-in ------------------------------------------------------------------------------
  await rest('healthLive', 'GET', '/healthz', 200, { token: null });
  await rest('healthReady', 'GET', '/readyz', 200, { token: null });
  const login = asRecord(
    await rest('authLogin', 'POST', '/api/auth/login', 200, { token: null, body: { email, password, ip: null } }),
  );
  c.session.token = typeof login.access_token === 'string' ? login.access_token : null;
  if (!c.session.token) {
    check('sign-in', 'auth', 0, ['could not sign in; the remaining operations were not exercised']);
    return null;
  }
  const me = asRecord(asRecord(await rest('authUserInfo', 'GET', '/api/auth/userInfo', 200)).user);
  // The kit's one principal (docs/conformance.md, Principals): another would fail checks for want of a
  // permission, blaming the server, and could create fixtures it cannot remove (only an administrador purges).
  const roleName = asRecord(me.role).name;
  if (Object.keys(me).length > 0 && (roleName !== 'administrador' || me.origin_backoffice !== true)) {
    check('sign-in', 'auth', 0, [
      `${email} is not a back-office administrador (role ${JSON.stringify(roleName ?? null)}, origin_backoffice ${JSON.stringify(me.origin_backoffice ?? null)}): the kit needs one; nothing was run`,
    ]);
    return null;
  }
  // The caller's own tenant, for its GraphQL path, unless the options named one.
  if (!c.session.tenant) {
    if (typeof me.tenantName === 'string' && me.tenantName) c.session.tenant = me.tenantName;
    else {
      check('sign-in', 'auth', 0, [`userInfo names no tenantName for the caller: ${JSON.stringify(me).slice(0, 200)}`]);
      return null;
    }
  }
  // The socket's single-use ticket (contracts/socket.md §1.1).
  await rest('authSocketTicket', 'POST', '/api/auth/socket-ticket', 200);
  await rest('userIsFuncionalUser', 'GET', '/api/users/is-funcional-user', 200);
  await passwordReset(c);
  return me;
}

/**
 * Reset links (docs/support-desk.md, Forgot password), public: whether they can be sent, a request for
 * an e-mail no server can hold (`.invalid`, so nobody is mailed), and a confirm with a token no server
 * made. A server that cannot send mail answers the request 503 `mail_disabled`; one whose limit of
 * requests per address this address used up, 429.
 */
async function passwordReset(c: ConformanceClient): Promise<void> {
  const { rest } = c;
  const status = asRecord(await rest('passwordResetStatus', 'GET', '/api/auth/password-reset', 200, { token: null }));
  const nobody = `conformance-${Date.now().toString(36)}@example.invalid`;
  await rest('passwordResetRequest', 'POST', '/api/auth/password-reset/request', status.enabled === false ? 503 : 202, {
    token: null,
    body: { email: nobody, locale: 'en' },
    // Runs from one address within the hour may use up its limit of requests (docs/support-desk.md).
    alsoAccept: [429],
  });
  await rest('passwordResetConfirm', 'POST', '/api/auth/password-reset/confirm', 400, {
    token: null,
    body: { token: 'conformance-not-a-reset-link', password: 'Conformance#Check!1' },
  });
}

/** The 401 table (docs/product.md, Sessions). */
export async function unauthorizedTable(c: ConformanceClient): Promise<void> {
  const { expect401, tenant } = c;
  await expect401('401 no token (REST)', 'GET', '/api/auth/userInfo', null, {
    status: 'Authorization Token not found',
  });
  await expect401('401 garbage token (REST)', 'GET', '/api/auth/userInfo', 'garbage.token.value', {
    status: 'Token is Invalid',
  });
  await expect401(
    '401 no token (GraphQL)',
    'POST',
    `/${encodeURIComponent(tenant)}/graphql`,
    null,
    { status: 'Authorization Token not found' },
    { query: '{ userInfos { id } }' },
  );
}

/**
 * The feature options the server knows, read from the caller's own tenant (`featureList` answers every
 * option with its state): the kit names no option of its own.
 */
async function featureOptions(c: ConformanceClient): Promise<string[]> {
  const own = asArray(
    await c.rest(
      'featureList',
      'GET',
      '/api/tenant/feature',
      200,
      { query: { tenantName: c.tenant } },
      "featureList (the caller's tenant)",
    ),
  );
  return [
    ...new Set(
      own
        .map(asRecord)
        .map((f) => f.option)
        .filter((o): o is string => typeof o === 'string'),
    ),
  ];
}

/** The body of a throwaway tenant's `tenantCreate`: a fresh valid CNPJ, the starter plan's limits. */
export function tenantBody(name: string, features: string[], template: string, pool: string) {
  return { name, cnpj: randomCnpj(), features, template, pool, userLimit: 5, plan: 'starter', ticketLimit: 100 };
}

/** Creates a throwaway tenant (registered for the cleanup); its id, undefined when it was not created. */
async function createTenant(
  c: ConformanceClient,
  run: RunContext,
  name: string,
  features: string[],
  label: string,
): Promise<number | undefined> {
  // The id of whatever the server created, even with a wrong status (that check fails on its own): the
  // run goes on with it, and the clean-up removes it.
  let id: number | undefined;
  await c.rest(
    'tenantCreate',
    'POST',
    '/api/tenant',
    201,
    {
      body: tenantBody(name, features, 'conformance-a', 'conformance-pool-a'),
      created: (json) => {
        const made = asRecord(json).id;
        if (typeof made !== 'number') return;
        id = made;
        run.fixtures.tenants.push({ id: made, name });
      },
    },
    label,
  );
  return id;
}

/** Two throwaway tenants of the run's own (./kit-fixtures.ts removes them): a customer and one to edit. */
export async function throwawayTenant(c: ConformanceClient, run: RunContext): Promise<RunTenants> {
  const { rest, check, csv } = c;
  const { stamp, startAt, finishAt } = run;
  const options = await featureOptions(c);
  const customerName = `conf-${stamp}-c`;
  const customerId = await createTenant(c, run, customerName, options.slice(0, 1), 'tenantCreate (customer)');
  // The tenantCreate check says why; the groups that need the customer tenant cannot run.
  if (customerId === undefined) throw new Error('the customer tenant could not be created (see tenantCreate)');
  await rest('tenantList', 'GET', '/api/tenant/false', 200);
  await rest('tenantPaginated', 'POST', '/api/tenant/paginated', 200, { body: {} });
  await rest(
    'tenantPaginated',
    'POST',
    '/api/tenant/paginated',
    200,
    {
      body: { search: customerName, plan: 'starter', feature: options[0] ?? 'chat', deleted: 'all' },
    },
    'tenantPaginated (filters)',
  );
  await rest('tenantIds', 'POST', '/api/tenant/ids', 200, { body: { search: customerName, deleted: 'live' } });
  await csv('tenantExport', '/api/tenant/export', { search: customerName, sort_name: 'name', sort_type: 'ASC' });
  const tenantName = `conf-${stamp}`;
  const tenantId = await createTenant(c, run, tenantName, options.slice(0, 1), 'tenantCreate');
  // A live tenant is never purged (contracts/openapi.yaml tenantPurge): delete it first.
  if (tenantId)
    await rest(
      'tenantPurge',
      'POST',
      '/api/tenant/purge',
      409,
      { body: { id: tenantId } },
      'tenantPurge (live tenant: 409)',
    );
  if (tenantId) {
    await rest('tenantSetPlan', 'POST', '/api/tenant/set-plan', 200, {
      body: { id: tenantId, plan: 'professional', user: 10, ticket: 1000 },
    });
    // Same name (the run goes on using it); a new CNPJ, template and pool.
    await rest('tenantUpdate', 'POST', '/api/tenant/update', 200, {
      body: {
        id: tenantId,
        name: tenantName,
        cnpj: randomCnpj(),
        template: 'conformance-b',
        pool: 'conformance-pool-b',
      },
    });
  }
  const features = asArray(await rest('featureList', 'GET', '/api/tenant/feature', 200, { query: { tenantName } }))
    .map(asRecord)
    .filter((f) => typeof f.option === 'string');
  // An option the new tenant has off is turned on; with one option only, it is set to what it is.
  const off = features.find((f) => f.enabled === false) ?? features[0];
  if (off)
    await rest('featureUpdate', 'POST', '/api/tenant/feature', 200, {
      body: { option: off.option, enabled: true, tenantName },
    });
  else check('featureUpdate', 'rest', 0, ['not exercised: the server lists no feature option']);
  // Bulk (docs/lists.md, Bulk actions): the same option off again across the one tenant, dry run first.
  if (off && tenantId && c.inProfile('tenantFeatureBulk')) {
    const body = { option: off.option, enabled: false, ids: [tenantId] };
    const outcome = (answer: unknown) => asRecord(asArray(asRecord(answer).results)[0]).outcome;
    const dry = await rest('tenantFeatureBulk', 'POST', '/api/tenant/features/bulk', 200, {
      body: { ...body, dry_run: true },
    });
    const done = await rest('tenantFeatureBulk', 'POST', '/api/tenant/features/bulk', 200, {
      body: { ...body, dry_run: false },
    });
    const problems: string[] = [];
    if (outcome(dry) !== 'change') problems.push(`the dry run answered ${String(outcome(dry))}, not change`);
    if (outcome(done) !== 'changed') problems.push(`the run answered ${String(outcome(done))}, not changed`);
    check('tenantFeatureBulk (dry run, then run)', 'rest', 200, problems);
  }
  await rest('tenantSyncAnalytics', 'GET', '/api/tenant/syncAnalytics', 200, {
    query: { tenantName, fromDate: startAt, toDate: finishAt, forceUpdate: true },
  });
  // Campaign-status webhooks: ./kit-webhook-steps.ts.
  return { customerName, customerId, tenantName, tenantId };
}

export async function instancesAndConnections(
  c: ConformanceClient,
  run: RunContext,
  tenants: RunTenants,
): Promise<void> {
  const { rest, http } = c;
  const { stamp } = run;
  const { customerName, tenantName } = tenants;
  await rest('instanceList', 'GET', '/api/instance', 200, { query: { tenantName: customerName } });
  const instance = asRecord(
    await rest('instanceCreate', 'POST', '/api/instance', 201, {
      body: { name: `Conformance ${stamp}`, tenantName, isOfficial: false, isUnlimited: false },
    }),
  );
  const instanceId = typeof instance.id === 'number' ? instance.id : undefined;
  if (instanceId) {
    await rest('instanceUpdate', 'POST', '/api/instance/update', 200, {
      body: { id: instanceId, tenantName, name: `Conformance ${stamp} renamed`, activated: true },
    });
    await rest('instanceSyncMessages', 'POST', '/api/instance/syncMessages', 202, {
      body: { id: instanceId, daysAgo: 30, tenantName, unlimitedSync: false },
    });
    // Let the background sync settle before the tenant is deleted (bounded wait).
    for (let i = 0; i < 50; i += 1) {
      const list = await http('GET', '/api/instance', { query: { tenantName } });
      const row = asArray(list.json)
        .map(asRecord)
        .find((r) => r.id === instanceId);
      if (!row || row.status !== 'syncing') break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  await rest('connectionList', 'GET', '/api/connection', 200, { query: { tenantName: customerName } });
  if (instanceId) {
    const created = asRecord(
      await rest('connectionCreate', 'POST', '/api/connection', 201, {
        body: { tenantName, instance_id: instanceId, name: `Conformance ${stamp}` },
      }),
    );
    if (typeof created.id === 'number')
      await rest('connectionUpdate', 'POST', '/api/connection/update', 200, {
        body: { id: created.id, tenantName, name: `Conformance ${stamp} renamed`, activated: false },
      });
  }
  // Departments of the throwaway tenant: create one, rename and deactivate it.
  const department = asRecord(
    await rest('departmentCreate', 'POST', '/api/departments', 201, {
      query: { tenantName },
      body: { name: `Conformance ${stamp}` },
    }),
  );
  if (typeof department.id === 'number')
    await rest('departmentUpdate', 'PATCH', `/api/departments/${department.id}`, 200, {
      query: { tenantName },
      body: { name: `Conformance ${stamp} renamed`, activated: false },
    });
}

export async function sheetsAndDashboards(c: ConformanceClient, run: RunContext, tenants: RunTenants): Promise<void> {
  const { rest, csv } = c;
  const { startAt, finishAt } = run;
  const { customerName, customerId } = tenants;
  const range = { startAt, finishAt, tenantName: customerName };
  await rest('sheetOrders', 'GET', '/api/tenant/sheets/orders', 200, { query: { ...range, limit: 20 } });
  await csv('sheetOrders', '/api/tenant/sheets/orders', range);
  await rest('sheetAttendances', 'GET', '/api/tenant/sheets/attendances', 200, { query: { ...range, limit: 20 } });
  await csv('sheetAttendances', '/api/tenant/sheets/attendances', range);
  await rest('sheetInstanceLogs', 'GET', '/api/tenant/sheets/instance_logs', 200, { query: { ...range, limit: 20 } });
  await csv('sheetInstanceLogs', '/api/tenant/sheets/instance_logs', range);
  await rest('sheetReasons', 'GET', '/api/tenant/sheets/reasons', 200, {
    query: { startAt, finishAt, tenancyId: customerId, limit: 20 },
  });
  await csv('sheetReasons', '/api/tenant/sheets/reasons', { startAt, finishAt, tenancyId: customerId });
  // The run's tenant has no activity, so its sheets have no rows: read those of a tenant the server already
  // has too (read only, whichever it is; none on a server with no other tenant), so rows meet the schema.
  const known = asArray((await c.http('GET', '/api/tenant/false')).json)
    .map(asRecord)
    .filter((t) => typeof t.id === 'number' && typeof t.name === 'string' && !t.name.startsWith(`conf-${run.stamp}`));
  // A customer's rather than the caller's own tenant, whose activity is the likelier.
  const existing = known.find((t) => t.name !== c.tenant) ?? known[0];
  if (existing) {
    const theirs = { startAt, finishAt, tenantName: String(existing.name) };
    const label = (id: string): string => `${id} (a tenant the server already has)`;
    await rest(
      'sheetOrders',
      'GET',
      '/api/tenant/sheets/orders',
      200,
      { query: { ...theirs, limit: 20 } },
      label('sheetOrders'),
    );
    await rest(
      'sheetAttendances',
      'GET',
      '/api/tenant/sheets/attendances',
      200,
      { query: { ...theirs, limit: 20 } },
      label('sheetAttendances'),
    );
    await rest(
      'sheetInstanceLogs',
      'GET',
      '/api/tenant/sheets/instance_logs',
      200,
      { query: { ...theirs, limit: 20 } },
      label('sheetInstanceLogs'),
    );
    await rest(
      'sheetReasons',
      'GET',
      '/api/tenant/sheets/reasons',
      200,
      {
        query: { startAt, finishAt, tenancyId: Number(existing.id), limit: 20 },
      },
      label('sheetReasons'),
    );
    await rest('dashboardSummary', 'GET', '/api/dashboard/summary', 200, { query: theirs }, label('dashboardSummary'));
  }
  await rest('dashboardSummary', 'GET', '/api/dashboard/summary', 200, { query: range });
  await rest('dashboardTimeseries', 'GET', '/api/dashboard/timeseries', 200, {
    query: { ...range, metric: 'revenue', interval: 'day' },
  });
  await rest('dashboardProductivity', 'GET', '/api/dashboard/productivity', 200, { query: range });
  await csv('dashboardProductivity', '/api/dashboard/productivity', range);
  await rest('dashboardReport', 'POST', '/api/dashboard-report', 200, {
    body: { start_at: startAt, finish_at: finishAt, selectedUsers: [] },
  });
  await rest('dashboardReportUsers', 'GET', '/api/dashboard-report/users', 200);
  await rest('sheetLoginFailures', 'GET', '/api/tenant/sheets/login_failures', 200, {
    query: { startAt, finishAt, limit: 20 },
  });
  await csv('sheetLoginFailures', '/api/tenant/sheets/login_failures', { startAt, finishAt });
  // The audit log: a page, and the last hour's records as CSV (the run's own changes, not the whole log).
  await rest('auditList', 'GET', '/api/audit', 200, { query: { limit: 5 } });
  await csv('auditList', '/api/audit', { from: new Date(Date.now() - 3_600_000).toISOString() });
  // The filters' name pickers: actors by name, and targets of one kind.
  await rest('auditNames', 'GET', '/api/audit/names', 200, { query: { of: 'actor', q: 'a' } });
  await rest('auditNames', 'GET', '/api/audit/names', 200, { query: { of: 'target', targetType: 'tenant' } });
  await rest('auditNames', 'GET', '/api/audit/names', 400, { query: { of: 'target' } });
}

/**
 * Permissions and a throwaway role (registered for the cleanup); its id (undefined when it could not be
 * created, or in the `base` profile, where roles are read only: `roleCreate` is an extension).
 */
export async function permissionsAndRoles(c: ConformanceClient, run: RunContext): Promise<number | undefined> {
  const { rest, email, check } = c;
  const { stamp } = run;
  await rest('permissionByEmail', 'GET', '/api/permission/email', 200, { query: { email } });
  const permissions = asArray(await rest('permissionList', 'GET', '/api/permission', 200)).map(asRecord);
  await rest('permissionCategories', 'GET', '/api/permission/categories', 200);
  await rest('roleList', 'GET', '/api/roles', 200);
  const role = asRecord(
    await rest('roleCreate', 'POST', '/api/roles', 201, {
      body: { name: `conf_${stamp}`, display_name: `Conformance ${stamp}` },
    }),
  );
  const roleId = typeof role.id === 'number' ? role.id : undefined;
  if (roleId) run.fixtures.roles.push(roleId);
  if (roleId) {
    await rest('roleGet', 'GET', `/api/roles/${roleId}`, 200);
    await rest('roleRename', 'PUT', `/api/roles/${roleId}`, 200, {
      body: { display_name: `Conformance ${stamp} renamed` },
    });
    const routes = permissions.map((p) => p.route_name).filter((r): r is string => typeof r === 'string');
    // `users` when the server has it: the throwaway users then manage users, and meet the rules on their
    // own records that no permission lifts (contracts/openapi.yaml userUpdate: one's own password, e-mail).
    const route = routes.includes('users') ? 'users' : routes[0];
    await rest('permissionUpdate', 'POST', '/api/permission/update', 200, {
      body: { roleId, permissions: route ? [route] : [] },
    });
  }
  // A second throwaway role, which no user holds, deleted at once.
  const doomed = asRecord(
    await rest(
      'roleCreate',
      'POST',
      '/api/roles',
      201,
      { body: { name: `conf_del_${stamp}`, display_name: `Conformance ${stamp} deleted` } },
      'roleCreate (to delete)',
    ),
  );
  if (typeof doomed.id === 'number') {
    const gone = await rest('roleDelete', 'DELETE', `/api/roles/${doomed.id}`, 200);
    if (gone === undefined) run.fixtures.roles.push(doomed.id);
  }
  if (!c.inProfile('roleCreate')) {
    // No role of its own: permissionUpdate sets an existing role's permissions to what they are, never
    // the caller's own role (nobody edits it), so nothing changes. The base API lists no roles: a user of
    // the caller's tenant holding another role names it (userList), and its permissions come from
    // permissionByEmail.
    const users = asArray((await c.http('GET', '/api/users')).json).map(asRecord);
    const holder = users.find((u) => {
      const roleId = asRecord(u.role).id;
      return typeof roleId === 'number' && roleId !== run.ownRoleId && typeof u.email === 'string';
    });
    const target = holder
      ? {
          id: asRecord(holder.role).id,
          has_permission_routes: asArray(
            (await c.http('GET', '/api/permission/email', { query: { email: String(holder.email) } })).json,
          )
            .map(asRecord)
            .map((p) => p.route_name),
        }
      : undefined;
    if (target)
      await rest('permissionUpdate', 'POST', '/api/permission/update', 200, {
        body: { roleId: target.id, permissions: target.has_permission_routes },
      });
    else check('permissionUpdate', 'rest', 0, ["not exercised: no role but the caller's own to set as it is"]);
  }
  await rest('departmentList', 'GET', '/api/departments', 200);
  return roleId;
}
