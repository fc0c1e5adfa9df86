import type { I18nKey } from '../../domain/i18n-key';
import type { Connection, Instance, InstanceChanges } from './instances-actors';

/** Sync progress is announced each time it crosses a multiple of this (25 %, 50 %, 75 %), never per event. */
export const MILESTONE_STEP = 25;

/** The longest instance name the contract accepts (after trimming). */
export const NAME_MAX = 80;
/** The furthest back a sync may reach, in days (contract `InstanceSync.daysAgo`). */
export const DAYS_AGO_MAX = 3650;

/** What a polite live region says about a sync (an i18n key and its values). */
export interface SyncAnnouncement {
  key: I18nKey;
  params: { name: string; progress: number; messages: number };
}

/** The rows with `instance` in place of the row with its id, or added, ordered by id as the server lists them. */
export function upsertInstance(rows: readonly Instance[], instance: Instance): Instance[] {
  const others = rows.filter((row) => row.id !== instance.id);
  return [...others, instance].sort((a, b) => a.id - b.id);
}

/**
 * A fetched list, except that rows which changed while the request was in flight (socket events,
 * answers to the panel's own calls) keep their newer version: a list read before a sync's final
 * event must not bring the sync back to "syncing" when no further event will come.
 */
export function mergeFetched(fetched: readonly Instance[], recent: Readonly<Record<number, Instance>>): Instance[] {
  let rows = [...fetched];
  for (const instance of Object.values(recent)) rows = upsertInstance(rows, instance);
  return rows.sort((a, b) => a.id - b.id);
}

/** Connections show their instance's name: keep it in step with a renamed instance. */
export function renameConnections(connections: readonly Connection[], instance: Instance): Connection[] {
  if (!connections.some((c) => c.instance_id === instance.id && c.instance_name !== instance.name))
    return connections as Connection[];
  return connections.map((c) => (c.instance_id === instance.id ? { ...c, instance_name: instance.name } : c));
}

export const isSyncing = (instance: Instance) => instance.status === 'syncing';

/** Whether any row shows a sync in progress (the panel then follows it, by events or by polling). */
export const anySyncing = (rows: readonly Instance[]) => rows.some(isSyncing);

/**
 * What changed for a listener between two versions of a row: a sync started, crossed a milestone,
 * finished or failed. `null` for a row seen for the first time and for changes not worth a word.
 */
export function announcementFor(previous: Instance | undefined, next: Instance): SyncAnnouncement | null {
  if (!previous) return null;
  const params = { name: next.name, progress: next.syncProgress, messages: next.syncedMessages };
  if (next.status === 'syncing' && previous.status !== 'syncing') return { key: 'instances.live.started', params };
  if (previous.status === 'syncing' && next.status === 'done') return { key: 'instances.live.done', params };
  if (previous.status === 'syncing' && next.status === 'failed') return { key: 'instances.live.failed', params };
  if (next.status !== 'syncing') return null;
  const milestone = (p: number) => Math.floor(p / MILESTONE_STEP);
  if (next.syncProgress < 100 && milestone(next.syncProgress) > milestone(previous.syncProgress)) {
    return {
      key: 'instances.live.progress',
      params: { ...params, progress: milestone(next.syncProgress) * MILESTONE_STEP },
    };
  }
  return null;
}

/** The announcement of the most recent change among `next` rows compared with `previous` rows, if any. */
export function announcementAcross(previous: readonly Instance[], next: readonly Instance[]): SyncAnnouncement | null {
  let found: SyncAnnouncement | null = null;
  for (const row of next)
    found =
      announcementFor(
        previous.find((p) => p.id === row.id),
        row,
      ) ?? found;
  return found;
}

/** Field problems of a create or rename, before any call (the server says the same with a 400). */
export function nameProblems(name: string | undefined): Record<string, I18nKey> {
  if (name === undefined) return {};
  const trimmed = name.trim();
  return trimmed.length === 0 || trimmed.length > NAME_MAX ? { name: 'instances.errors.name' } : {};
}

/**
 * Why a customer may not send these billing flags (official, unlimited: what the provider bills for,
 * server/src/instances/service.ts): it creates instances with both off and never changes them; only
 * back-office staff do. `stored` is the instance as it is when editing, null when creating.
 */
export function billingProblem(
  staff: boolean,
  flags: { isOfficial: boolean; isUnlimited: boolean },
  stored: Pick<Instance, 'isOfficial' | 'isUnlimited'> | null,
): I18nKey | null {
  if (staff) return null;
  const expected = stored ?? { isOfficial: false, isUnlimited: false };
  const changes = flags.isOfficial !== expected.isOfficial || flags.isUnlimited !== expected.isUnlimited;
  return changes ? 'access.staffBillingFlags' : null;
}

/** Field problems of a sync request: a whole number of days in range, unless unlimited. */
export function syncProblems(daysAgo: number | null, unlimited: boolean): Record<string, I18nKey> {
  if (unlimited) return {};
  const ok = daysAgo !== null && Number.isInteger(daysAgo) && daysAgo >= 1 && daysAgo <= DAYS_AGO_MAX;
  return ok ? {} : { daysAgo: 'instances.errors.daysAgo' };
}

/** The fields of the edit dialog as the user left them; the machine sends only what changed. */
export interface InstanceFields {
  name: string;
  activated: boolean;
  isOfficial: boolean;
  isUnlimited: boolean;
}

/** What the edit dialog changed, compared with the instance as it was when it opened. */
export function changesOf(target: Instance, fields: InstanceFields): InstanceChanges {
  const changes: InstanceChanges = {};
  if (fields.name.trim() !== target.name) changes.name = fields.name.trim();
  if (fields.activated !== target.activated) changes.activated = fields.activated;
  if (fields.isOfficial !== target.isOfficial) changes.isOfficial = fields.isOfficial;
  if (fields.isUnlimited !== target.isUnlimited) changes.isUnlimited = fields.isUnlimited;
  return changes;
}
