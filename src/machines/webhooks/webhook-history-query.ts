import type { components } from '../../generated/openapi';

export type WebhookDeliveryState = components['schemas']['WebhookDeliveryState'];
type CampaignStatusType = components['schemas']['CampaignStatusType'];

export const DELIVERY_STATES = [
  'pending',
  'sending',
  'succeeded',
  'failed',
  'cancelled',
] as const satisfies readonly WebhookDeliveryState[];
const TYPES = ['sent', 'delivered', 'read', 'failed', 'replied'] as const satisfies readonly CampaignStatusType[];

/**
 * The history page's address (`/webhooks?tenant=&run=&endpoint=&state=&type=`): whose history, and the
 * deliveries' filters. Absent or unreadable parts read as "any" (the tenant as the session's).
 */
export interface WebhookHistoryQuery {
  tenant: string | null;
  run: number | null;
  endpoint: number | null;
  state: WebhookDeliveryState | null;
  type: CampaignStatusType | null;
}

export const EMPTY_HISTORY_QUERY: WebhookHistoryQuery = {
  tenant: null,
  run: null,
  endpoint: null,
  state: null,
  type: null,
};

const id = (text: string | null) => (text !== null && /^[1-9]\d{0,15}$/.test(text) ? Number(text) : null);
const oneOf = <T extends string>(list: readonly T[], text: string | null): T | null =>
  list.find((item) => item === text) ?? null;

export function parseHistoryQuery(search: string): WebhookHistoryQuery {
  const params = new URLSearchParams(search);
  const tenant = params.get('tenant')?.trim() ?? '';
  return {
    tenant: tenant === '' ? null : tenant,
    run: id(params.get('run')),
    endpoint: id(params.get('endpoint')),
    state: oneOf(DELIVERY_STATES, params.get('state')),
    type: oneOf(TYPES, params.get('type')),
  };
}

/** The address's query string, in a fixed order, without the parts that are "any". */
export function historySearch(query: WebhookHistoryQuery): string {
  const params = new URLSearchParams();
  if (query.tenant) params.set('tenant', query.tenant);
  if (query.run !== null) params.set('run', String(query.run));
  if (query.endpoint !== null) params.set('endpoint', String(query.endpoint));
  if (query.state) params.set('state', query.state);
  if (query.type) params.set('type', query.type);
  return params.toString();
}

/** The history page's address for a tenant, optionally one run or one endpoint (the tenant panel's links). */
export function historyHref(tenant: string, filters: Partial<Omit<WebhookHistoryQuery, 'tenant'>> = {}): string {
  const search = historySearch({ ...EMPTY_HISTORY_QUERY, ...filters, tenant });
  return `/webhooks${search ? `?${search}` : ''}`;
}

export const sameHistoryQuery = (a: WebhookHistoryQuery, b: WebhookHistoryQuery) =>
  historySearch(a) === historySearch(b);
