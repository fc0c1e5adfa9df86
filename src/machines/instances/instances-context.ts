import type { SocketActor } from '../realtime/socket.machine';
import type { PreferencesActor } from '../preferences/preferences.machine';
import type { RestClient } from '../../api/rest-client';
import type { AppBus } from '../shared/app-bus';
import type { I18nKey } from '../../domain/i18n-key';
import type { Connection, Instance, InstanceChanges, InstanceDraft, LiveEvent, SyncRequest } from './instances-actors';
import type { InstanceFields, SyncAnnouncement } from './instances-rows';
import type { Outcome } from '../shared/outcome';
import type { ActionError } from '../shared/request-error';

/** Types of the instances machine (instances.machine.ts), apart so the machine file stays readable. */

/** Without socket events for this page, a running sync is re-read this often. */
export const POLL_INTERVAL_MS = 1500;

export interface InstancesInput {
  rest: RestClient;
  /** The app bus, where the socket forwards `instanceUpdated`. */
  bus: AppBus;
  /** The tenant whose instances and connections are shown. */
  tenantName: string;
  /** Poll period while a sync runs and no socket event arrives (default {@link POLL_INTERVAL_MS}; must be > 0). */
  pollMs?: number;
  /**
   * Back-office staff: only they make an instance official or unlimited (instances-rows.ts
   * `billingProblem`); anyone else creates with both off and keeps them. Default false.
   */
  staff?: boolean;
  /** The app's preferences: the active instance's name follows a rename seen here. Default: none. */
  preferences?: PreferencesActor;
  /** The app's socket: the list reloads each time it opens again. Default: none. */
  socket?: SocketActor;
}

export interface InstancesContext {
  rest: RestClient;
  bus: AppBus;
  tenantName: string;
  pollMs: number;
  staff: boolean;
  preferences: PreferencesActor | null;
  socket: SocketActor | null;
  instances: Instance[];
  connections: Connection[];
  /** Rows changed since the list request in flight started; they win over its (older) answer. */
  recent: Record<number, Instance>;
  /** A socket event for this tenant arrived since the last poll tick (then no poll is needed). */
  heardLive: boolean;
  listError: ActionError | null;
  /** The list answered at least once (a reload keeps showing the rows it has). */
  loaded: boolean;
  /** The instance the update or sync dialog is about, as it was when the dialog opened. */
  target: Instance | null;
  pending: { create: InstanceDraft } | { changes: InstanceChanges } | { sync: SyncRequest } | null;
  actionError: ActionError | null;
  fieldErrors: Record<string, I18nKey>;
  /** The latest sync milestone for a polite live region; `seq` grows with each one. */
  announcement: (SyncAnnouncement & { seq: number }) | null;
}

export type InstancesEvent =
  | { type: 'instances.reload' }
  /** The socket opened again: events missed meanwhile are lost (socket.md §2.2), so refetch. */
  | { type: 'instances.reconnected' }
  | { type: 'instances.createOpen' }
  | { type: 'instances.create'; draft: InstanceDraft }
  | { type: 'instances.updateOpen'; id: number }
  | { type: 'instances.update'; fields: InstanceFields }
  | { type: 'instances.syncOpen'; id: number }
  | { type: 'instances.sync'; daysAgo: number | null; unlimited: boolean }
  | { type: 'instances.close' }
  | LiveEvent;

/** The calls that end in an emitted `outcome` (src/machines/shared/outcome.ts). */
export type InstanceAction = 'create' | 'update' | 'sync';

/** A call succeeded: its notice (with the instance's `name`) as a toast. */
export type InstancesEmitted = Outcome<InstanceAction>;
