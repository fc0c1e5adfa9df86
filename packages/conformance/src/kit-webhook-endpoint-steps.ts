import { asArray, asRecord } from './kit-client.js';
import type { ConformanceClient } from './kit-client.js';
import type { RunContext, RunTenants } from './kit-rest-steps.js';

/**
 * Webhook endpoints (docs/webhooks.md) of the run's customer tenant: the caller registers one and gets its
 * signing secret once, finds it listed with a hint and never the secret, is refused the same address in
 * another spelling (409) and a private address (400), pauses it, is refused a stale version (409), rotates
 * its secret (the previous one kept for a grace period), then deletes it, after which it is unknown (404).
 * The endpoint goes with the tenant when the run purges it (./kit-fixtures.ts).
 */
export async function webhookEndpoints(c: ConformanceClient, run: RunContext, tenants: RunTenants): Promise<void> {
  const { rest, check } = c;
  const tenantName = tenants.customerName;
  const host = `conformance-${run.stamp}.example.com`.toLowerCase();
  const url = `https://${host}/webhooks`;
  const created = asRecord(
    await rest('webhookEndpointCreate', 'POST', '/api/webhooks/endpoints', 201, {
      body: { tenantName, url, types: ['sent', 'delivered'], description: 'Conformance' },
    }),
  );
  const endpoint = asRecord(created.endpoint);
  const secret = typeof created.secret === 'string' ? created.secret : '';
  if (typeof endpoint.id !== 'number') return;
  const path = `/api/webhooks/endpoints/${endpoint.id}`;
  try {
    if (endpoint.active !== true || endpoint.tenantName !== tenantName)
      check('webhookEndpointCreate', 'rest', 201, ['a new endpoint is not active in the tenant named']);
    const listed = asArray(
      asRecord(await rest('webhookEndpointList', 'GET', '/api/webhooks/endpoints', 200, { query: { tenantName } }))
        .data,
    ).map(asRecord);
    if (!listed.some((e) => e.id === endpoint.id))
      check('webhookEndpointList', 'rest', 200, ['the endpoint just registered is not listed']);
    if (secret && JSON.stringify(listed).includes(secret))
      check('webhookEndpointList', 'rest', 200, ['the list shows a signing secret']);
    await rest(
      'webhookEndpointCreate',
      'POST',
      '/api/webhooks/endpoints',
      409,
      { body: { tenantName, url: `HTTPS://${host.toUpperCase()}:443/webhooks`, types: ['read'] } },
      'webhookEndpointCreate (the same address, spelt otherwise)',
    );
    await rest(
      'webhookEndpointCreate',
      'POST',
      '/api/webhooks/endpoints',
      400,
      { body: { tenantName, url: 'https://169.254.169.254/latest/meta-data', types: ['read'] } },
      'webhookEndpointCreate (a link-local address)',
    );
    const paused = asRecord(
      await rest('webhookEndpointUpdate', 'PUT', path, 200, { body: { active: false, version: endpoint.version } }),
    );
    if (paused.active !== false) check('webhookEndpointUpdate', 'rest', 200, ['active: false did not pause it']);
    await rest(
      'webhookEndpointUpdate',
      'PUT',
      path,
      409,
      { body: { description: 'stale', version: endpoint.version } },
      'webhookEndpointUpdate (a stale version)',
    );
    const rotated = asRecord(
      await rest('webhookEndpointRotateSecret', 'POST', `${path}/rotate-secret`, 200, { body: {} }),
    );
    if (rotated.secret === secret || asRecord(rotated.endpoint).previous_secret_expires_at === null)
      check('webhookEndpointRotateSecret', 'rest', 200, [
        'a rotation must answer a new secret and keep the previous one for a grace period',
      ]);
  } finally {
    await rest('webhookEndpointDelete', 'DELETE', path, 200);
  }
  await rest('webhookEndpointDelete', 'DELETE', path, 404, {}, 'webhookEndpointDelete (already deleted)');
}
