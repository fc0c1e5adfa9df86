import type { AnyActorRef } from 'xstate';
import type { RouteGuardActor } from '../navigation/route-guard.machine';
import type { PreferencesActor } from '../preferences/preferences.machine';
import type { ActivityFeedActor } from '../realtime/activity-feed.machine';
import type { SocketActor } from '../realtime/socket.machine';
import type { SessionActor } from '../session/session.machine';

/**
 * The app's actor system (app.machine.ts): the long-lived actors by the `systemId` they are
 * registered under, so any actor of the system (and the composition root) reaches another with
 * `system.get(id)` instead of holding a reference handed over by hand. Types only: naming the
 * socket here pulls none of its code into the login page.
 */
export interface AppSystemActors {
  session: SessionActor;
  preferences: PreferencesActor;
  routeGuard: RouteGuardActor;
  /** Started with the realtime side (src/machines/realtime/realtime.ts), once signed in. */
  socket: SocketActor;
  activityFeed: ActivityFeedActor;
}

export type AppSystemId = keyof AppSystemActors;

/** An actor system, as every actor of it sees it (`self.system`, `{ system }` in actions). */
export type AppSystem = AnyActorRef['system'];

/** The actor registered as `id`, or undefined when it is not running (the socket before sign-in). */
export function findSystemActor<K extends AppSystemId>(system: AppSystem, id: K): AppSystemActors[K] | undefined {
  return system.get(id) as AppSystemActors[K] | undefined;
}

/** The actor registered as `id`; throws when it is not running (a wiring bug, not a state). */
export function systemActor<K extends AppSystemId>(system: AppSystem, id: K): AppSystemActors[K] {
  const actor = findSystemActor(system, id);
  if (!actor) throw new Error(`no actor "${id}" in the app system`);
  return actor;
}
