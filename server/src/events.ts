import { EventEmitter } from 'node:events';
import type { ServerEventData, ServerEventName } from '../../src/api/socket-events';

/**
 * The server's event bus (contracts/socket.md §5): handlers publish what changed, the socket plugin
 * pushes it to the tenant's sockets. With PostgreSQL the socket plugin also relays events through
 * LISTEN/NOTIFY so every process sees every event.
 */
export interface PanelEvent<E extends ServerEventName = ServerEventName> {
  event: E;
  data: ServerEventData[E];
  tenantName: string;
  sentAt: string;
}

export class EventBus {
  private readonly emitter = new EventEmitter();

  constructor() {
    this.emitter.setMaxListeners(0);
  }

  publish<E extends ServerEventName>(tenantName: string, event: E, data: ServerEventData[E]): void {
    const message: PanelEvent<E> = { event, data, tenantName, sentAt: new Date().toISOString() };
    this.emitter.emit('event', message);
  }

  subscribe(listener: (event: PanelEvent) => void): () => void {
    this.emitter.on('event', listener);
    return () => this.emitter.off('event', listener);
  }
}
