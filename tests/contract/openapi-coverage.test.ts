import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { UNAUTHORIZED_BODIES, classifyUnauthorized } from '../../src/domain/auth-errors';
import { routes } from '../../src/domain/paths';

type Operation = {
  operationId?: string;
  summary?: string;
  security?: unknown[];
  'x-permission'?: string | string[];
  'x-extension'?: boolean;
  'x-extension-reason'?: string;
  requestBody?: { content: Record<string, { example?: unknown; examples?: unknown }> };
  responses: Record<string, { $ref?: string; content?: Record<string, { example?: unknown; examples?: unknown }> }>;
};
type Doc = {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { responses: Record<string, unknown>; schemas: Record<string, object> };
};

const doc = parse(readFileSync(new URL('../../contracts/openapi.yaml', import.meta.url), 'utf8')) as Doc;
const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
  METHODS.filter((m) => item[m]).map((method) => ({ path, method, op: item[method] as Operation })),
);

// The basic product's REST calls, written out by hand (the connections path is an extension).
const SPEC_REST: [string, string][] = [
  ['post', '/api/auth/login'],
  ['post', '/api/auth/logout'],
  ['get', '/api/auth/userInfo'],
  ['post', '/api/users/email'],
  ['get', '/api/users'],
  ['post', '/api/users'],
  ['put', '/api/users/{id}'],
  ['patch', '/api/users/{id}'],
  ['delete', '/api/users/{id}'],
  ['patch', '/api/user-settings/{id}'],
  ['get', '/api/users/is-funcional-user'],
  ['get', '/api/tenant/{filterUsers}'],
  ['post', '/api/tenant/paginated'],
  ['post', '/api/tenant'],
  ['post', '/api/tenant/delete'],
  ['post', '/api/tenant/restore'],
  ['post', '/api/tenant/set-plan'],
  ['get', '/api/tenant/sheets/orders'],
  ['get', '/api/tenant/sheets/attendances'],
  ['get', '/api/tenant/sheets/instance_logs'],
  ['get', '/api/tenant/sheets/reasons'],
  ['get', '/api/tenant/feature'],
  ['post', '/api/tenant/feature'],
  ['get', '/api/tenant/syncAnalytics'],
  ['get', '/api/tenant/generate-campaign-status-webhook'],
  ['post', '/api/dashboard-report'],
  ['get', '/api/permission/email'],
  ['get', '/api/permission'],
  ['get', '/api/permission/categories'],
  ['post', '/api/permission/update'],
  ['get', '/api/instance'],
  ['post', '/api/instance'],
  ['post', '/api/instance/update'],
  ['post', '/api/instance/syncMessages'],
];

// What the contract adds for the screens, each marked x-extension.
const EXTENSIONS: [string, string][] = [
  ['get', '/api/roles'],
  ['post', '/api/roles'],
  ['get', '/api/roles/{id}'],
  ['put', '/api/roles/{id}'],
  ['delete', '/api/roles/{id}'],
  ['post', '/api/tenant/update'],
  ['get', '/api/departments'],
  ['post', '/api/departments'],
  ['patch', '/api/departments/{id}'],
  ['get', '/api/connection'],
  ['post', '/api/connection'],
  ['post', '/api/connection/update'],
  ['get', '/api/dashboard/summary'],
  ['get', '/api/dashboard/timeseries'],
  ['get', '/api/dashboard/productivity'],
  ['get', '/healthz'],
  ['get', '/readyz'],
  // Two-factor enrolment for the /two-factor screen.
  ['get', '/api/two-factor'],
  ['post', '/api/two-factor/enrol'],
  ['post', '/api/two-factor/verify'],
  ['post', '/api/two-factor/disable'],
  // The login-failure report's user picker for report-only roles.
  ['get', '/api/dashboard-report/users'],
  // The login-failure report without its row limit: the period's total and every row as CSV.
  ['get', '/api/tenant/sheets/login_failures'],
  // The audit log (docs/product.md, Audit log).
  ['get', '/api/audit'],
  ['get', '/api/audit/names'],
  ['post', '/api/audit/{id}/undo'],
  // The socket's single-use ticket (contracts/socket.md §1.1): the token never travels in its URL.
  ['post', '/api/auth/socket-ticket'],
  // Removing a soft-deleted tenant for good (a conformance run leaves nothing behind).
  ['post', '/api/tenant/purge'],
  // Removing a soft-deleted user for good (a conformance run's users leave nothing behind).
  ['post', '/api/users/purge'],
  // The support desk (docs/support-desk.md): staff find one person in any tenant and act on them.
  ['get', '/api/users/page'],
  ['get', '/api/users/ids'],
  ['get', '/api/users/export'],
  ['post', '/api/tenant/ids'],
  ['get', '/api/tenant/export'],
  ['get', '/api/support/users'],
  ['get', '/api/support/users/{id}'],
  ['post', '/api/support/users/{id}/lift-throttle'],
  ['post', '/api/support/users/{id}/temporary-password'],
  ['post', '/api/support/users/{id}/reset-link'],
  ['post', '/api/support/users/{id}/two-factor'],
  ['post', '/api/support/users/{id}/sessions/end'],
  ['post', '/api/support/users/{id}/block'],
  ['post', '/api/support/users/{id}/restore'],
  // Reset links by e-mail for users who forgot their password (docs/support-desk.md, Forgot password).
  ['get', '/api/auth/password-reset'],
  ['post', '/api/auth/password-reset/request'],
  ['post', '/api/auth/password-reset/confirm'],
  // Saved views of the lists (docs/lists.md, Views).
  ['get', '/api/views'],
  ['post', '/api/views'],
  ['put', '/api/views/{id}'],
  ['delete', '/api/views/{id}'],
  // Bulk actions with a dry run (docs/lists.md, Bulk actions).
  ['post', '/api/users/bulk'],
  ['post', '/api/tenant/features/bulk'],
  // Where a tenant's campaign-status webhooks go (docs/webhooks.md).
  ['get', '/api/webhooks/endpoints'],
  ['post', '/api/webhooks/endpoints'],
  ['put', '/api/webhooks/endpoints/{id}'],
  ['delete', '/api/webhooks/endpoints/{id}'],
  ['post', '/api/webhooks/endpoints/{id}/rotate-secret'],
  // Campaign-status webhooks (docs/webhooks.md): runs, deliveries and redelivery.
  ['get', '/api/webhooks/runs'],
  ['get', '/api/webhooks/runs/{id}'],
  ['post', '/api/webhooks/runs/{id}/redeliver-failed'],
  ['get', '/api/webhooks/deliveries'],
  ['get', '/api/webhooks/deliveries/{id}'],
  ['post', '/api/webhooks/deliveries/{id}/redeliver'],
];

const routeNames = new Set<string>(routes.map((r) => r.name));

describe('contracts/openapi.yaml', () => {
  it('is OpenAPI 3.1', () => {
    expect(doc.openapi).toMatch(/^3\.1\./);
  });

  it.each(SPEC_REST)('has the basic call %s %s', (method, path) => {
    expect(doc.paths[path]?.[method], `${method.toUpperCase()} ${path}`).toBeDefined();
  });

  it.each(EXTENSIONS)('has the screen extension %s %s, marked with a reason', (method, path) => {
    const op = doc.paths[path]?.[method];
    expect(op).toBeDefined();
    expect(op?.['x-extension']).toBe(true);
    expect(op?.['x-extension-reason']).toMatch(/\w{3,}/);
  });

  it('has no undocumented operation: everything is a basic call or a marked extension', () => {
    const known = new Set([...SPEC_REST, ...EXTENSIONS].map(([m, p]) => `${m} ${p}`));
    expect(operations.map(({ method, path }) => `${method} ${path}`).filter((k) => !known.has(k))).toEqual([]);
  });

  it.each(operations.map((o) => [`${o.method.toUpperCase()} ${o.path}`, o.op] as const))(
    '%s is complete',
    (_name, op) => {
      expect(op.operationId).toMatch(/^[a-z][A-Za-z]+$/);
      expect(op.summary?.length).toBeGreaterThan(5);
      const successes = Object.keys(op.responses).filter((s) => s.startsWith('2'));
      expect(successes.length).toBeGreaterThan(0);
      for (const status of successes) {
        for (const media of Object.values(op.responses[status]?.content ?? {})) {
          expect(media.example ?? media.examples, `example for ${status}`).toBeDefined();
        }
      }
      for (const media of Object.values(op.requestBody?.content ?? {}))
        expect(media.example ?? media.examples).toBeDefined();
      const isPublic = Array.isArray(op.security) && op.security.length === 0;
      if (isPublic) {
        expect(op['x-permission']).toBe('public');
      } else {
        expect(op.responses['401']?.$ref).toBe('#/components/responses/Unauthorized');
        expect(Array.isArray(op['x-permission'])).toBe(true);
        for (const name of op['x-permission'] as string[]) expect(routeNames, name).toContain(name);
        if ((op['x-permission'] as string[]).length > 0)
          expect(op.responses['403']?.$ref).toBe('#/components/responses/Forbidden');
      }
      const hasInput = Boolean(op.requestBody) || /\{/.test(_name);
      if (hasInput) expect(op.responses['400']?.$ref).toBe('#/components/responses/ValidationFailed');
    },
  );

  it('operationIds are unique', () => {
    const ids = operations.map((o) => o.op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('defines the shared 400, 401, 403, 404, 429 and 503 bodies', () => {
    for (const name of [
      'ValidationFailed',
      'Unauthorized',
      'Forbidden',
      'NotFound',
      'TooManyRequests',
      'ServiceUnavailable',
    ]) {
      expect(doc.components.responses[name], name).toBeDefined();
    }
  });

  it('lists the 503 of a database outage on every operation but liveness', () => {
    const without = operations.filter(
      ({ op }) =>
        op.operationId !== 'healthLive' && op.responses['503']?.$ref !== '#/components/responses/ServiceUnavailable',
    );
    expect(without.map(({ op }) => op.operationId)).toEqual([]);
  });

  it('lists 413 and 415 on every operation but reads, since the server reads any body sent as JSON or refuses it', () => {
    // server/src/test-support/ordering-invalid-rest.ts sends such bodies to every non-GET operation, with or without one in the contract.
    const without = operations.filter(
      ({ method, op }) =>
        method !== 'get' &&
        (op.responses['413']?.$ref !== '#/components/responses/PayloadTooLarge' ||
          op.responses['415']?.$ref !== '#/components/responses/UnsupportedMediaType'),
    );
    expect(without.map(({ op }) => op.operationId)).toEqual([]);
  });

  it('the client classifier and the contract agree on every 401 body', () => {
    const ajv = new Ajv2020({ strict: false });
    const validate = ajv.compile(doc.components.schemas['Unauthorized'] ?? {});
    for (const body of Object.values(UNAUTHORIZED_BODIES)) expect(validate(body), JSON.stringify(body)).toBe(true);
    expect(validate({ status: 'Something else' })).toBe(false);
    const refreshing = Object.values(UNAUTHORIZED_BODIES).filter((b) => classifyUnauthorized(b) === 'refresh');
    expect(refreshing).toEqual([{ error: 'Token has expired' }]);
  });
});
