import type { AppEvent, UnknownAppEvent } from '../../domain/socket-codec';
import type { AppEventName } from '../../domain/socket-events';

/**
 * The in-app event bus (docs/product.md, Real-time socket: socket events are forwarded inside the app). The socket machine
 * publishes every decoded server event under its lowercased name (`instanceUpdated`,
 * `chatTicketClosed`, …); machines and views subscribe by name with typed payloads.
 */

/** One message on the bus: a known event (typed by name) or one this client does not know yet. */
export type BusMessage = AppEvent | UnknownAppEvent;

/** The known message with this name. */
export type BusMessageOf<N extends AppEventName> = Extract<AppEvent, { name: N }>;

export interface AppBus {
  publish(message: BusMessage): void;
  /** Subscribes to one known event; returns the unsubscribe function. */
  on<N extends AppEventName>(name: N, handler: (message: BusMessageOf<N>) => void): () => void;
  /** Subscribes to every message, unknown names included. */
  onAny(handler: (message: BusMessage) => void): () => void;
}

export interface AppBusOptions {
  /** Where a throwing handler is reported; the other handlers still run. Default: console.error. */
  onHandlerError?: (error: unknown, message: BusMessage) => void;
}

/** Creates a bus. Handlers run synchronously, in subscription order. */
export function createAppBus(options: AppBusOptions = {}): AppBus {
  const report =
    options.onHandlerError ?? ((error, message) => console.error(`app bus: handler for ${message.name} failed`, error));
  const byName = new Map<string, Set<(message: BusMessage) => void>>();
  const any = new Set<(message: BusMessage) => void>();

  const run = (handler: (message: BusMessage) => void, message: BusMessage) => {
    try {
      handler(message);
    } catch (error) {
      report(error, message);
    }
  };

  return {
    publish(message) {
      // Copies: a handler may unsubscribe (itself or others) while the message is delivered.
      for (const handler of [...(byName.get(message.name) ?? [])]) run(handler, message);
      for (const handler of [...any]) run(handler, message);
    },
    on(name, handler) {
      const wrapped = handler as (message: BusMessage) => void;
      const set = byName.get(name) ?? new Set();
      set.add(wrapped);
      byName.set(name, set);
      return () => void set.delete(wrapped);
    },
    onAny(handler) {
      any.add(handler);
      return () => void any.delete(handler);
    },
  };
}
