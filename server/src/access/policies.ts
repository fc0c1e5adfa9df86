import type { PermissionRoute } from './permissions';

/**
 * Who may call each service operation: one policy per method of every service (docs/security.md, Who
 * may do what). A service is built through `guardService` (./guard.ts), which refuses to build when one
 * of its methods has no policy here, or a policy here names no method (deny by default: the server does
 * not start), and checks the policy before the method runs, whichever adapter called it. The REST and
 * GraphQL doors (server/src/plugins/auth.ts, server/src/graphql/index.ts) filter early with the same
 * policies; the service is the authority.
 *
 * What a policy says is what can be decided from the caller alone: who may call at all, which route
 * permissions (any one suffices; `administrador` holds all), back-office staff only, the tenant an
 * argument names being the caller's own. What depends on stored data (the target user's permissions, a
 * role's routes, a value that would change) is decided in the method with the rules of ./escalation.ts
 * and ./self-service.ts, and the policy names it in `rules` so a reader sees it here.
 */
export type Policy =
  /** Anybody, signed in or not: signing in, the health checks, the tenant of a GraphQL path. */
  | { readonly caller: 'anyone'; readonly why: string }
  /** The server itself only (./caller.ts `serverCaller`): never a request. */
  | { readonly caller: 'server'; readonly why: string }
  | UserPolicy;

export interface UserPolicy {
  readonly caller: 'user';
  /** Route permissions, any one of which allows the call; empty: any signed-in user. */
  readonly anyOf: readonly PermissionRoute[];
  /** Back-office staff only (`origin_backoffice`), whatever the role. */
  readonly staffOnly?: boolean;
  /**
   * A caller without `anyOf` may still call the method for its own record, as this says; the method
   * applies the rule (./self-service.ts) before anything else.
   */
  readonly selfService?: string;
  /** The argument (0 = the first after the caller) holding the tenant acted on: the caller's own, or staff. */
  readonly tenantArg?: number;
  /** Rules on stored data the method applies after this policy (documentation, checked by review and tests). */
  readonly rules?: readonly string[];
}

const anyone = (why: string): Policy => ({ caller: 'anyone', why });
const signedIn = (extra: Omit<UserPolicy, 'caller' | 'anyOf'> = {}): UserPolicy => ({
  caller: 'user',
  anyOf: [],
  ...extra,
});
const route = (anyOf: readonly PermissionRoute[], extra: Omit<UserPolicy, 'caller' | 'anyOf'> = {}): UserPolicy => ({
  caller: 'user',
  anyOf,
  ...extra,
});
const staff = (anyOf: readonly PermissionRoute[], extra: Omit<UserPolicy, 'caller' | 'anyOf' | 'staffOnly'> = {}) =>
  route(anyOf, { ...extra, staffOnly: true });

const DASHBOARDS: readonly PermissionRoute[] = [
  'dashboard-analytics',
  'dashboard-control-panel',
  'dashboard-maria-panel',
];
const LOGIN_REPORTS: readonly PermissionRoute[] = ['dashboard-report', 'dashboard-report-smart'];
const ROLES_READ: readonly PermissionRoute[] = ['roles-list', 'roles-edit'];
/** Acting on a user: the caller holds every permission the target holds (./escalation.ts `assertMayActOn`). */
const ACT_ON = 'the caller holds every permission the target user holds; only an administrador acts on one';
/** The support desk is not for one's own account (409 `own_account`): the account settings page is. */
const NOT_OWN = 'never on its own account';
/** Giving a role: its permissions are a subset of the caller's (./escalation.ts `assertMayGrant`). */
const GRANT = "the role's permissions are a subset of the caller's; only an administrador grants administrador";
/** An undo (server/src/undo/service.ts) puts back a recorded change in the undo's transaction. */
const UNDO = "undoes a recorded change: the target still holds the record's after values";
/** Webhooks (docs/webhooks.md): a tenant's endpoints, runs and deliveries. */
const WEBHOOK_TENANT = 'a live tenant; its own only and as an administrador, except for staff';
/** Where a webhook may be sent (docs/webhooks.md, Addresses). */
const WEBHOOK_URL = 'an https address whose host is public, checked again at every send';

export const POLICIES = {
  auth: {
    authenticate: anyone('checks a token: the door of every protocol calls it before it knows the caller'),
    signIn: anyone('signing in'),
    signOut: signedIn(),
    refresh: signedIn(),
    whoAmI: signedIn(),
    socketTicket: signedIn({ rules: ["a ticket for the caller's own session only"] }),
    recordDenial: signedIn({ rules: ["records the caller's own refusal"] }),
    twoFactorStatus: signedIn({ rules: ['own account only'] }),
    twoFactorEnrol: signedIn({ rules: ['own account only'] }),
    twoFactorVerify: signedIn({ rules: ['own account only', 'codes throttled like sign-ins'] }),
    twoFactorDisable: signedIn({ rules: ['own account only', 'needs a current or recovery code'] }),
  },
  passwordReset: {
    status: anyone('the login page asks whether reset links can be sent'),
    request: anyone('who forgot the password asks for a link: the same answer for every e-mail, throttled'),
    confirm: anyone('the holder of a reset link sets a new password'),
  },
  supportCredentials: {
    temporaryPassword: staff(['users'], { rules: [ACT_ON, 'never on its own account (409 own_account)'] }),
    resetLink: staff(['users'], { rules: [ACT_ON, 'never on its own account (409 own_account)'] }),
  },
  users: {
    list: route(['users'], { tenantArg: 0 }),
    page: route(['users'], { tenantArg: 0, rules: ['live users of the named tenant only'] }),
    ids: route(['users'], { tenantArg: 0, rules: ['live users of the named tenant only', 'at most 100,000 ids'] }),
    exportCsv: route(['users'], { tenantArg: 0, rules: ['live users of the named tenant only'] }),
    me: signedIn(),
    findByEmail: route(['users'], { rules: ['users of other tenants are not found, except for staff'] }),
    isFunctional: signedIn(),
    create: route(['users'], { tenantArg: 0, rules: [GRANT] }),
    update: route(['users'], {
      selfService: 'its own username, name, e-mail and avatar',
      rules: [ACT_ON, GRANT, 'nobody changes its own role', 'a password changes only through its own rules'],
    }),
    setBlocked: route(['users'], { rules: [ACT_ON, 'nobody blocks itself'] }),
    remove: route(['users'], { rules: [ACT_ON, 'nobody deletes itself'] }),
    purge: staff(['users'], { rules: ['an administrador only', 'a soft-deleted user only', 'nobody purges itself'] }),
    disconnect: route(['users'], { rules: [ACT_ON] }),
    setConnected: signedIn({ rules: ['own presence only'] }),
    changeOwnPassword: signedIn({ rules: ['own account only'] }),
    instanceLinks: route(['users']),
    removeInstanceLink: route(['users'], { tenantArg: 0, rules: [ACT_ON] }),
    online: signedIn({ tenantArg: 0 }),
    summaries: route(LOGIN_REPORTS, { tenantArg: 0 }),
    updateSettings: route(['users'], {
      selfService: 'confirming its own enrolled two-factor',
      rules: [ACT_ON],
    }),
    revert: route(['users'], { rules: [UNDO, ACT_ON, GRANT, 'nobody blocks, deletes or re-roles itself'] }),
    bulk: route(['users'], {
      rules: [
        "each row through the single action's method and policy (setBlocked, updateSettings, disconnect, remove)",
        ACT_ON,
        'never on its own account (own_account)',
        "another tenant's user is not found, except for staff",
        'a batch is continued only by the user who started it, for the same action, within the hour',
      ],
    }),
  },
  tenants: {
    resolve: signedIn({ rules: ['another tenant than its own only for staff'] }),
    findLive: anyone('the tenant of a GraphQL path is looked up before the caller is known'),
    names: signedIn({ rules: ['its own tenant only, except for staff'] }),
    page: route(['tenants'], { rules: ['its own tenant only, except for staff'] }),
    ids: route(['tenants'], { rules: ['its own tenant only, except for staff', 'at most 100,000 ids'] }),
    exportCsv: route(['tenants'], { rules: ['its own tenant only, except for staff'] }),
    create: staff(['tenants']),
    update: staff(['tenants']),
    remove: staff(['tenants'], { rules: ['nobody deletes its own tenant'] }),
    restore: staff(['tenants']),
    purge: staff(['tenants'], { rules: ['an administrador only', 'a soft-deleted tenant only'] }),
    setPlan: staff(['tenants']),
    features: route(['tenants'], { tenantArg: 0 }),
    setFeature: staff(['tenants'], { tenantArg: 0 }),
    revert: staff(['tenants'], { rules: [UNDO, 'nobody deletes its own tenant'] }),
    featureBulk: staff(['tenants'], {
      rules: [
        'each row through setFeature and its policy',
        'a deleted tenant is refused (deleted)',
        'a batch is continued only by the user who started it, for the same action, within the hour',
      ],
    }),
  },
  roles: {
    list: route(['roles-list', 'roles-edit', 'users']),
    get: route(ROLES_READ),
    create: staff(['roles-edit']),
    rename: staff(['roles-edit'], { rules: ['the administrador role only by an administrador'] }),
    setPermissions: staff(['roles-edit'], {
      rules: [
        'adds or removes only permissions the caller holds',
        "never the caller's own role",
        'administrador always holds all',
      ],
    }),
    remove: staff(['roles-edit']),
    permissions: route(ROLES_READ),
    permissionCategories: route(ROLES_READ),
    permissionsOf: signedIn({ rules: ["its own permissions; another user's with `users` or `roles-list`"] }),
    revert: staff(['roles-edit'], {
      rules: [UNDO, 'as setPermissions and rename: only permissions the caller holds, never its own role'],
    }),
  },
  departments: {
    list: route(['users'], { tenantArg: 0 }),
    create: route(['users'], { tenantArg: 0 }),
    update: route(['users'], { tenantArg: 0 }),
    revert: route(['users'], { rules: [UNDO, 'its own tenant only, except for staff'] }),
  },
  instances: {
    list: route(['tenants'], { tenantArg: 0 }),
    summaries: signedIn({ tenantArg: 0 }),
    create: route(['tenants'], { tenantArg: 0, rules: ['billing flags (official, unlimited) only by staff'] }),
    update: route(['tenants'], { tenantArg: 0, rules: ['billing flags (official, unlimited) only by staff'] }),
    syncMessages: route(['tenants'], { tenantArg: 0 }),
    connections: route(['tenants'], { tenantArg: 0 }),
    createConnection: route(['tenants'], { tenantArg: 0 }),
    updateConnection: route(['tenants'], { tenantArg: 0 }),
    revert: route(['tenants'], {
      rules: [UNDO, 'its own tenant only, except for staff', 'billing flags (official, unlimited) only by staff'],
    }),
  },
  reports: {
    syncAnalytics: route(['tenants'], { rules: ['its own tenant only, except for staff'] }),
    campaignStatusWebhook: route(['tenants'], { rules: [WEBHOOK_TENANT] }),
    loginFailures: route(LOGIN_REPORTS, { rules: ["its own tenant's users only, except for staff"] }),
    loginFailureSheet: route(LOGIN_REPORTS, { rules: ["its own tenant's users only, except for staff"] }),
    summary: route(DASHBOARDS, { rules: ['its own tenant only, except for staff'] }),
    timeseries: route(DASHBOARDS, { rules: ['its own tenant only, except for staff'] }),
    productivity: route(['dashboard-produtivity-report'], { rules: ['its own tenant only, except for staff'] }),
    orders: route(DASHBOARDS, { rules: ['its own tenant only, except for staff'] }),
    attendances: route(DASHBOARDS, { rules: ['its own tenant only, except for staff'] }),
    instanceLogs: route(DASHBOARDS, { rules: ['its own tenant only, except for staff'] }),
    reasons: route(DASHBOARDS, { rules: ['its own tenant only, except for staff'] }),
  },
  support: {
    // The support desk (docs/support-desk.md): back-office staff with `users`, across every tenant.
    search: staff(['users'], { rules: ['every tenant, deleted users included'] }),
    person: staff(['users'], { rules: [ACT_ON, NOT_OWN] }),
    liftThrottle: staff(['users'], { rules: [ACT_ON, NOT_OWN] }),
    twoFactor: staff(['users'], { rules: [ACT_ON, NOT_OWN, 'a live user only'] }),
    endSessions: staff(['users'], { rules: [ACT_ON, NOT_OWN, "the person's own live session only"] }),
    block: staff(['users'], { rules: [ACT_ON, NOT_OWN, 'a live user only'] }),
    restore: staff(['users'], { rules: [ACT_ON, NOT_OWN, 'a soft-deleted user of a live tenant only'] }),
  },
  audit: {
    list: route(['audit'], { rules: ["its own tenant's records only, except for staff"] }),
    csv: route(['audit'], { rules: ["its own tenant's records only, except for staff"] }),
    names: route(['audit'], {
      rules: ["its own tenant's records only, except for staff", 'no staff actor for others'],
    }),
  },
  attention: {
    // The home (docs/panel.md, Home): each kind decided in the method by the permission that fixes it.
    list: signedIn({
      rules: [
        "its own tenant's items only, except for staff",
        'tenants over their user limit, failed syncs, disconnected connections: route tenants',
        'locked accounts: the support desk (staff with users)',
        'deleted tenants and theirs never',
      ],
    }),
  },
  views: {
    // Saved views (docs/lists.md, Views): the caller's own only; the list's route decided in the method.
    list: signedIn({ rules: ['own views only', "the list's route permission (users, tenants, audit)"] }),
    create: signedIn({ rules: ['own views only', "the list's route permission (users, tenants, audit)"] }),
    update: signedIn({ rules: ['own views only', "the list's route permission (users, tenants, audit)"] }),
    remove: signedIn({ rules: ['own views only'] }),
  },
  webhookEndpoints: {
    // Campaign-status webhooks (docs/webhooks.md): staff for any live tenant, a tenant's administrador for its own.
    list: route(['tenants'], { rules: [WEBHOOK_TENANT] }),
    create: route(['tenants'], { rules: [WEBHOOK_TENANT, WEBHOOK_URL] }),
    update: route(['tenants'], { rules: [WEBHOOK_TENANT, WEBHOOK_URL] }),
    rotateSecret: route(['tenants'], { rules: [WEBHOOK_TENANT] }),
    remove: route(['tenants'], { rules: [WEBHOOK_TENANT] }),
  },
  webhooks: {
    runs: route(['tenants'], { rules: [WEBHOOK_TENANT] }),
    run: route(['tenants'], { rules: [WEBHOOK_TENANT] }),
    deliveries: route(['tenants'], { rules: [WEBHOOK_TENANT] }),
    delivery: route(['tenants'], { rules: [WEBHOOK_TENANT] }),
    redeliver: route(['tenants'], { rules: [WEBHOOK_TENANT, 'a live, active endpoint only'] }),
    redeliverFailed: route(['tenants'], { rules: [WEBHOOK_TENANT, 'live, active endpoints only'] }),
  },
  undo: {
    // Who may make the change may undo it: the service of the undone operation decides (its `revert`).
    undo: signedIn({
      rules: ["the undone operation's own policy and rules", "its own tenant's records only, except for staff"],
    }),
  },
  health: {
    databaseReachable: anyone('readiness probe'),
  },
} as const satisfies Readonly<Record<string, Readonly<Record<string, Policy>>>>;

export type ServiceName = keyof typeof POLICIES;
/** `users.create`, `tenants.setPlan`…: a service operation, as the adapters' maps and the audit of denials name it. */
export type OperationName = {
  [S in ServiceName]: `${S}.${Extract<keyof (typeof POLICIES)[S], string>}`;
}[ServiceName];

export function policyOf(operation: OperationName): Policy {
  const [service, method] = operation.split('.') as [ServiceName, string];
  const policy = (POLICIES[service] as Readonly<Record<string, Policy>>)[method];
  if (!policy) throw new Error(`access: no policy for ${operation} (server/src/access/policies.ts)`);
  return policy;
}
