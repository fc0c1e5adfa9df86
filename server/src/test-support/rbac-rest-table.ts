import { sql } from 'kysely';
import type { CampaignStatusType } from '../db/schema';
import { nextEndpointId } from '../webhooks/endpoints-repository';
import { newWebhookSecret, sealWebhookSecret } from '../webhooks/secrets';
import { TEST_PASSWORD } from './users';
import {
  AUDIT_LEAK_OPERATIONS,
  freshBUser,
  freshRole,
  freshTenant,
  ids,
  m,
  mint,
  today,
  unique,
  users,
} from './rbac-matrix';
import type { Build, Principal, Req, Row } from './rbac-matrix';

// ------------------------------------------------------------------------------------------------------
// THE REST TABLE: operation × principal → status
// ------------------------------------------------------------------------------------------------------

export const get =
  (url: string): Build =>
  () => ({ method: 'GET', url });
export const send =
  (
    method: Req['method'],
    url: string | (() => string | Promise<string>),
    body?: (who: Principal, n: number) => unknown,
  ): Build =>
  async (who, n) => ({
    method,
    url: typeof url === 'string' ? url : await url(),
    ...(body ? { body: body(who, n) } : {}),
  });
/** A version no record is at (contracts/openapi.yaml `SaveVersion`'s maximum). */
const NEVER = 2_147_483_647;
export const range = () => `startAt=${today()}&finishAt=${today()}`;

//                     anon malf  exp  rev   op  A→B admin
export const PUBLIC: Row = [200, 200, 200, 200, 200, 200, 200];
export const SIGNED_IN: Row = [401, 401, 401, 401, 200, 200, 200];
export const STAFF_ONLY: Row = [401, 401, 401, 401, 403, 403, 200]; // needs a permission op lacks; A is refused tenant B
export const NOT_VISIBLE: Row = [401, 401, 401, 401, 403, 404, 200]; // op lacks the permission; B's record does not exist for A
export const REPORTS: Row = [401, 401, 401, 401, 200, 403, 200]; // op holds the report permissions; A may not name tenant B
export const AUDIT: Row = [401, 401, 401, 401, 403, 200, 200]; // op lacks `audit`; A asking for B's records gets A's own
export const BULK: Row = [401, 401, 401, 401, 403, 200, 200]; // op lacks `users`; A's rows of tenant B answer `not_found`, B unchanged

/** A fresh change of a tenant B user by the staff administrador (a block): its audit record, to undo. */
async function freshUndoable(): Promise<number> {
  const id = await freshBUser();
  const answer = await m.t.app.fastify.inject({
    method: 'PATCH',
    url: `/api/users/${id}?tenantName=matrix-b`,
    headers: { authorization: `Bearer ${await mint(users.admin)}` },
    payload: { blocked: true },
  });
  const record = Number(answer.headers['x-audit-record']);
  if (answer.statusCode !== 200 || !Number.isInteger(record))
    throw new Error(`matrix: no record to undo (${answer.body})`);
  return record;
}

/** A saved view of a fresh user of tenant B's, straight in the database: its id. */
async function freshBView(): Promise<number> {
  const owner = await freshBUser();
  const row = await m.t.db
    .insertInto('saved_views')
    .values({
      user_id: owner,
      list: 'users',
      name: 'Visão de B',
      name_key: 'visão de b',
      state: JSON.stringify({ query: '', columns: [] }),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/**
 * A live webhook endpoint of tenant B's, straight in the database (its secret sealed as the service seals
 * it): its id. B's earlier live endpoints are deleted first, so the calls that make endpoints never meet the
 * limit of 10 (server/src/webhooks/endpoints.ts).
 */
async function freshBEndpoint(): Promise<number> {
  await clearBEndpoints();
  m.counter += 1;
  const id = await nextEndpointId(m.t.db);
  await m.t.db
    .insertInto('webhook_endpoints')
    .values({
      id,
      tenant_id: ids.b,
      url: `https://matrix-b-${m.counter}.example.com/webhooks`,
      url_key: `https://matrix-b-${m.counter}.example.com/webhooks`,
      types: sql<CampaignStatusType[]>`array['delivered']::text[]`,
      secret: sealWebhookSecret(m.t.db, id, newWebhookSecret()),
    })
    .execute();
  return id;
}
async function clearBEndpoints(): Promise<void> {
  await m.t.db
    .updateTable('webhook_endpoints')
    .set({ deleted_at: new Date() })
    .where('tenant_id', '=', ids.b)
    .where('deleted_at', 'is', null)
    .execute();
}

/**
 * A fresh webhook run of tenant B with one failed delivery, straight in the database (no worker runs in
 * the matrix; the endpoint's secret is never opened): the run's and the delivery's ids.
 */
async function freshBWebhook(): Promise<{ run: number; delivery: number }> {
  // B's earlier endpoints go first, as for freshBEndpoint: the endpoint rows never meet the limit of 10.
  await clearBEndpoints();
  m.counter += 1;
  const db = m.t.db;
  const endpoint = await db
    .insertInto('webhook_endpoints')
    .values({
      tenant_id: ids.b,
      url: `https://erp-${m.counter}.matrix-b.example/hooks`,
      url_key: `https://erp-${m.counter}.matrix-b.example/hooks`,
      types: ['delivered'],
      secret: 'unused',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const message = await db
    .insertInto('campaign_messages')
    .values({ tenant_id: ids.b, campaign: 'Campanha B', recipient: '+5511987650000' })
    .returning('id')
    .executeTakeFirstOrThrow();
  const run = await db
    .insertInto('webhook_runs')
    .values({ tenant_id: ids.b, type: 'delivered', start_at: today(), finish_at: today(), total: 1 })
    .returning('id')
    .executeTakeFirstOrThrow();
  const delivery = await db
    .insertInto('webhook_deliveries')
    .values({
      run_id: run.id,
      tenant_id: ids.b,
      endpoint_id: endpoint.id,
      message_id: message.id,
      type: 'delivered',
      idempotency_key: crypto.randomUUID(),
      body: '{}',
      state: 'failed',
      attempts: 1,
      completed_at: new Date(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { run: run.id, delivery: delivery.id };
}

export const REST_TABLE: [string, string, Build, Row][] = [
  // operationId                       label                              request                                                                                  expected
  ['healthLive', '', get('/healthz'), PUBLIC],
  ['healthReady', '', get('/readyz'), PUBLIC],
  [
    'authLogin',
    '',
    send('POST', '/api/auth/login', () => ({ email: users.login.email, password: TEST_PASSWORD, ip: null })),
    PUBLIC,
  ],
  ['authLogout', '', send('POST', '/api/auth/logout', () => ({ data: null, ip: null })), SIGNED_IN],
  // Reset links (docs/support-desk.md, Forgot password): for anyone, whatever token comes along; the same
  // answer for an e-mail nobody has, and one answer for a link that is not one.
  ['passwordResetStatus', '', get('/api/auth/password-reset'), PUBLIC],
  [
    'passwordResetRequest',
    '',
    send('POST', '/api/auth/password-reset/request', (who, n) => ({ email: `nobody-${who}-${n}@matrix.invalid` })),
    [202, 202, 202, 202, 202, 202, 202],
  ],
  [
    'passwordResetConfirm',
    '',
    send('POST', '/api/auth/password-reset/confirm', () => ({ token: 'not-a-link', password: 'Matrix#Reset!2026' })),
    [400, 400, 400, 400, 400, 400, 400],
  ],

  ['authUserInfo', '', get('/api/auth/userInfo'), SIGNED_IN],
  ['authSocketTicket', '', send('POST', '/api/auth/socket-ticket'), SIGNED_IN],
  ['userIsFuncionalUser', '', get('/api/users/is-funcional-user'), SIGNED_IN],
  ['userFindByEmail', '', send('POST', '/api/users/email', () => ({ email: 'matrix-b-user@demo.local' })), NOT_VISIBLE],
  ['userList', 'tenantName=B', get('/api/users?tenantName=matrix-b'), STAFF_ONLY],
  ['userList', 'own tenant', get('/api/users'), [401, 401, 401, 401, 403, 200, 200]],
  // The list on the server (docs/lists.md): the rows of userList, for a page, every id and the export.
  ['userPage', 'tenantName=B', get('/api/users/page?tenantName=matrix-b&blocked=false'), STAFF_ONLY],
  ['userPage', 'own tenant', get('/api/users/page?sort=email'), [401, 401, 401, 401, 403, 200, 200]],
  ['userIds', 'tenantName=B', get('/api/users/ids?tenantName=matrix-b'), STAFF_ONLY],
  ['userIds', 'own tenant', get('/api/users/ids?online=false'), [401, 401, 401, 401, 403, 200, 200]],
  ['userExport', 'tenantName=B', get('/api/users/export?tenantName=matrix-b'), STAFF_ONLY],
  ['userExport', 'own tenant', get('/api/users/export?q=a'), [401, 401, 401, 401, 403, 200, 200]],
  [
    'userCreate',
    "lands in the caller's tenant",
    send('POST', '/api/users', (who, n) => ({
      username: `m.${unique(who, n)}`,
      name: 'Matrix New',
      email: `m-${unique(who, n)}@demo.local`,
      password: 'Matrix#Pass-9Z7',
      role_id: ids.role,
    })),
    [401, 401, 401, 401, 403, 201, 201],
  ],
  [
    'userUpdate',
    '',
    send(
      'PUT',
      () => `/api/users/${ids.bUser}`,
      (who) => ({ name: who === 'admin' ? 'Bruno Segredo' : `pwned-${who}` }),
    ),
    NOT_VISIBLE,
  ],
  [
    'userSetBlocked',
    '',
    send(
      'PATCH',
      () => `/api/users/${ids.bUser}`,
      () => ({ blocked: false }),
    ),
    NOT_VISIBLE,
  ],
  ['userDelete', '', async () => ({ method: 'DELETE', url: `/api/users/${await freshBUser()}` }), NOT_VISIBLE],
  [
    'userPurge',
    '',
    async () => ({ method: 'POST', url: '/api/users/purge', body: { id: await freshBUser({ deleted: true }) } }),
    STAFF_ONLY,
  ],
  // Bulk actions (docs/lists.md): each principal on a fresh user of tenant B; A is answered per row (`not_found`,
  // no name), which the leak check reads, and tenant B is unchanged after (expectNothingLeaked).
  [
    'userBulk',
    '',
    async () => ({
      method: 'POST',
      url: '/api/users/bulk',
      body: { action: 'block', ids: [await freshBUser()], dry_run: false },
    }),
    BULK,
  ],
  [
    'userBulk',
    'dry run',
    async () => ({
      method: 'POST',
      url: '/api/users/bulk',
      body: { action: 'delete', ids: [await freshBUser()], dry_run: true },
    }),
    BULK,
  ],
  // The support desk (docs/support-desk.md): staff with `users` only; each request on a fresh user of
  // tenant B in the state its action changes, so the administrator's call succeeds.
  ['supportSearch', '', get('/api/support/users?q=bruno'), STAFF_ONLY],
  ['supportPerson', '', async () => ({ method: 'GET', url: `/api/support/users/${await freshBUser()}` }), STAFF_ONLY],
  [
    'supportLiftThrottle',
    '',
    async () => {
      const id = await freshBUser();
      const { email } = await m.t.db.selectFrom('users').select('email').where('id', '=', id).executeTakeFirstOrThrow();
      await m.t.db
        .insertInto('login_attempts')
        .values({
          email,
          ip: null,
          remote_address: '10.99.0.1',
          address_key: '10.99.0.1',
          user_id: id,
          success: false,
          reason: 'wrong_password',
        })
        .execute();
      return { method: 'POST', url: `/api/support/users/${id}/lift-throttle`, body: {} };
    },
    STAFF_ONLY,
  ],
  [
    'supportTwoFactor',
    '',
    async () => ({
      method: 'POST',
      url: `/api/support/users/${await freshBUser()}/two-factor`,
      body: { action: 'require' },
    }),
    STAFF_ONLY,
  ],
  [
    'supportEndSessions',
    '',
    async () => {
      const id = await freshBUser();
      await m.t.app.tokens.issue(id, 0);
      return { method: 'POST', url: `/api/support/users/${id}/sessions/end`, body: {} };
    },
    STAFF_ONLY,
  ],
  [
    'supportBlock',
    '',
    async () => ({ method: 'POST', url: `/api/support/users/${await freshBUser()}/block`, body: { blocked: true } }),
    STAFF_ONLY,
  ],
  [
    'supportRestore',
    '',
    async () => ({
      method: 'POST',
      url: `/api/support/users/${await freshBUser({ deleted: true })}/restore`,
      body: {},
    }),
    STAFF_ONLY,
  ],
  [
    'supportTemporaryPassword',
    '',
    async () => ({
      method: 'POST',
      url: `/api/support/users/${await freshBUser()}/temporary-password`,
      body: { password: 'Temp#Matrix!2026' },
    }),
    STAFF_ONLY,
  ],
  [
    'supportResetLink',
    '',
    async () => ({ method: 'POST', url: `/api/support/users/${await freshBUser()}/reset-link`, body: {} }),
    STAFF_ONLY,
  ],
  [
    'userSettingsUpdate',
    '',
    send(
      'PATCH',
      () => `/api/user-settings/${ids.bUser}`,
      () => ({ two_factor_enabled: false }),
    ),
    NOT_VISIBLE,
  ],
  ['tenantList', '', get('/api/tenant/false'), SIGNED_IN],
  [
    'tenantPaginated',
    'search B',
    send('POST', '/api/tenant/paginated', () => ({ search: 'matrix-b', pagination_limit: 100 })),
    [401, 401, 401, 401, 403, 200, 200],
  ],
  // A sees its own tenant only (server/src/tenants/list-filters.api.test.ts checks what it sees).
  [
    'tenantIds',
    'search B',
    send('POST', '/api/tenant/ids', () => ({ search: 'matrix-b', deleted: 'all' })),
    [401, 401, 401, 401, 403, 200, 200],
  ],
  [
    'tenantExport',
    'search B',
    get('/api/tenant/export?search=matrix-b&plan=starter'),
    [401, 401, 401, 401, 403, 200, 200],
  ],
  [
    'tenantCreate',
    '',
    send('POST', '/api/tenant', (who, n) => ({
      name: `matrix-new-${unique(who, n)}`,
      cnpj: '11.444.777/0001-61',
      features: ['chat'],
      template: 'pharmacy',
      pool: 'pool-a',
      userLimit: 5,
      plan: 'starter',
      ticketLimit: 10,
    })),
    [401, 401, 401, 401, 403, 403, 201],
  ],
  [
    'tenantDelete',
    '',
    async () => ({ method: 'POST', url: '/api/tenant/delete', body: { id: await freshTenant(false) } }),
    STAFF_ONLY,
  ],
  [
    'tenantRestore',
    '',
    async () => ({ method: 'POST', url: '/api/tenant/restore', body: { id: await freshTenant(true) } }),
    STAFF_ONLY,
  ],
  [
    'tenantPurge',
    '',
    async () => ({ method: 'POST', url: '/api/tenant/purge', body: { id: await freshTenant(true) } }),
    STAFF_ONLY,
  ],
  [
    'tenantSetPlan',
    '',
    send('POST', '/api/tenant/set-plan', (who) => ({
      id: ids.b,
      plan: who === 'admin' ? 'professional' : 'enterprise',
      user: who === 'admin' ? 50 : 99,
      ticket: 1000,
    })),
    STAFF_ONLY,
  ],
  // Plans, limits and flags are the provider's (server/src/access/policies.ts): a customer's own
  // administrador may not raise its own plan, nor switch its own features.
  [
    'tenantSetPlan',
    'own tenant',
    send('POST', '/api/tenant/set-plan', (who) => ({
      id: who === 'admin' ? ids.b : ids.a,
      plan: who === 'admin' ? 'professional' : 'enterprise',
      user: who === 'admin' ? 50 : 100_000,
      ticket: 1000,
    })),
    STAFF_ONLY,
  ],
  [
    'tenantUpdate',
    'back-office only',
    async (who, n) => ({
      method: 'POST',
      url: '/api/tenant/update',
      body: {
        id: await freshTenant(false),
        name: `matrix-edit-${unique(who, n)}`,
        cnpj: '11.444.777/0001-61',
        template: 'pharmacy',
        pool: 'pool-b',
      },
    }),
    STAFF_ONLY,
  ],
  ['sheetOrders', '', get(`/api/tenant/sheets/orders?tenantName=matrix-b&STARTFINISH`), REPORTS],
  ['sheetAttendances', '', get(`/api/tenant/sheets/attendances?tenantName=matrix-b&STARTFINISH`), REPORTS],
  ['sheetInstanceLogs', '', get(`/api/tenant/sheets/instance_logs?tenantName=matrix-b&STARTFINISH`), REPORTS],
  [
    'sheetReasons',
    'tenancyId=B',
    async () => ({ method: 'GET', url: `/api/tenant/sheets/reasons?tenancyId=${ids.b}&${range()}` }),
    REPORTS,
  ],
  ['featureList', '', get('/api/tenant/feature?tenantName=matrix-b'), STAFF_ONLY],
  [
    'featureUpdate',
    '',
    send('POST', '/api/tenant/feature', () => ({ option: 'chatbot', enabled: true, tenantName: 'matrix-b' })),
    STAFF_ONLY,
  ],
  [
    'featureUpdate',
    'own tenant',
    send('POST', '/api/tenant/feature', (who) => ({
      option: 'chatbot',
      enabled: true,
      tenantName: who === 'admin' ? 'matrix-b' : 'matrix-a',
    })),
    STAFF_ONLY,
  ],
  [
    'tenantFeatureBulk',
    '',
    send('POST', '/api/tenant/features/bulk', () => ({
      option: 'chatbot',
      enabled: true,
      ids: [ids.b],
      dry_run: false,
    })),
    STAFF_ONLY,
  ],
  [
    'tenantSyncAnalytics',
    '',
    async () => ({
      method: 'GET',
      url: `/api/tenant/syncAnalytics?tenantName=matrix-b&fromDate=${today()}&toDate=${today()}`,
    }),
    STAFF_ONLY,
  ],
  [
    'tenantGenerateCampaignStatusWebhook',
    '',
    get(`/api/tenant/generate-campaign-status-webhook?tenantName=matrix-b&STARTFINISH&type=delivered`),
    // Staff pass the access checks and meet the rule: tenant B has no webhook endpoint (409 webhook_no_endpoint).
    [401, 401, 401, 401, 403, 403, 409],
  ],
  // Webhook history and redelivery (docs/webhooks.md): `tenants`, which op lacks; a tenant's administrador
  // reads its own; tenant B's runs and deliveries do not exist for A.
  ['webhookRunList', 'tenantName=B', get('/api/webhooks/runs?tenantName=matrix-b'), STAFF_ONLY],
  ['webhookRunList', 'own tenant', get('/api/webhooks/runs'), [401, 401, 401, 401, 403, 200, 200]],
  [
    'webhookRunGet',
    "B's run",
    async () => ({ method: 'GET', url: `/api/webhooks/runs/${(await freshBWebhook()).run}` }),
    NOT_VISIBLE,
  ],
  [
    'webhookRunRedeliverFailed',
    "B's run",
    async () => ({ method: 'POST', url: `/api/webhooks/runs/${(await freshBWebhook()).run}/redeliver-failed` }),
    NOT_VISIBLE,
  ],
  ['webhookDeliveryList', 'tenantName=B', get('/api/webhooks/deliveries?tenantName=matrix-b'), STAFF_ONLY],
  [
    'webhookDeliveryList',
    'own tenant',
    get('/api/webhooks/deliveries?state=failed'),
    [401, 401, 401, 401, 403, 200, 200],
  ],
  [
    'webhookDeliveryGet',
    "B's delivery",
    async () => ({ method: 'GET', url: `/api/webhooks/deliveries/${(await freshBWebhook()).delivery}` }),
    NOT_VISIBLE,
  ],
  [
    'webhookDeliveryRedeliver',
    "B's delivery",
    async () => ({ method: 'POST', url: `/api/webhooks/deliveries/${(await freshBWebhook()).delivery}/redeliver` }),
    NOT_VISIBLE,
  ],
  [
    'dashboardReport',
    "B's user selected",
    send('POST', '/api/dashboard-report', () => ({
      start_at: today(),
      finish_at: today(),
      selectedUsers: [ids.bUser],
    })),
    [401, 401, 401, 401, 200, 200, 200],
  ],
  ['dashboardReportUsers', '', get('/api/dashboard-report/users?tenantName=matrix-b'), REPORTS],
  [
    'sheetLoginFailures',
    "B's user selected",
    async () => ({ method: 'GET', url: `/api/tenant/sheets/login_failures?STARTFINISH&userId=${ids.bUser}` }),
    [401, 401, 401, 401, 200, 200, 200],
  ],
  ['dashboardSummary', '', get(`/api/dashboard/summary?tenantName=matrix-b&STARTFINISH`), REPORTS],
  [
    'dashboardTimeseries',
    '',
    get(`/api/dashboard/timeseries?tenantName=matrix-b&STARTFINISH&metric=orders&interval=day`),
    REPORTS,
  ],
  ['dashboardProductivity', '', get(`/api/dashboard/productivity?tenantName=matrix-b&STARTFINISH`), REPORTS],
  ['permissionByEmail', "B's user", get('/api/permission/email?email=matrix-b-user@demo.local'), NOT_VISIBLE],
  ['permissionList', 'global catalogue', get('/api/permission'), [401, 401, 401, 401, 403, 200, 200]],
  ['permissionCategories', 'global catalogue', get('/api/permission/categories'), [401, 401, 401, 401, 403, 200, 200]],
  [
    'permissionUpdate',
    'roles are shared',
    send('POST', '/api/permission/update', () => ({ roleId: ids.role, permissions: ['dashboard-analytics'] })),
    STAFF_ONLY,
  ],
  ['roleList', '', get('/api/roles'), [401, 401, 401, 401, 403, 200, 200]],
  [
    'roleCreate',
    'roles are shared',
    send('POST', '/api/roles', (who, n) => ({
      name: `r_${unique(who, n)}`.slice(0, 40),
      display_name: who === 'admin' ? 'Matrix created' : `pwned-${who}`,
    })),
    [401, 401, 401, 401, 403, 403, 201],
  ],
  ['roleGet', '', async () => ({ method: 'GET', url: `/api/roles/${ids.role}` }), [401, 401, 401, 401, 403, 200, 200]],
  [
    'roleRename',
    'roles are shared',
    send(
      'PUT',
      () => `/api/roles/${ids.role}`,
      (who) => ({ display_name: who === 'admin' ? 'Matrix role' : `pwned-${who}` }),
    ),
    STAFF_ONLY,
  ],
  [
    'roleDelete',
    'roles are shared',
    async () => ({ method: 'DELETE', url: `/api/roles/${await freshRole()}` }),
    STAFF_ONLY,
  ],
  ['departmentList', '', get('/api/departments?tenantName=matrix-b'), STAFF_ONLY],
  [
    'departmentCreate',
    'tenantName=B',
    send('POST', '/api/departments?tenantName=matrix-b', (who, n) => ({
      name: who === 'admin' ? `Matrix ${unique(who, n)}` : `pwned-${who}`,
    })),
    [401, 401, 401, 401, 403, 403, 201],
  ],
  [
    'departmentUpdate',
    'tenantName=B',
    send(
      'PATCH',
      () => `/api/departments/${ids.bDepartment}?tenantName=matrix-b`,
      (who) => ({ name: who === 'admin' ? 'Departamento Secreto B' : `pwned-${who}`, activated: true }),
    ),
    STAFF_ONLY,
  ],
  [
    'departmentUpdate',
    "own tenant, B's id",
    send(
      'PATCH',
      () => `/api/departments/${ids.bDepartment}`,
      (who) => ({ name: `pwned-${who}` }),
    ),
    [401, 401, 401, 401, 403, 404, 404],
  ],
  // Saved views (docs/lists.md, Views): the caller's own only; the list's route to read or save one
  // (op holds no `users`); another user's view, here one of tenant B's user, is unknown to everyone else.
  ['viewList', 'list=users', get('/api/views?list=users'), [401, 401, 401, 401, 403, 200, 200]],
  [
    'viewCreate',
    'list=users',
    send('POST', '/api/views', (who, n) => ({
      list: 'users',
      name: `Matrix ${unique(who, n)}`,
      state: { query: 'sort=email', columns: ['presence'] },
    })),
    [401, 401, 401, 401, 403, 201, 201],
  ],
  [
    'viewUpdate',
    "B's user's view",
    async (who) => ({
      method: 'PUT',
      url: `/api/views/${await freshBView()}`,
      body: { name: `pwned-${who}`, is_default: true },
    }),
    [401, 401, 401, 401, 404, 404, 404],
  ],
  [
    'viewDelete',
    "B's user's view",
    async () => ({ method: 'DELETE', url: `/api/views/${await freshBView()}` }),
    [401, 401, 401, 401, 404, 404, 404],
  ],
  // Webhook endpoints (docs/webhooks.md): staff for any tenant, a tenant's administrador for its own only
  // (op holds no `tenants`; A naming B is refused, B's endpoint is unknown to A).
  ['webhookEndpointList', 'tenantName=B', get('/api/webhooks/endpoints?tenantName=matrix-b'), STAFF_ONLY],
  [
    'webhookEndpointCreate',
    'tenantName=B',
    async (who, n) => {
      await clearBEndpoints();
      return {
        method: 'POST',
        url: '/api/webhooks/endpoints',
        body: {
          tenantName: 'matrix-b',
          url: `https://matrix-${unique(who, n)}.example.com/webhooks`,
          types: ['sent', 'delivered'],
        },
      };
    },
    [401, 401, 401, 401, 403, 403, 201],
  ],
  [
    'webhookEndpointUpdate',
    "B's endpoint",
    async (who) => ({
      method: 'PUT',
      url: `/api/webhooks/endpoints/${await freshBEndpoint()}`,
      body: { description: `pwned-${who}`, active: false },
    }),
    NOT_VISIBLE,
  ],
  [
    'webhookEndpointRotateSecret',
    "B's endpoint",
    async () => ({ method: 'POST', url: `/api/webhooks/endpoints/${await freshBEndpoint()}/rotate-secret`, body: {} }),
    NOT_VISIBLE,
  ],
  [
    'webhookEndpointDelete',
    "B's endpoint",
    async () => ({ method: 'DELETE', url: `/api/webhooks/endpoints/${await freshBEndpoint()}` }),
    NOT_VISIBLE,
  ],
  ['instanceList', '', get('/api/instance?tenantName=matrix-b'), STAFF_ONLY],
  [
    'instanceCreate',
    '',
    send('POST', '/api/instance', (who, n) => ({
      name: who === 'admin' ? `Matrix ${unique(who, n)}` : `pwned-${who}`,
      tenantName: 'matrix-b',
      isOfficial: false,
      isUnlimited: false,
    })),
    [401, 401, 401, 401, 403, 403, 201],
  ],
  [
    'instanceCreate',
    'official, own tenant',
    send('POST', '/api/instance', (who, n) => ({
      name: `Matrix official ${unique(who, n)}`,
      tenantName: who === 'admin' ? 'matrix-b' : 'matrix-a',
      isOfficial: true,
      isUnlimited: false,
    })),
    [401, 401, 401, 401, 403, 403, 201],
  ],
  [
    'instanceUpdate',
    'tenantName=B',
    send('POST', '/api/instance/update', (who) => ({
      id: ids.bInstance,
      tenantName: 'matrix-b',
      name: who === 'admin' ? 'Instancia Secreta B' : `pwned-${who}`,
    })),
    STAFF_ONLY,
  ],
  [
    'instanceUpdate',
    "own tenantName, B's id",
    send('POST', '/api/instance/update', (who) => ({
      id: ids.bInstance,
      tenantName: 'matrix-a',
      name: `pwned-${who}`,
    })),
    [401, 401, 401, 401, 403, 404, 404],
  ],
  [
    'instanceSyncMessages',
    '',
    send('POST', '/api/instance/syncMessages', () => ({
      id: ids.bInstance,
      daysAgo: 1,
      tenantName: 'matrix-b',
      unlimitedSync: false,
    })),
    [401, 401, 401, 401, 403, 403, 202],
  ],
  ['connectionList', '', get('/api/connection?tenantName=matrix-b'), STAFF_ONLY],
  [
    'connectionCreate',
    '',
    send('POST', '/api/connection', (who, n) => ({
      tenantName: 'matrix-b',
      instance_id: ids.bInstance,
      name: who === 'admin' ? `Matrix ${unique(who, n)}` : `pwned-${who}`,
    })),
    [401, 401, 401, 401, 403, 403, 201],
  ],
  [
    'connectionUpdate',
    'tenantName=B',
    send('POST', '/api/connection/update', (who) => ({
      id: ids.bConnection,
      tenantName: 'matrix-b',
      name: who === 'admin' ? 'Conexão Secreta B' : `pwned-${who}`,
    })),
    STAFF_ONLY,
  ],
  [
    'connectionUpdate',
    "own tenantName, B's id",
    send('POST', '/api/connection/update', (who) => ({
      id: ids.bConnection,
      tenantName: 'matrix-a',
      name: `pwned-${who}`,
    })),
    [401, 401, 401, 401, 403, 404, 404],
  ],
  ['twoFactorStatus', "the caller's own", get('/api/two-factor'), SIGNED_IN],
  ['twoFactorEnrol', "the caller's own", send('POST', '/api/two-factor/enrol'), SIGNED_IN],
  [
    'twoFactorVerify',
    'wrong code after enrol',
    send('POST', '/api/two-factor/verify', () => ({ code: '000000' })),
    [401, 401, 401, 401, 400, 400, 400],
  ],
  [
    'twoFactorDisable',
    'two-factor is off',
    send('POST', '/api/two-factor/disable', () => ({ code: '000000' })),
    [401, 401, 401, 401, 409, 409, 409],
  ],
  // The audit log: tenant A's administrator naming tenant B sees only A's records (the leak check reads every answer).
  [
    'auditList',
    'tenantId=B',
    async () => ({
      method: 'GET',
      url: `/api/audit?tenantId=${ids.b}&limit=200&${AUDIT_LEAK_OPERATIONS.map((o) => `operation=${o}`).join('&')}`,
    }),
    AUDIT,
  ],
  // The audit log's names (docs/panel.md, Audit log): tenant A's administrator asking for B's people gets A's own.
  ['auditNames', 'of=actor', async () => ({ method: 'GET', url: '/api/audit/names?of=actor&limit=50' }), AUDIT],
  // Versions (docs/lists.md): each save with a version no record is at. The administrator's answer is 409
  // `stale` with nothing written; everyone else's is the refusal it gets without one, as the version is
  // compared only after identity, permission and the record's visibility (no version leaks to tenant A).
  ...(
    [
      [
        'userUpdate',
        send(
          'PUT',
          () => `/api/users/${ids.bUser}`,
          () => ({ name: 'Bruno Segredo', version: NEVER }),
        ),
        404,
      ],
      [
        'roleRename',
        send(
          'PUT',
          () => `/api/roles/${ids.role}`,
          () => ({ display_name: 'Matrix role', version: NEVER }),
        ),
        403,
      ],
      [
        'permissionUpdate',
        send('POST', '/api/permission/update', () => ({ roleId: ids.role, permissions: [], version: NEVER })),
        403,
      ],
      [
        'tenantSetPlan',
        send('POST', '/api/tenant/set-plan', () => ({
          id: ids.b,
          plan: 'professional',
          user: 50,
          ticket: 1000,
          version: NEVER,
        })),
        403,
      ],
      [
        'tenantUpdate',
        send('POST', '/api/tenant/update', () => ({
          id: ids.b,
          name: 'matrix-b',
          cnpj: '11.444.777/0001-61',
          template: 'pharmacy',
          pool: 'pool-b',
          version: NEVER,
        })),
        403,
      ],
      [
        'featureUpdate',
        send('POST', '/api/tenant/feature', () => ({
          option: 'chatbot',
          enabled: true,
          tenantName: 'matrix-b',
          version: NEVER,
        })),
        403,
      ],
      [
        'departmentUpdate',
        send(
          'PATCH',
          () => `/api/departments/${ids.bDepartment}?tenantName=matrix-b`,
          () => ({
            name: 'Departamento Secreto B',
            version: NEVER,
          }),
        ),
        403,
      ],
      [
        'instanceUpdate',
        send('POST', '/api/instance/update', () => ({
          id: ids.bInstance,
          tenantName: 'matrix-b',
          name: 'Instancia Secreta B',
          version: NEVER,
        })),
        403,
      ],
      [
        'connectionUpdate',
        send('POST', '/api/connection/update', () => ({
          id: ids.bConnection,
          tenantName: 'matrix-b',
          name: 'Conexão Secreta B',
          version: NEVER,
        })),
        403,
      ],
    ] as const
  ).map(([id, build, aToB]): [string, string, Build, Row] => [
    id,
    'stale version',
    build,
    [401, 401, 401, 401, 403, aToB, 409],
  ]),
  // Undo (server/src/undo/service.ts): a tenant B user's block; op lacks `users` (403), A does not see B's record (404).
  [
    'auditUndo',
    "a B user's block",
    async () => ({ method: 'POST', url: `/api/audit/${await freshUndoable()}/undo` }),
    NOT_VISIBLE,
  ],
];
