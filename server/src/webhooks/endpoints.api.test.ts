import { randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { loadConfig } from '../base/config';
import { OPERATOR_ROLE } from '../db/catalog';
import { issuedBearer, startTestApp, type TestApp } from '../test-support/app';
import { auditMark, auditSince, changesMap, wholeLogText } from '../test-support/audit-records';
import { validateResponse } from '../test-support/contract';
import { startThrowawayPostgres, type ThrowawayPostgres } from '../test-support/postgres';
import { createTestRole, createTestUser } from '../test-support/users';
import { NO_ORIGIN, type Actor } from '../access/caller';
import { createAuditTrail } from '../audit/trail';
import {
  checkWebhookUrl,
  createWebhookEndpointsService,
  WEBHOOK_ENDPOINTS_PER_TENANT,
  type WebhookEndpointDto,
} from './endpoints';
import { openWebhookSecret, signingSecrets, WEBHOOK_SECRET_PATTERN, webhookSecretHint } from './secrets';

// Webhook endpoints (docs/webhooks.md; contracts/openapi.yaml webhookEndpointList, webhookEndpointCreate,
// webhookEndpointUpdate, webhookEndpointRotateSecret, webhookEndpointDelete) through REST, as staff, a tenant's
// administrador, its other users and another tenant's administrador would use them: who may, the address
// rules, duplicates and the limit (raced on PostgreSQL), secrets shown once and sealed at rest, rotation
// with its grace period, a delete that cancels what was waiting, and the audit trail of each change.

type Headers = { authorization: string };
type WithSecret = { endpoint: WebhookEndpointDto; secret: string };

describe.each([
  ['PGlite', false],
  ['PostgreSQL', true],
])('%s', (label, postgres) => {
  let cluster: ThrowawayPostgres | undefined;
  let t: TestApp;
  let staff: Headers;
  let customerAdmin: Headers;
  let customerOperator: Headers;
  let customerTenantsRole: Headers;
  let otherAdmin: Headers;
  let customerId: number;
  let n = 0;
  const host = () => `erp-${label.toLowerCase()}-${++n}.example.com`;

  const call = (
    headers: Headers,
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    payload?: unknown,
  ): Promise<LightMyRequestResponse> =>
    t.app.fastify.inject({
      method,
      url,
      headers,
      ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    });

  /** Calls and checks the answer against the contract: its status and body. */
  const expectAnswer = async (
    operationId: string,
    response: LightMyRequestResponse,
    status: number,
  ): Promise<LightMyRequestResponse> => {
    expect(response.statusCode, response.body).toBe(status);
    expect(validateResponse(operationId, status, response.json())).toEqual({ valid: true, errors: [] });
    return response;
  };

  const create = async (
    headers: Headers,
    body: { tenantName?: string; url: string; types?: string[]; description?: string },
  ): Promise<WithSecret> => {
    const response = await call(headers, 'POST', '/api/webhooks/endpoints', { types: ['delivered'], ...body });
    await expectAnswer('webhookEndpointCreate', response, 201);
    return response.json<WithSecret>();
  };

  const list = async (headers: Headers, tenantName?: string): Promise<WebhookEndpointDto[]> => {
    const query = tenantName === undefined ? '' : `?tenantName=${tenantName}`;
    const response = await call(headers, 'GET', `/api/webhooks/endpoints${query}`);
    await expectAnswer('webhookEndpointList', response, 200);
    return response.json<{ data: WebhookEndpointDto[] }>().data;
  };

  /** What a refusal must leave alone: every endpoint row, every delivery and the audit log (a 403's denial apart). */
  const snapshot = async () => ({
    endpoints: await t.db.selectFrom('webhook_endpoints').selectAll().orderBy('id').execute(),
    deliveries: await t.db.selectFrom('webhook_deliveries').selectAll().orderBy('id').execute(),
    audit: await t.db
      .selectFrom('audit_log')
      .select(['id', 'operation'])
      .where('operation', '!=', 'access.denied')
      .orderBy('id')
      .execute(),
  });

  const newTenant = async (name: string) =>
    (
      await t.db
        .insertInto('tenants')
        .values({
          name,
          cnpj: '11.222.333/0001-81',
          template: 't',
          pool: 'p',
          plan: 'starter',
          user_limit: 5,
          ticket_limit: 10,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;

  beforeAll(async () => {
    if (postgres) cluster = await startThrowawayPostgres();
    t = await startTestApp({ seed: { days: 1 }, ...(cluster ? { databaseUrl: cluster.url } : {}) });
    staff = await t.auth('admin@demo.local');
    customerId = await newTenant('wh-cliente');
    await newTenant('wh-outro');
    customerAdmin = await issuedBearer(
      t,
      (
        await createTestUser(t.db, {
          email: 'admin@wh-cliente.local',
          tenant: 'wh-cliente',
          role: 'administrador',
          originBackoffice: false,
        })
      ).id,
    );
    customerOperator = await issuedBearer(
      t,
      (
        await createTestUser(t.db, {
          email: 'operador@wh-cliente.local',
          tenant: 'wh-cliente',
          role: OPERATOR_ROLE,
          originBackoffice: false,
        })
      ).id,
    );
    await createTestRole(t.db, 'wh-so-empresas', ['tenants']);
    customerTenantsRole = await issuedBearer(
      t,
      (
        await createTestUser(t.db, {
          email: 'empresas@wh-cliente.local',
          tenant: 'wh-cliente',
          role: 'wh-so-empresas',
          originBackoffice: false,
        })
      ).id,
    );
    otherAdmin = await issuedBearer(
      t,
      (
        await createTestUser(t.db, {
          email: 'admin@wh-outro.local',
          tenant: 'wh-outro',
          role: 'administrador',
          originBackoffice: false,
        })
      ).id,
    );
  }, 240_000);

  afterAll(async () => {
    await t?.close();
    await cluster?.stop();
  });

  describe('an endpoint and its secret', () => {
    it('is registered by staff with a secret shown once, sealed at rest, and listed with its hint only', async () => {
      const mark = await auditMark(t.db);
      const url = `https://${host()}/webhooks/painel`;
      const { endpoint, secret } = await create(staff, {
        tenantName: 'wh-cliente',
        url,
        types: ['delivered', 'sent'],
        description: '  ERP da loja  ',
      });
      expect(secret).toMatch(WEBHOOK_SECRET_PATTERN);
      expect(endpoint).toMatchObject({
        tenantName: 'wh-cliente',
        url,
        types: ['sent', 'delivered'],
        description: 'ERP da loja',
        active: true,
        secret_hint: webhookSecretHint(secret),
        previous_secret_expires_at: null,
        version: 1,
      });

      const stored = await t.db
        .selectFrom('webhook_endpoints')
        .selectAll()
        .where('id', '=', endpoint.id)
        .executeTakeFirstOrThrow();
      expect(stored.secret).not.toContain(secret.slice('whsec_'.length));
      expect(openWebhookSecret(t.db, endpoint.id, stored.secret)).toBe(secret);
      // Bound to its row: the same value in another endpoint's row does not open.
      expect(openWebhookSecret(t.db, endpoint.id + 1000, stored.secret)).toBeNull();
      expect(stored).toMatchObject({ tenant_id: customerId, url_key: url, previous_secret: null });

      for (const [who, name] of [
        [staff, 'wh-cliente'],
        [customerAdmin, undefined],
        [customerAdmin, 'wh-cliente'],
      ] as const) {
        const response = await call(who, 'GET', `/api/webhooks/endpoints${name ? `?tenantName=${name}` : ''}`);
        await expectAnswer('webhookEndpointList', response, 200);
        expect(response.body).not.toContain(secret.slice(-20));
        expect(response.json<{ data: WebhookEndpointDto[] }>().data).toContainEqual(endpoint);
      }

      const [record, ...more] = await auditSince(t.db, mark);
      expect(more).toEqual([]);
      expect(record).toMatchObject({
        operation: 'webhook.endpoint-create',
        target_type: 'webhook_endpoint',
        target_id: endpoint.id,
        target_name: url,
        tenant_id: customerId,
        target_version: 1,
      });
      expect(changesMap(record!)).toEqual({
        url: [null, JSON.stringify(url)],
        types: [null, JSON.stringify(['sent', 'delivered'])],
        description: [null, JSON.stringify('ERP da loja')],
        active: [null, 'true'],
      });
      expect(await wholeLogText(t.db)).not.toContain(secret.slice(-20));
    });

    it("is registered by the tenant's own administrador for its own tenant, named or not", async () => {
      const a = await create(customerAdmin, { url: `https://${host()}/a` });
      const b = await create(customerAdmin, { tenantName: 'wh-cliente', url: `https://${host()}/b` });
      expect([a.endpoint.tenantName, b.endpoint.tenantName]).toEqual(['wh-cliente', 'wh-cliente']);
      expect((await list(staff, 'wh-cliente')).map((e) => e.id)).toEqual(
        expect.arrayContaining([a.endpoint.id, b.endpoint.id]),
      );
      // Another tenant's list does not show them.
      expect((await list(otherAdmin)).map((e) => e.id)).not.toContain(a.endpoint.id);
    });
  });

  describe('who may', () => {
    let endpointId: number;
    beforeAll(async () => {
      endpointId = (await create(staff, { tenantName: 'wh-cliente', url: `https://${host()}/who` })).endpoint.id;
    });

    const attempts = (id: () => number) =>
      [
        ['webhookEndpointList', 'GET', () => '/api/webhooks/endpoints', undefined],
        [
          'webhookEndpointCreate',
          'POST',
          () => '/api/webhooks/endpoints',
          { url: 'https://x.example.com/', types: ['sent'] },
        ],
        ['webhookEndpointUpdate', 'PUT', () => `/api/webhooks/endpoints/${id()}`, { active: false }],
        ['webhookEndpointRotateSecret', 'POST', () => `/api/webhooks/endpoints/${id()}/rotate-secret`, {}],
        ['webhookEndpointDelete', 'DELETE', () => `/api/webhooks/endpoints/${id()}`, undefined],
      ] as const;

    it("refuses the tenant's other users, even one whose role holds the tenants permission (403), changing nothing", async () => {
      for (const who of [customerOperator, customerTenantsRole])
        for (const [operationId, method, url, body] of attempts(() => endpointId)) {
          const before = await snapshot();
          await expectAnswer(operationId, await call(who, method, url(), body), 403);
          expect(await snapshot()).toEqual(before);
        }
    });

    it("refuses another tenant's administrador: its tenant named 403, its endpoint unknown 404, changing nothing", async () => {
      for (const [operationId, method, url, body] of [
        ['webhookEndpointList', 'GET', '/api/webhooks/endpoints?tenantName=wh-cliente', undefined],
        [
          'webhookEndpointCreate',
          'POST',
          '/api/webhooks/endpoints',
          { tenantName: 'wh-cliente', url: `https://${host()}/`, types: ['sent'] },
        ],
      ] as const) {
        const before = await snapshot();
        await expectAnswer(operationId, await call(otherAdmin, method, url, body), 403);
        expect(await snapshot()).toEqual(before);
      }
      for (const [operationId, method, url, body] of attempts(() => endpointId).slice(2)) {
        const before = await snapshot();
        await expectAnswer(operationId, await call(otherAdmin, method, url(), body), 404);
        expect(await snapshot()).toEqual(before);
      }
      // A missing endpoint answers the same.
      for (const [operationId, method, url, body] of attempts(() => 2_000_000).slice(2))
        await expectAnswer(operationId, await call(staff, method, url(), body), 404);
    });

    it("answers 404 on tenantName for a missing tenant, and 404 for everything of a deleted tenant's", async () => {
      await newTenant('wh-apagado');
      const gone = await create(staff, { tenantName: 'wh-apagado', url: `https://${host()}/gone` });
      await t.db.updateTable('tenants').set({ deleted_at: new Date() }).where('name', '=', 'wh-apagado').execute();
      for (const name of ['wh-apagado', 'wh-nenhum']) {
        const before = await snapshot();
        const listed = await call(staff, 'GET', `/api/webhooks/endpoints?tenantName=${name}`);
        await expectAnswer('webhookEndpointList', listed, 404);
        const created = await call(staff, 'POST', '/api/webhooks/endpoints', {
          tenantName: name,
          url: `https://${host()}/`,
          types: ['sent'],
        });
        await expectAnswer('webhookEndpointCreate', created, 404);
        expect(created.json()).toMatchObject({ message: 'Tenant not found' });
        expect(await snapshot()).toEqual(before);
      }
      for (const [operationId, method, url, body] of attempts(() => gone.endpoint.id).slice(2)) {
        const before = await snapshot();
        await expectAnswer(operationId, await call(staff, method, url(), body), 404);
        expect(await snapshot()).toEqual(before);
      }
    });
  });

  describe('the rules of an address, its types and description', () => {
    const badUrls = [
      ['not an address', 'erp.example.com/webhooks'],
      ['blank', '   '],
      ['http', 'http://erp.example.com/webhooks'],
      ['another scheme', 'ftp://erp.example.com/webhooks'],
      ['a user name and password', 'https://user:senha@erp.example.com/webhooks'],
      ['a user name', 'https://user@erp.example.com/webhooks'],
      ['a fragment', 'https://erp.example.com/webhooks#parte'],
      ['an empty fragment', 'https://erp.example.com/webhooks#'],
      ['a control character', 'https://erp.exam\nple.com/webhooks'],
      ['loopback', 'https://127.0.0.1/webhooks'],
      ['loopback in decimal', 'https://2130706433/webhooks'],
      ['loopback v6', 'https://[::1]/webhooks'],
      ['IPv4-mapped loopback', 'https://[::ffff:127.0.0.1]/webhooks'],
      ['localhost', 'https://localhost:8443/webhooks'],
      ['a localhost name', 'https://erp.localhost/webhooks'],
      ['private', 'https://10.1.2.3/webhooks'],
      ['private 192.168', 'https://192.168.0.10/webhooks'],
      ['metadata', 'https://169.254.169.254/latest/meta-data'],
      ['shared (CGNAT)', 'https://100.64.0.1/webhooks'],
      ['unique local v6', 'https://[fd00::1]/webhooks'],
      ['too long', `https://erp.example.com/${'a'.repeat(2048)}`],
    ] as const;

    it.each(badUrls)('refuses %s with 400 on url, changing nothing', async (_what, url) => {
      const before = await snapshot();
      const response = await call(staff, 'POST', '/api/webhooks/endpoints', {
        tenantName: 'wh-cliente',
        url,
        types: ['sent'],
      });
      await expectAnswer('webhookEndpointCreate', response, 400);
      expect(response.json<{ errors: { field: string }[] }>().errors.map((e) => e.field)).toEqual(['body/url']);
      expect(await snapshot()).toEqual(before);
    });

    it('refuses the same addresses in a change, with 400 on url, changing nothing', async () => {
      await newTenant('wh-regras');
      const { endpoint } = await create(staff, { tenantName: 'wh-regras', url: `https://${host()}/change` });
      for (const [, url] of badUrls) {
        const before = await snapshot();
        const response = await call(staff, 'PUT', `/api/webhooks/endpoints/${endpoint.id}`, { url });
        await expectAnswer('webhookEndpointUpdate', response, 400);
        expect(response.json<{ errors: { field: string }[] }>().errors.map((e) => e.field)).toEqual(['body/url']);
        expect(await snapshot()).toEqual(before);
      }
    });

    it('refuses bad types and descriptions, each on its field, and every bad field at once', async () => {
      for (const [body, fields] of [
        [{ types: [] }, ['body/types']],
        [{ types: ['sent', 'sent'] }, ['body/types']],
        [{ types: ['opened'] }, ['body/types']],
        [{ description: 'x'.repeat(201) }, ['body/description']],
        [{ description: 'linha 1\u0007' }, ['body/description']],
        [{ url: 'https://127.0.0.1/', types: ['sent'], description: 'a\u001bb' }, ['body/url', 'body/description']],
      ] as const) {
        const before = await snapshot();
        const response = await call(staff, 'POST', '/api/webhooks/endpoints', {
          tenantName: 'wh-cliente',
          url: `https://${host()}/`,
          types: ['sent'],
          ...body,
        });
        await expectAnswer('webhookEndpointCreate', response, 400);
        // The contract's schema names an item (`body/types.0`), the service the list: the field either way.
        const named = response.json<{ errors: { field: string }[] }>().errors.map((e) => e.field.replace(/\.\d+$/, ''));
        expect([...new Set(named)]).toEqual(fields);
        expect(await snapshot()).toEqual(before);
      }
    });

    it('allows http and loopback receivers only with WEBHOOK_ALLOW_LOOPBACK, never private ones', () => {
      const open = { allowLoopback: true };
      expect(checkWebhookUrl('http://127.0.0.1:9999/hook', open)).toEqual({
        url: 'http://127.0.0.1:9999/hook',
        url_key: 'http://127.0.0.1:9999/hook',
      });
      expect(checkWebhookUrl('http://localhost:9999/hook', open).url_key).toBe('http://localhost:9999/hook');
      expect(() => checkWebhookUrl('https://10.0.0.1/hook', open)).toThrow(/loopback, private/);
      expect(() => checkWebhookUrl('http://localhost:9999/hook', { allowLoopback: false })).toThrow(/https/);
    });
  });

  describe('duplicates and the limit', () => {
    it('refuses another spelling of an address the tenant has (409 webhook_endpoint_taken); free again once deleted', async () => {
      const name = host();
      const { endpoint } = await create(staff, { tenantName: 'wh-cliente', url: `https://${name}/hook` });
      for (const spelling of [
        `https://${name}/hook`,
        `HTTPS://${name.toUpperCase()}:443/hook`,
        ` https://${name}/hook `,
      ]) {
        const before = await snapshot();
        const response = await call(customerAdmin, 'POST', '/api/webhooks/endpoints', {
          url: spelling,
          types: ['read'],
        });
        await expectAnswer('webhookEndpointCreate', response, 409);
        expect(response.json()).toMatchObject({ field: 'url', error: 'webhook_endpoint_taken' });
        expect(await snapshot()).toEqual(before);
      }
      // Another tenant may use the same address.
      await create(otherAdmin, { url: `https://${name}/hook` });
      // A change onto another endpoint's address is refused the same way.
      const second = await create(staff, { tenantName: 'wh-cliente', url: `https://${name}/other` });
      const before = await snapshot();
      const moved = await call(staff, 'PUT', `/api/webhooks/endpoints/${second.endpoint.id}`, {
        url: `https://${name.toUpperCase()}/hook`,
      });
      await expectAnswer('webhookEndpointUpdate', moved, 409);
      expect(moved.json()).toMatchObject({ error: 'webhook_endpoint_taken' });
      expect(await snapshot()).toEqual(before);

      await expectAnswer(
        'webhookEndpointDelete',
        await call(staff, 'DELETE', `/api/webhooks/endpoints/${endpoint.id}`),
        200,
      );
      await create(staff, { tenantName: 'wh-cliente', url: `https://${name}/hook` });
      await call(staff, 'DELETE', `/api/webhooks/endpoints/${second.endpoint.id}`);
    });

    it(`keeps at most ${WEBHOOK_ENDPOINTS_PER_TENANT} live endpoints per tenant (409 webhook_endpoint_limit)`, async () => {
      await newTenant('wh-limite');
      const made: number[] = [];
      for (let i = 0; i < WEBHOOK_ENDPOINTS_PER_TENANT; i++)
        made.push((await create(staff, { tenantName: 'wh-limite', url: `https://${host()}/` })).endpoint.id);
      const before = await snapshot();
      const over = await call(staff, 'POST', '/api/webhooks/endpoints', {
        tenantName: 'wh-limite',
        url: `https://${host()}/`,
        types: ['sent'],
      });
      await expectAnswer('webhookEndpointCreate', over, 409);
      expect(over.json()).toMatchObject({ error: 'webhook_endpoint_limit' });
      expect(await snapshot()).toEqual(before);
      // A deleted one frees its place.
      await call(staff, 'DELETE', `/api/webhooks/endpoints/${made[0]!}`);
      await create(staff, { tenantName: 'wh-limite', url: `https://${host()}/` });
      expect(await list(staff, 'wh-limite')).toHaveLength(WEBHOOK_ENDPOINTS_PER_TENANT);
    });
  });

  describe('a change', () => {
    it('changes the address, types and description, pauses and resumes, raising the version, audited', async () => {
      const { endpoint, secret } = await create(customerAdmin, { url: `https://${host()}/v1`, types: ['sent'] });
      const mark = await auditMark(t.db);
      const url = `https://${host()}/v2`;
      const changed = await call(customerAdmin, 'PUT', `/api/webhooks/endpoints/${endpoint.id}`, {
        url,
        types: ['read', 'failed'],
        description: 'Novo ERP',
        version: 1,
      });
      await expectAnswer('webhookEndpointUpdate', changed, 200);
      expect(changed.json()).toMatchObject({
        url,
        types: ['read', 'failed'],
        description: 'Novo ERP',
        active: true,
        version: 2,
        secret_hint: webhookSecretHint(secret),
      });
      const paused = await call(staff, 'PUT', `/api/webhooks/endpoints/${endpoint.id}`, { active: false });
      await expectAnswer('webhookEndpointUpdate', paused, 200);
      expect(paused.json()).toMatchObject({ active: false, version: 3 });
      expect((await list(customerAdmin)).find((e) => e.id === endpoint.id)).toMatchObject({ active: false });

      const records = await auditSince(t.db, mark);
      expect(records.map((r) => [r.operation, r.target_version])).toEqual([
        ['webhook.endpoint-update', 2],
        ['webhook.endpoint-update', 3],
      ]);
      expect(changesMap(records[0]!)).toEqual({
        url: [JSON.stringify(endpoint.url), JSON.stringify(url)],
        types: [JSON.stringify(['sent']), JSON.stringify(['read', 'failed'])],
        description: ['""', JSON.stringify('Novo ERP')],
      });
      expect(changesMap(records[1]!)).toEqual({ active: ['true', 'false'] });
      const row = await t.db
        .selectFrom('webhook_endpoints')
        .select(['url_key', 'version'])
        .where('id', '=', endpoint.id)
        .executeTakeFirstOrThrow();
      expect(row).toEqual({ url_key: url, version: 3 });
    });

    it('refuses a stale version (409 stale with what changed since) and an empty change (400), changing nothing', async () => {
      await newTenant('wh-versao');
      const { endpoint } = await create(staff, { tenantName: 'wh-versao', url: `https://${host()}/` });
      await call(staff, 'PUT', `/api/webhooks/endpoints/${endpoint.id}`, { description: 'um', version: 1 });
      for (const [body, status] of [
        [{ description: 'dois', version: 1 }, 409],
        [{ version: 2 }, 400],
        [{ version: 0, active: false }, 400],
      ] as const) {
        const before = await snapshot();
        const response = await call(staff, 'PUT', `/api/webhooks/endpoints/${endpoint.id}`, body);
        await expectAnswer('webhookEndpointUpdate', response, status);
        if (status === 409)
          expect(response.json()).toMatchObject({
            error: 'stale',
            version: 2,
            changes: [{ operation: 'webhook.endpoint-update', version: 2 }],
          });
        expect(await snapshot()).toEqual(before);
      }
      const rotated = await call(staff, 'POST', `/api/webhooks/endpoints/${endpoint.id}/rotate-secret`, {
        version: 1,
      });
      await expectAnswer('webhookEndpointRotateSecret', rotated, 409);
      expect(rotated.json()).toMatchObject({ error: 'stale', version: 2 });
    });
  });

  describe('a rotation', () => {
    it('answers a new secret once; the previous one signs too until the grace period ends', async () => {
      const { endpoint, secret: first } = await create(staff, { tenantName: 'wh-cliente', url: `https://${host()}/` });
      const mark = await auditMark(t.db);
      const before = Date.now();
      const response = await call(customerAdmin, 'POST', `/api/webhooks/endpoints/${endpoint.id}/rotate-secret`, {
        version: 1,
      });
      await expectAnswer('webhookEndpointRotateSecret', response, 200);
      const { endpoint: rotated, secret: second } = response.json<WithSecret>();
      expect(second).toMatch(WEBHOOK_SECRET_PATTERN);
      expect(second).not.toBe(first);
      expect(rotated).toMatchObject({ version: 2, secret_hint: webhookSecretHint(second) });
      const expires = new Date(rotated.previous_secret_expires_at!).getTime();
      const grace = loadConfig().webhooks.secretGraceHours * 3_600_000;
      expect(expires).toBeGreaterThanOrEqual(before + grace);
      expect(expires).toBeLessThanOrEqual(Date.now() + grace);

      const row = await t.db
        .selectFrom('webhook_endpoints')
        .selectAll()
        .where('id', '=', endpoint.id)
        .executeTakeFirstOrThrow();
      expect(row.previous_secret_expires_at!.getTime()).toBe(expires);
      expect(signingSecrets(t.db, row, new Date(expires - 1))).toEqual([second, first]);
      expect(signingSecrets(t.db, row, new Date(expires))).toEqual([second]);

      // Within the grace period, a second rotation replaces the older secret.
      const again = await call(staff, 'POST', `/api/webhooks/endpoints/${endpoint.id}/rotate-secret`, {});
      await expectAnswer('webhookEndpointRotateSecret', again, 200);
      const third = again.json<WithSecret>().secret;
      const after = await t.db
        .selectFrom('webhook_endpoints')
        .selectAll()
        .where('id', '=', endpoint.id)
        .executeTakeFirstOrThrow();
      expect(signingSecrets(t.db, after, new Date(after.previous_secret_expires_at!.getTime() - 1))).toEqual([
        third,
        second,
      ]);

      const records = await auditSince(t.db, mark);
      expect(records.map((r) => [r.operation, r.target_version, changesMap(r)])).toEqual([
        ['webhook.endpoint-rotate', 2, {}],
        ['webhook.endpoint-rotate', 3, {}],
      ]);
      const log = await wholeLogText(t.db);
      for (const secret of [first, second, third]) expect(log).not.toContain(secret.slice(-20));
      // Listed with the new hint only.
      const listed = await call(staff, 'GET', '/api/webhooks/endpoints?tenantName=wh-cliente');
      for (const secret of [first, second, third]) expect(listed.body).not.toContain(secret.slice(-20));
    });
  });

  describe('the clock of a rotation (the service with a fixed now)', () => {
    it('keeps the previous secret until now + the grace hours, shows no expired grace, keeps none with no grace', async () => {
      await newTenant('wh-relogio');
      const staffUser = await t.db
        .selectFrom('users')
        .innerJoin('tenants', 'tenants.id', 'users.tenant_id')
        .innerJoin('roles', 'roles.id', 'users.role_id')
        .select(['users.id', 'users.tenant_id', 'tenants.name as tenant', 'users.role_id', 'roles.name as role'])
        .where('users.email', '=', 'admin@demo.local')
        .executeTakeFirstOrThrow();
      const actor: Actor = {
        kind: 'user',
        userId: staffUser.id,
        tenantId: staffUser.tenant_id,
        tenantName: staffUser.tenant,
        roleId: staffUser.role_id,
        role: staffUser.role,
        originBackoffice: true,
        permissions: new Set(['tenants']),
        claims: { sub: String(staffUser.id), fam: 'f', jti: 'j', tv: 0, rxp: 0, iat: 0, exp: 0 },
        origin: NO_ORIGIN,
      };
      let at = new Date('2030-01-01T00:00:00.000Z');
      const service = (hours: number) =>
        createWebhookEndpointsService({
          db: t.db,
          config: { webhooks: { ...loadConfig().webhooks, secretGraceHours: hours } },
          audit: createAuditTrail({ db: t.db, events: t.app.events }),
          now: () => at,
        });
      const row = (id: number) =>
        t.db.selectFrom('webhook_endpoints').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

      const { endpoint, secret: first } = await service(2).create(actor, {
        tenantName: 'wh-relogio',
        url: `https://${host()}/`,
        types: ['sent'],
      });
      const { endpoint: rotated, secret: second } = await service(2).rotateSecret(actor, endpoint.id);
      expect(rotated.previous_secret_expires_at).toBe('2030-01-01T02:00:00.000Z');
      const stored = await row(endpoint.id);
      expect(signingSecrets(t.db, stored, new Date('2030-01-01T01:59:59.999Z'))).toEqual([second, first]);
      expect(signingSecrets(t.db, stored, new Date('2030-01-01T02:00:00.000Z'))).toEqual([second]);
      at = new Date('2030-01-01T02:00:00.000Z');
      expect((await service(2).list(actor, 'wh-relogio'))[0]).toMatchObject({ previous_secret_expires_at: null });

      const { endpoint: none, secret: third } = await service(0).rotateSecret(actor, endpoint.id);
      expect(none.previous_secret_expires_at).toBeNull();
      expect(await row(endpoint.id)).toMatchObject({ previous_secret: null, previous_secret_expires_at: null });
      expect(signingSecrets(t.db, await row(endpoint.id), at)).toEqual([third]);
    });
  });

  describe('a delete', () => {
    it("cancels the endpoint's deliveries waiting to be sent, leaves the rest, and hides it; audited", async () => {
      const { endpoint } = await create(staff, { tenantName: 'wh-cliente', url: `https://${host()}/` });
      const kept = await create(staff, { tenantName: 'wh-cliente', url: `https://${host()}/` });
      const run = await t.db
        .insertInto('webhook_runs')
        .values({
          tenant_id: customerId,
          type: 'delivered',
          start_at: '2026-11-01',
          finish_at: '2026-11-02',
          created_by: null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const message = async () =>
        (
          await t.db
            .insertInto('campaign_messages')
            .values({ tenant_id: customerId, campaign: 'c', recipient: '+5511999990000' })
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id;
      const soon = new Date(Date.now() + 60_000);
      const delivery = async (endpointId: number, state: 'pending' | 'sending' | 'succeeded') =>
        (
          await t.db
            .insertInto('webhook_deliveries')
            .values({
              run_id: run.id,
              tenant_id: customerId,
              endpoint_id: endpointId,
              message_id: await message(),
              type: 'delivered',
              idempotency_key: randomUUID(),
              body: '{}',
              state,
              next_attempt_at: state === 'pending' ? soon : null,
              locked_until: state === 'sending' ? soon : null,
              completed_at: state === 'succeeded' ? new Date() : null,
            })
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id;
      const pending = [await delivery(endpoint.id, 'pending'), await delivery(endpoint.id, 'pending')];
      const sending = await delivery(endpoint.id, 'sending');
      const succeeded = await delivery(endpoint.id, 'succeeded');
      const otherPending = await delivery(kept.endpoint.id, 'pending');

      const mark = await auditMark(t.db);
      const response = await call(customerAdmin, 'DELETE', `/api/webhooks/endpoints/${endpoint.id}`);
      await expectAnswer('webhookEndpointDelete', response, 200);
      expect(response.json()).toEqual({ message: 'Deleted' });

      const states = Object.fromEntries(
        (
          await t.db
            .selectFrom('webhook_deliveries')
            .select(['id', 'state', 'next_attempt_at', 'completed_at'])
            .where('run_id', '=', run.id)
            .execute()
        ).map((d) => [d.id, d]),
      );
      for (const id of pending)
        expect(states[id]).toMatchObject({ state: 'cancelled', next_attempt_at: null, completed_at: expect.any(Date) });
      expect(states[sending]).toMatchObject({ state: 'sending' });
      expect(states[succeeded]).toMatchObject({ state: 'succeeded' });
      expect(states[otherPending]).toMatchObject({ state: 'pending' });

      const row = await t.db
        .selectFrom('webhook_endpoints')
        .select(['deleted_at', 'version'])
        .where('id', '=', endpoint.id)
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({ deleted_at: expect.any(Date), version: 2 });
      expect((await list(staff, 'wh-cliente')).map((e) => e.id)).not.toContain(endpoint.id);
      const [record, ...more] = await auditSince(t.db, mark);
      expect(more).toEqual([]);
      expect(record).toMatchObject({ operation: 'webhook.endpoint-delete', target_id: endpoint.id, target_version: 2 });
      expect(Object.keys(changesMap(record!))).toEqual(['deleted_at']);

      // Deleted: every operation on it answers 404, changing nothing.
      for (const [operationId, method, url, body] of [
        ['webhookEndpointUpdate', 'PUT', `/api/webhooks/endpoints/${endpoint.id}`, { active: true }],
        ['webhookEndpointRotateSecret', 'POST', `/api/webhooks/endpoints/${endpoint.id}/rotate-secret`, {}],
        ['webhookEndpointDelete', 'DELETE', `/api/webhooks/endpoints/${endpoint.id}`, undefined],
      ] as const) {
        const before = await snapshot();
        await expectAnswer(operationId, await call(staff, method, url, body), 404);
        expect(await snapshot()).toEqual(before);
      }
    });
  });

  if (postgres)
    describe('racing requests', () => {
      it('ten creates of one address: one 201, nine 409 webhook_endpoint_taken, no 5xx', async () => {
        await newTenant('wh-corrida-1');
        const url = `https://${host()}/race`;
        const answers = await Promise.all(
          Array.from({ length: 10 }, () =>
            call(staff, 'POST', '/api/webhooks/endpoints', { tenantName: 'wh-corrida-1', url, types: ['sent'] }),
          ),
        );
        const statuses = answers.map((a) => a.statusCode).sort();
        expect(statuses).toEqual([201, ...Array<number>(9).fill(409)]);
        for (const a of answers.filter((x) => x.statusCode === 409))
          expect(a.json()).toMatchObject({ error: 'webhook_endpoint_taken' });
        expect(await list(staff, 'wh-corrida-1')).toHaveLength(1);
      });

      it('fifteen creates of different addresses: exactly ten endpoints, the rest 409 webhook_endpoint_limit', async () => {
        await newTenant('wh-corrida-2');
        const answers = await Promise.all(
          Array.from({ length: 15 }, () =>
            call(staff, 'POST', '/api/webhooks/endpoints', {
              tenantName: 'wh-corrida-2',
              url: `https://${host()}/race`,
              types: ['sent'],
            }),
          ),
        );
        expect(answers.filter((a) => a.statusCode === 201)).toHaveLength(WEBHOOK_ENDPOINTS_PER_TENANT);
        const refused = answers.filter((a) => a.statusCode !== 201);
        expect(refused.map((a) => a.statusCode)).toEqual(Array<number>(5).fill(409));
        for (const a of refused) expect(a.json()).toMatchObject({ error: 'webhook_endpoint_limit' });
        expect(await list(staff, 'wh-corrida-2')).toHaveLength(WEBHOOK_ENDPOINTS_PER_TENANT);
      });

      it('racing rotations and changes of one endpoint all succeed, each raising the version once', async () => {
        await newTenant('wh-corrida-3');
        const { endpoint } = await create(staff, { tenantName: 'wh-corrida-3', url: `https://${host()}/race` });
        const answers = await Promise.all([
          ...Array.from({ length: 4 }, () =>
            call(staff, 'POST', `/api/webhooks/endpoints/${endpoint.id}/rotate-secret`, {}),
          ),
          ...Array.from({ length: 4 }, (_, i) =>
            call(staff, 'PUT', `/api/webhooks/endpoints/${endpoint.id}`, { description: `d${i}` }),
          ),
        ]);
        expect(answers.map((a) => a.statusCode)).toEqual(Array<number>(8).fill(200));
        const row = await t.db
          .selectFrom('webhook_endpoints')
          .selectAll()
          .where('id', '=', endpoint.id)
          .executeTakeFirstOrThrow();
        expect(row.version).toBe(9);
        // The last rotation's secret is the current one, the one before it the previous one.
        const secrets = answers.slice(0, 4).map((a) => a.json<WithSecret>().secret);
        const current = openWebhookSecret(t.db, row.id, row.secret);
        const previous = openWebhookSecret(t.db, row.id, row.previous_secret!);
        expect(secrets).toContain(current);
        expect(secrets).toContain(previous);
      });
    });
});
