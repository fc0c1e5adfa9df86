import type { Insertable, Kysely } from 'kysely';
import type { CampaignMessageStatusesTable, CampaignStatusType, Database } from '../db/schema';
import { chunks, Rng } from '../db/seed-random';
import type { SeededTenant } from './seed-org';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

/** The demo's campaigns (pharmacies' usual ones). */
const CAMPAIGNS = [
  'Black Friday',
  'Campanha de vacinação da gripe',
  'Aniversário do cliente',
  'Reposição de uso contínuo',
  'Semana da beleza',
  'Programa de fidelidade',
] as const;
const AREA_CODES = ['11', '21', '31', '41', '48', '51', '61', '71', '81', '85'] as const;

/** At most this many campaign messages per tenant: the seed's time matters (docs/performance.md). */
export const MAX_CAMPAIGN_MESSAGES = 300;

/**
 * Campaign messages of every customer tenant over the seed's window (docs/webhooks.md, Runs): each one
 * `sent`, then mostly `delivered` (some `failed` instead), many of those `read`, a few `replied`, each
 * status later than the one before and none after `now`. Deterministic: a random stream of its own, so the
 * rest of the seed is the same with or without it.
 */
export async function seedCampaignMessages(
  trx: Kysely<Database>,
  tenants: readonly SeededTenant[],
  options: { now: Date; days: number; seed: number; backofficeTenant: string },
): Promise<number> {
  const rng = new Rng(options.seed ^ 0x5eed_ca3b);
  const end = options.now.getTime();
  let total = 0;
  for (const tenant of tenants) {
    if (tenant.name === options.backofficeTenant) continue;
    const start = Math.max(end - options.days * DAY, tenant.createdAt.getTime());
    if (start >= end) continue;
    const count = Math.min(MAX_CAMPAIGN_MESSAGES, Math.round(Math.max(6, options.days * 2.2) * tenant.scale));
    const campaigns = rng.subset(CAMPAIGNS, 2);
    const messages = Array.from({ length: count }, () => {
      const sentAt = start + Math.floor(rng.float() * (end - start));
      return {
        row: {
          tenant_id: tenant.id,
          campaign: rng.pick(campaigns),
          recipient: `+55${rng.pick(AREA_CODES)}9${String(rng.int(0, 99_999_999)).padStart(8, '0')}`,
          created_at: new Date(sentAt - rng.int(1, 30) * 1000),
        },
        statuses: progression(rng, sentAt, end),
      };
    });
    messages.sort((a, b) => a.row.created_at.getTime() - b.row.created_at.getTime());
    for (const batch of chunks(messages, 500)) {
      const ids = await trx
        .insertInto('campaign_messages')
        .values(batch.map((m) => m.row))
        .returning('id')
        .execute();
      const statuses: Insertable<CampaignMessageStatusesTable>[] = batch.flatMap((m, i) =>
        m.statuses.map(([status, at]) => ({ message_id: ids[i]!.id, tenant_id: tenant.id, status, at: new Date(at) })),
      );
      for (const part of chunks(statuses, 1000))
        await trx.insertInto('campaign_message_statuses').values(part).execute();
    }
    total += count;
  }
  return total;
}

/** One message's statuses from `sentAt`, each later than the last, none after `end`. */
function progression(rng: Rng, sentAt: number, end: number): [CampaignStatusType, number][] {
  const statuses: [CampaignStatusType, number][] = [['sent', sentAt]];
  let at = sentAt;
  const next = (status: CampaignStatusType, delayMs: number) => {
    if (at + delayMs > end) return false;
    at += delayMs;
    statuses.push([status, at]);
    return true;
  };
  if (rng.chance(0.07)) {
    next('failed', rng.int(5, 90) * 1000);
    return statuses;
  }
  if (!next('delivered', rng.int(2, 120) * 1000)) return statuses;
  if (!rng.chance(0.62) || !next('read', rng.skewed(25, 1, 2 * 24 * 60) * MINUTE)) return statuses;
  if (rng.chance(0.18)) next('replied', rng.skewed(6, 1, 12 * 60) * MINUTE);
  return statuses;
}
