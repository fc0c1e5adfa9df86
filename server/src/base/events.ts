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
  tenantName: string;
  sentAt: string;
}

/**
 * The `tenantName` of an event for every tenant's connections (contracts/socket.md §5, "Every
 * tenant"): roles are shared by all tenants. No tenant name can be `*` (the tenants' CHECK, migration
 * 0001); each connection receives the envelope with its own tenant's name.
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

  /** An event produced in this process: relayed to other processes, and delivered locally. */
  publish<E extends ServerEventName>(tenantName: string, event: E, data: ServerEventData[E]): void {
    const message: PanelEvent<E> = { event, data, tenantName, sentAt: new Date().toISOString() };
    this.relay?.send(message as PanelEvent);
    this.deliver(message as PanelEvent);
  }

  /** An event about data every tenant shares (roles): delivered to every connection, whatever its tenant. */
  publishToEveryTenant<E extends ServerEventName>(event: E, data: ServerEventData[E]): void {
    this.publish(EVERY_TENANT, event, data);
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
