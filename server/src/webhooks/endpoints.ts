import type { Kysely, Transaction } from 'kysely';
import type { Actor } from '../access/caller';
import { guardService } from '../access/guard';
import { auditWho, changesOf, type AuditTrail } from '../audit/trail';
import { sentVersion } from '../audit/versions';
import type { ServerConfig } from '../base/config';
import { checkAll, conflict, forbidden, invalid, isUniqueViolation, notFound } from '../base/domain-error';
import type { CampaignStatusType, Database } from '../db/schema';
import { hostRefusal } from './addresses';
import { assertWebhookRole } from './who';
import { newWebhookSecret, openWebhookSecret, sealWebhookSecret, webhookSecretHint } from './secrets';
import * as repo from './endpoints-repository';

/**
 * A tenant's webhook endpoints (docs/webhooks.md; contracts/openapi.yaml `webhookEndpointList`,
 * `webhookEndpointCreate`, `webhookEndpointUpdate`, `webhookEndpointRotateSecret`, `webhookEndpointDelete`).
 *
 * Who: back-office staff for any live tenant; a tenant's own `administrador` for its own tenant only (any
 * other role 403, another tenant named 403, another tenant's endpoint 404 as if missing). A deleted tenant's
 * endpoints are unknown to every operation (404).
 *
 * Every change takes the tenant's row lock first (./endpoints-repository.ts `lockTenant`): the limit of
 * {@link WEBHOOK_ENDPOINTS_PER_TENANT} is counted and an address checked free with no other change of the
 * tenant's endpoints in between, so racing creates make neither an 11th endpoint nor a duplicate; the
 * unique index `webhook_endpoints_url_key` (migration 0027) stays the last word on duplicates.
 *
 * Signing secrets (docs/security.md, Webhook signing secrets): made here, sealed with the endpoint's id
 * (./secrets.ts), answered once; lists show only their hint. Every change is audited in its own
 * transaction (`webhook.endpoint-*`, server/src/audit/trail.ts), never with a secret.
 */

export const WEBHOOK_ENDPOINTS_PER_TENANT = 10;
export const WEBHOOK_URL_MAX_LENGTH = 2048;
export const WEBHOOK_DESCRIPTION_MAX_LENGTH = 200;
export const CAMPAIGN_STATUS_TYPES: readonly CampaignStatusType[] = ['sent', 'delivered', 'read', 'failed', 'replied'];

// eslint-disable-next-line no-control-regex -- refusing control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/u;

/** The audited fields of an endpoint (its secrets never are). */
const FIELDS = ['url', 'types', 'description', 'active'] as const;

/** An endpoint as the contract shows it (contracts/openapi.yaml `WebhookEndpoint`). */
export interface WebhookEndpointDto {
  id: number;
  tenantName: string;
  url: string;
  types: CampaignStatusType[];
  description: string;
  active: boolean;
  secret_hint: string;
  previous_secret_expires_at: string | null;
  version: number;
  created_at: string;
  updated_at: string;
}

export interface WebhookEndpointInput {
  tenantName?: unknown;
  url?: unknown;
  types?: unknown;
  description?: unknown;
}

export interface WebhookEndpointChange {
  url?: unknown;
  types?: unknown;
  description?: unknown;
  active?: unknown;
  version?: number | null;
}

interface CheckedUrl {
  url: string;
  url_key: string;
}

/**
 * A receiver's address: absolute, `https` (`http` too with WEBHOOK_ALLOW_LOOPBACK), at most 2,048
 * characters, no user name or password, no fragment, no control characters, and a host that is not a
 * non-public IP literal nor `localhost` (./addresses.ts `hostRefusal`; the resolved addresses are checked
 * again at every send). `url_key` is the address as the URL parser writes it (scheme and host in lower
 * case, default port dropped, `/` for an empty path): two spellings of one address are one key.
 */
export function checkWebhookUrl(value: unknown, rules: { allowLoopback: boolean }): CheckedUrl {
  if (typeof value !== 'string') throw invalid('url', 'must be a string');
  const url = value.trim();
  if (!url) throw invalid('url', 'must not be blank');
  if (url.length > WEBHOOK_URL_MAX_LENGTH)
    throw invalid('url', `must have at most ${WEBHOOK_URL_MAX_LENGTH} characters`);
  if (CONTROL.test(url)) throw invalid('url', 'must not contain control characters');
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw invalid('url', 'must be an absolute address, such as https://erp.example.com/webhooks');
  }
  if (parsed.protocol !== 'https:' && !(parsed.protocol === 'http:' && rules.allowLoopback))
    throw invalid('url', 'must be an https address');
  if (parsed.username !== '' || parsed.password !== '')
    throw invalid('url', 'must not contain a user name or password');
  if (parsed.hash !== '' || parsed.href.includes('#')) throw invalid('url', 'must not have a fragment (#…)');
  // `host.` is `host` (an absolute DNS name): one key for both, so neither spelling duplicates the other.
  if (parsed.hostname.endsWith('.')) parsed.hostname = parsed.hostname.replace(/\.+$/, '');
  if (parsed.hostname === '') throw invalid('url', 'must name a host');
  if (hostRefusal(parsed.hostname, rules) !== null)
    throw invalid(
      'url',
      'must not point to a loopback, private, link-local, shared or reserved address, nor to localhost',
    );
  const key = parsed.href;
  if (key.length > WEBHOOK_URL_MAX_LENGTH)
    throw invalid('url', `must have at most ${WEBHOOK_URL_MAX_LENGTH} characters once normalised`);
  return { url, url_key: key };
}

/** Status types: a non-empty list of distinct campaign status types, kept in their canonical order. */
export function checkWebhookTypes(value: unknown): CampaignStatusType[] {
  if (!Array.isArray(value) || value.length === 0)
    throw invalid('types', `must be a non-empty list of ${CAMPAIGN_STATUS_TYPES.join(', ')}`);
  const seen = new Set<CampaignStatusType>();
  for (const type of value) {
    if (typeof type !== 'string' || !CAMPAIGN_STATUS_TYPES.includes(type as CampaignStatusType))
      throw invalid('types', `holds only ${CAMPAIGN_STATUS_TYPES.join(', ')}`);
    if (seen.has(type as CampaignStatusType)) throw invalid('types', `names ${type} twice`);
    seen.add(type as CampaignStatusType);
  }
  return CAMPAIGN_STATUS_TYPES.filter((type) => seen.has(type));
}

/** A description: trimmed, at most 200 characters, no control characters; empty when none. */
export function checkWebhookDescription(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value !== 'string') throw invalid('description', 'must be a string');
  const description = value.trim();
  if ([...description].length > WEBHOOK_DESCRIPTION_MAX_LENGTH)
    throw invalid('description', `must have at most ${WEBHOOK_DESCRIPTION_MAX_LENGTH} characters`);
  if (CONTROL.test(description)) throw invalid('description', 'must not contain control characters');
  return description;
}

function checkActive(value: unknown): boolean {
  if (typeof value !== 'boolean') throw invalid('active', 'must be true or false');
  return value;
}

const taken = () => conflict('This tenant already has an endpoint with this address', 'url', 'webhook_endpoint_taken');
const endpointNotFound = () => notFound('Webhook endpoint not found', 'id');
const tenantNotFound = () => notFound('Tenant not found', 'tenantName');

/** The address index's violation (a race the check before it could not see) as the contract's conflict. */
async function addressing<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isUniqueViolation(error) && error.constraint === 'webhook_endpoints_url_key') throw taken();
    throw error;
  }
}

export function createWebhookEndpointsService({
  db,
  config,
  audit,
  now = () => new Date(),
}: {
  db: Kysely<Database>;
  config: Pick<ServerConfig, 'webhooks'>;
  audit: AuditTrail;
  /** The clock of the secrets' grace periods; tests may fix it. */
  now?: () => Date;
}) {
  const rules = { allowLoopback: config.webhooks.allowLoopback };

  function toDto(row: repo.EndpointRow, at: Date = now()): WebhookEndpointDto {
    const secret = openWebhookSecret(db, row.id, row.secret);
    const expires = row.previous_secret_expires_at === null ? null : new Date(row.previous_secret_expires_at);
    return {
      id: row.id,
      tenantName: row.tenant_name,
      url: row.url,
      types: [...row.types],
      description: row.description,
      active: row.active,
      // A value that does not open (another key) shows no hint rather than failing the list.
      secret_hint: secret === null ? '' : webhookSecretHint(secret),
      previous_secret_expires_at: expires !== null && expires > at ? expires.toISOString() : null,
      version: row.version,
      created_at: new Date(row.created_at).toISOString(),
      updated_at: new Date(row.updated_at).toISOString(),
    };
  }

  /**
   * The tenant a list or a create acts on: the one named by `tenantName` for staff (a live one, else 404 on
   * `tenantName`), else the caller's own (another tenant named: 403).
   */
  async function tenantOf(actor: Actor, tenantName: unknown): Promise<number> {
    if (tenantName !== undefined && tenantName !== null && typeof tenantName !== 'string')
      throw invalid('tenantName', 'must be a tenant name');
    const own = !tenantName || tenantName === actor.tenantName;
    if (!own && !actor.originBackoffice) throw forbidden([], 'this tenant is not yours');
    const row = own ? await repo.tenantById(db, actor.tenantId) : await repo.tenantByName(db, tenantName);
    if (!row || row.deleted_at !== null) throw tenantNotFound();
    return row.id;
  }

  /** Locks the tenant's row for a change of its endpoints; a deleted or missing tenant: 404. */
  async function lockLive(trx: Transaction<Database>, tenantId: number, missing: () => Error): Promise<void> {
    const tenant = await repo.lockTenant(trx, tenantId);
    if (!tenant || tenant.deleted_at !== null) throw missing();
  }

  /**
   * Endpoint `id` as the caller may change it, its tenant's row then its own locked (that order in every
   * change, so changes of one tenant never wait on each other in a circle): 404 when missing, deleted, of a
   * deleted tenant or of another tenant than a tenant user's own.
   */
  async function lockVisible(trx: Transaction<Database>, actor: Actor, id: number) {
    const peek = await repo.endpointById(trx, id);
    if (!peek || (!actor.originBackoffice && peek.tenant_id !== actor.tenantId)) throw endpointNotFound();
    await lockLive(trx, peek.tenant_id, endpointNotFound);
    const row = await repo.endpointById(trx, id, true);
    if (!row || row.deleted_at !== null) throw endpointNotFound();
    return row;
  }

  const targetOf = (row: { id: number; url: string }) => ({ id: row.id, name: row.url });

  return guardService('webhookEndpoints', {
    /** The tenant's live endpoints, oldest first; secrets as hints only. */
    async list(actor: Actor, tenantName?: unknown): Promise<WebhookEndpointDto[]> {
      assertWebhookRole(actor);
      const tenantId = await tenantOf(actor, tenantName);
      const at = now();
      return (await repo.liveEndpoints(db, tenantId)).map((row) => toDto(row, at));
    },

    /** A new, active endpoint of the tenant and its signing secret, answered this once. */
    async create(actor: Actor, input: WebhookEndpointInput): Promise<{ endpoint: WebhookEndpointDto; secret: string }> {
      assertWebhookRole(actor);
      const tenantId = await tenantOf(actor, input.tenantName);
      const values = checkAll({
        address: () => checkWebhookUrl(input.url, rules),
        types: () => checkWebhookTypes(input.types),
        description: () => checkWebhookDescription(input.description),
      });
      const secret = newWebhookSecret();
      const endpoint = await addressing(() =>
        audit.transaction(auditWho(actor), async (trx, record) => {
          await lockLive(trx, tenantId, tenantNotFound);
          if (await repo.urlTaken(trx, tenantId, values.address.url_key)) throw taken();
          if ((await repo.countLiveEndpoints(trx, tenantId)) >= WEBHOOK_ENDPOINTS_PER_TENANT)
            throw conflict(
              `This tenant already has ${WEBHOOK_ENDPOINTS_PER_TENANT} webhook endpoints; delete one first`,
              'url',
              'webhook_endpoint_limit',
            );
          // The id first: the secret is sealed with it (./secrets.ts), and the row is written once.
          const id = await repo.nextEndpointId(trx);
          await repo.insertEndpoint(trx, {
            id,
            tenant_id: tenantId,
            ...values.address,
            types: values.types,
            description: values.description,
            secret: sealWebhookSecret(db, id, secret),
            created_by: actor.userId,
          });
          const row = await repo.endpointById(trx, id);
          if (!row) throw new Error('webhook endpoint: the row just inserted is missing');
          await record({
            operation: 'webhook.endpoint-create',
            target: targetOf(row),
            tenantId,
            changes: changesOf(null, row, FIELDS),
          });
          return toDto(row);
        }),
      );
      return { endpoint, secret };
    },

    /** Changes the address, types or description, or pauses (`active: false`) and resumes the endpoint. */
    async update(actor: Actor, id: number, change: WebhookEndpointChange): Promise<WebhookEndpointDto> {
      assertWebhookRole(actor);
      const sent = sentVersion(change.version);
      const set = checkAll({
        address: () => (change.url === undefined ? undefined : checkWebhookUrl(change.url, rules)),
        types: () => (change.types === undefined ? undefined : checkWebhookTypes(change.types)),
        description: () => (change.description === undefined ? undefined : checkWebhookDescription(change.description)),
        active: () => (change.active === undefined ? undefined : checkActive(change.active)),
      });
      if (
        set.address === undefined &&
        set.types === undefined &&
        set.description === undefined &&
        set.active === undefined
      )
        throw invalid('url', 'url, types, description or active is required');
      return addressing(() =>
        audit.transaction(auditWho(actor), async (trx, record) => {
          const row = await lockVisible(trx, actor, id);
          if (set.address !== undefined && (await repo.urlTaken(trx, row.tenant_id, set.address.url_key, row.id)))
            throw taken();
          const values: repo.EndpointSet = {};
          if (set.address !== undefined) Object.assign(values, set.address);
          if (set.types !== undefined) values.types = set.types;
          if (set.description !== undefined) values.description = set.description;
          if (set.active !== undefined) values.active = set.active;
          const version = await repo.updateEndpoint(trx, row.id, values, sent);
          if (version === undefined)
            throw await audit.stale(trx, actor, { type: 'webhook_endpoint', id: row.id }, sent ?? 0);
          if (set.active !== undefined) await repo.parkPendingDeliveries(trx, row.id, !set.active);
          const after = await repo.endpointById(trx, row.id);
          if (!after) throw endpointNotFound();
          await record({
            operation: 'webhook.endpoint-update',
            target: targetOf(after),
            tenantId: row.tenant_id,
            changes: changesOf(row, after, FIELDS),
            version,
          });
          return toDto(after);
        }),
      );
    },

    /**
     * A new signing secret, answered this once; the current one becomes the previous one, which signs too
     * until `WEBHOOK_SECRET_GRACE_HOURS` from now (an older previous one is dropped; no grace: none kept).
     */
    async rotateSecret(
      actor: Actor,
      id: number,
      input: { version?: number | null } = {},
    ): Promise<{ endpoint: WebhookEndpointDto; secret: string }> {
      assertWebhookRole(actor);
      const sent = sentVersion(input.version);
      const secret = newWebhookSecret();
      const endpoint = await audit.transaction(auditWho(actor), async (trx, record) => {
        const row = await lockVisible(trx, actor, id);
        const graceMs = config.webhooks.secretGraceHours * 3_600_000;
        const at = now();
        const version = await repo.updateEndpoint(
          trx,
          row.id,
          {
            secret: sealWebhookSecret(db, row.id, secret),
            // The seal is bound to the endpoint, not the column: the current value moves as it is.
            previous_secret: graceMs > 0 ? row.secret : null,
            previous_secret_expires_at: graceMs > 0 ? new Date(at.getTime() + graceMs) : null,
          },
          sent,
        );
        if (version === undefined)
          throw await audit.stale(trx, actor, { type: 'webhook_endpoint', id: row.id }, sent ?? 0);
        const after = await repo.endpointById(trx, row.id);
        if (!after) throw endpointNotFound();
        // No changes recorded: every field a rotation changes is a secret (src/domain/audit.ts AUDIT_SECRET_FIELD).
        await record({
          operation: 'webhook.endpoint-rotate',
          target: targetOf(after),
          tenantId: row.tenant_id,
          version,
        });
        return toDto(after, at);
      });
      return { endpoint, secret };
    },

    /**
     * Deletes the endpoint (soft: its deliveries' history stays readable) and cancels its deliveries still
     * waiting to be sent, in one transaction; one being sent is left to the worker to settle.
     */
    async remove(actor: Actor, id: number): Promise<void> {
      assertWebhookRole(actor);
      await audit.transaction(auditWho(actor), async (trx, record) => {
        const row = await lockVisible(trx, actor, id);
        const version = await repo.updateEndpoint(trx, row.id, { deleted_at: now() });
        await repo.cancelPendingDeliveries(trx, row.id);
        const after = await repo.endpointById(trx, row.id);
        await record({
          operation: 'webhook.endpoint-delete',
          target: targetOf(row),
          tenantId: row.tenant_id,
          changes: changesOf(row, after ?? null, ['deleted_at']),
          ...(version === undefined ? {} : { version }),
        });
      });
    },
  });
}

export type WebhookEndpointsService = ReturnType<typeof createWebhookEndpointsService>;
