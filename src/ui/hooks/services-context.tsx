import { useSelector } from '@xstate/react';
import { createContext, use, useContext, useSyncExternalStore, type ReactNode } from 'react';
import type { AppServices, RealtimeServices } from '../../app/app-services';
import type { PreferencesSnapshot } from '../../machines/preferences/preferences.machine';
import type { SessionSnapshot } from '../../machines/session/session.machine';
import type { SocketSnapshot } from '../../machines/realtime/socket.machine';

/**
 * How views reach the app-wide actors and the clients (docs/architecture.md, Layers: views read actors with
 * `useSelector` and `send` events; they never import src/api). Screens start their own machines with
 * `useActorRef(machine, { input: { ...useServices().clients, … } })`.
 */
const ServicesContext = createContext<AppServices | null>(null);

export function ServicesProvider({ services, children }: { services: AppServices; children: ReactNode }) {
  return <ServicesContext.Provider value={services}>{children}</ServicesContext.Provider>;
}

/** The app services, or null outside a {@link ServicesProvider} (a view rendered alone in a test). */
export function useServicesIfProvided(): AppServices | null {
  return useContext(ServicesContext);
}

/** The app services; throws outside a {@link ServicesProvider} (a wiring bug, not a state). */
export function useServices(): AppServices {
  const services = useContext(ServicesContext);
  if (!services) throw new Error('useServices() outside <ServicesProvider>');
  return services;
}

/** Selects from the session (compare with `Object.is` unless a compare function is given). */
export function useSession<T>(selector: (snapshot: SessionSnapshot) => T, compare?: (a: T, b: T) => boolean): T {
  return useSelector(useServices().session, selector, compare);
}

/** Selects from the preferences (theme, layout, locale, starred pages, overlay…). */
export function usePreferences<T>(
  selector: (snapshot: PreferencesSnapshot) => T,
  compare?: (a: T, b: T) => boolean,
): T {
  return useSelector(useServices().preferences, selector, compare);
}

/**
 * The socket and the activity feed. They load at sign-in (app-services.ts); a view that asks before
 * they are in suspends until they are (the main layout asks first, under its page fallback).
 */
export function useRealtime(): RealtimeServices {
  const { realtime } = useServices();
  // Asked first: without the chunk (tests) it starts synchronously and `current()` has it.
  const ready = realtime.ready();
  return realtime.current() ?? use(ready);
}

/** Selects from the socket (tags `open`, `connecting`, `reconnecting`). */
export function useSocket<T>(selector: (snapshot: SocketSnapshot) => T, compare?: (a: T, b: T) => boolean): T {
  return useSelector(useRealtime().socket, selector, compare);
}

/** Whether requests are in flight through the typed clients (drives the global loading indicator). */
export function useRequestsPending(): boolean {
  const { activity } = useServices();
  // A boolean, not the count: the request bar renders when requests start or all end, not on each one.
  const anyPending = () => activity.pending() > 0;
  return useSyncExternalStore(activity.subscribe, anyPending, anyPending);
}
