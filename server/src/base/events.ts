import { EventEmitter } from 'node:events';
import type { ServerEventData, ServerEventName } from '../../../src/domain/socket-events';

/**
 * The server's event bus (contracts/socket.md §5): handlers publish what changed, the socket plugin
 * pushes it to the tenant's sockets.
 *
 * Two paths, kept apart:
 * - `publish` (producers in this process): hands the event to the relay, if any, then delivers it
 *   locally;
 * - `deliver` (the relay, for events produced by OTHER processes): local delivery only.
 *
 * With PostgreSQL the relay is LISTEN/NOTIFY on `panel_events` (plugins/event-relay.ts); with PGlite
 * there is a single process and no relay.
 */
export interface PanelEvent<E extends ServerEventName = ServerEventName> {
  event: E;
  data: ServerEventData[E];
  /**
   * The tenant whose sockets get it, by id: a socket belongs to a tenant id, so a rename never sends
   * one tenant's events to another's sockets. Null: every tenant ({@link EVERY_TENANT}).
   */
  tenantId: number | null;
  /** The tenant's name when the event was produced: the frame's `tenantName` (contracts/socket.md §2.2). */
  tenantName: string;
  sentAt: string;
}

/** A tenant as an event names it: its id (who gets the event) and its name (what the frame says). */
export interface EventTenant {
  id: number;
  name: string;
}

/**
 * The `tenantName` of an event for every tenant's connections (contracts/socket.md §5, "Every
 * tenant"): roles are shared by all tenants. Its `tenantId` is null. No tenant name can be `*` (the
 * tenants' CHECK, migration 0001); each connection receives the envelope with its own tenant's name.
 */
export const EVERY_TENANT = '*';

/** Carries events produced in this process to the other processes on the same database. */
export interface EventRelay {
  send(event: PanelEvent): void;
}

export class EventBus {
  private readonly emitter = new EventEmitter();
  private relay: EventRelay | undefined;

  constructor() {
    this.emitter.setMaxListeners(0);
  }

  /** Installs (or with `undefined` removes) the cross-process relay. */
  setRelay(relay: EventRelay | undefined): void {
    this.relay = relay;
  }

  /** An event of one tenant produced in this process: relayed to other processes, and delivered locally. */
  publish<E extends ServerEventName>(tenant: EventTenant, event: E, data: ServerEventData[E]): void {
    this.send({ event, data, tenantId: tenant.id, tenantName: tenant.name, sentAt: new Date().toISOString() });
  }

  /** An event about data every tenant shares (roles): delivered to every connection, whatever its tenant. */
  publishToEveryTenant<E extends ServerEventName>(event: E, data: ServerEventData[E]): void {
    this.send({ event, data, tenantId: null, tenantName: EVERY_TENANT, sentAt: new Date().toISOString() });
  }

  private send<E extends ServerEventName>(message: PanelEvent<E>): void {
    this.relay?.send(message as PanelEvent);
    this.deliver(message as PanelEvent);
  }

  /** Local delivery only (an event that came from another process through the relay). */
  deliver(message: PanelEvent): void {
    this.emitter.emit('event', message);
  }

  subscribe(listener: (event: PanelEvent) => void): () => void {
    this.emitter.on('event', listener);
    return () => this.emitter.off('event', listener);
  }
}
