import { asArray, asRecord } from './kit-client.js';
import type { ConformanceClient } from './kit-client.js';
import type { RunContext, RunTenants } from './kit-rest-steps.js';

/** An id no server hands out in a conformance run. */
const MISSING_ID = 2_147_483_647;

/**
 * Campaign-status webhooks (docs/webhooks.md) on the throwaway tenant: with no endpoint a generation is
 * refused (409); with one (an https address under `.invalid`, so nothing is ever received) it queues a run
 * the history lists and shows; "send the failed ones again" answers; a missing run or delivery is 404.
 * The endpoint is deleted at the end, whatever failed.
 */
export async function webhooks(c: ConformanceClient, run: RunContext, tenants: RunTenants): Promise<void> {
  const { rest } = c;
  const { tenantName } = tenants;
  const range = { tenantName, startAt: run.startAt, finishAt: run.finishAt, type: 'delivered' };
  await rest('tenantGenerateCampaignStatusWebhook', 'GET', '/api/tenant/generate-campaign-status-webhook', 409, {
    query: range,
  });
  const endpoint = asRecord(
    await rest('webhookEndpointCreate', 'POST', '/api/webhooks/endpoints', 201, {
      body: {
        tenantName,
        url: `https://conformance-${run.stamp}.invalid/hooks`,
        types: ['delivered'],
        description: 'Conformance',
      },
    }),
  );
  const endpointId = typeof endpoint.id === 'number' ? endpoint.id : undefined;
  try {
    let runId: number | undefined;
    if (endpointId !== undefined) {
      const generated = asRecord(
        await rest('tenantGenerateCampaignStatusWebhook', 'GET', '/api/tenant/generate-campaign-status-webhook', 200, {
          query: range,
        }),
      );
      runId = typeof generated.deliveryId === 'number' ? generated.deliveryId : undefined;
    }
    const runs = asArray(
      asRecord(await rest('webhookRunList', 'GET', '/api/webhooks/runs', 200, { query: { tenantName } })).data,
    ).map(asRecord);
    if (runId !== undefined && !runs.some((r) => r.id === runId))
      c.check('webhookRunList', 'rest', 200, ['the run just generated is not listed']);
    await rest('webhookDeliveryList', 'GET', '/api/webhooks/deliveries', 200, {
      query: { tenantName, ...(runId !== undefined ? { runId } : {}) },
    });
    if (runId !== undefined) {
      await rest('webhookRunGet', 'GET', `/api/webhooks/runs/${runId}`, 200);
      await rest('webhookRunRedeliverFailed', 'POST', `/api/webhooks/runs/${runId}/redeliver-failed`, 200);
    }
    await rest('webhookRunGet', 'GET', `/api/webhooks/runs/${MISSING_ID}`, 404);
    await rest('webhookRunRedeliverFailed', 'POST', `/api/webhooks/runs/${MISSING_ID}/redeliver-failed`, 404);
    await rest('webhookDeliveryGet', 'GET', `/api/webhooks/deliveries/${MISSING_ID}`, 404);
    await rest('webhookDeliveryRedeliver', 'POST', `/api/webhooks/deliveries/${MISSING_ID}/redeliver`, 404);
  } finally {
    if (endpointId !== undefined)
      await rest('webhookEndpointDelete', 'DELETE', `/api/webhooks/endpoints/${endpointId}`, 200);
  }
}
