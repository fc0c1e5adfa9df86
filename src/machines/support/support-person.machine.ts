import { assertEvent, assign, setup, type SnapshotFrom } from 'xstate';
import type { RestClient } from '../../api/rest-client';
import type { ActionError } from '../shared/request-error';
import { supportActors, type SupportPerson } from './support-actors';
import { supportRefusalKey } from './support-refusal';

export interface SupportPersonInput {
  rest: RestClient;
  /** The person's user id, from the address (`/support/users/:id`); 0 when the address holds none. */
  id: number;
}

export interface SupportPersonContext {
  rest: RestClient;
  id: number;
  /** The last answer; kept while a reload runs and when it fails. */
  person: SupportPerson | null;
  error: ActionError | null;
}

export type SupportPersonEvent =
  /** An action answered with the person as they now are (docs/support-desk.md: every action but the reset link). */
  { type: 'support.person.answered'; person: SupportPerson } | { type: 'support.person.reload' };

/**
 * The person page's data (`GET /api/support/users/{id}`): loads once, reloads on demand (and after an
 * action that answers nothing about the person, the reset link), and takes every action's
 * `SupportPerson` answer as the page's new state without asking again.
 *
 * States: `start` (an address id that is no user's id fails at once, as not found), `loading` (first load, tag `loading`), `ready`, `reloading` (tag `busy`, the page stays),
 * `failed` (`error`; with `person` null the page has nothing to show, else it keeps the last answer).
 */
export const supportPersonMachine = setup({
  types: {
    input: {} as SupportPersonInput,
    context: {} as SupportPersonContext,
    events: {} as SupportPersonEvent,
  },
  actors: { loadPerson: supportActors.loadPerson },
  guards: {
    samePerson: ({ context, event }) => {
      assertEvent(event, 'support.person.answered');
      return event.person.user.id === context.id;
    },
    neverLoaded: ({ context }) => context.person === null,
    // No user has a non-positive id: the address was mistyped, and no request is sent for it.
    validId: ({ context }) => Number.isSafeInteger(context.id) && context.id > 0,
  },
  actions: {
    answered: assign(({ event }) => {
      assertEvent(event, 'support.person.answered');
      return { person: event.person, error: null };
    }),
    loaded: assign((_, person: SupportPerson) => ({ person, error: null })),
    noSuchPerson: assign({ error: { key: 'support.errors.person', reason: 'apiErrors.notFound' } }),
    // The desk's own refusals read as such: the caller's own account (409 `own_account`), a person
    // the caller may not act on (403 with the reason).
    loadFailed: assign((_, { error }: { error: unknown }) => ({
      error: { key: 'support.errors.person' as const, reason: supportRefusalKey(error) },
    })),
  },
}).createMachine({
  id: 'supportPerson',
  context: ({ input }) => ({ rest: input.rest, id: input.id, person: null, error: null }),
  initial: 'start',
  on: {
    // An answer about another person (a page left while an action ran) changes nothing here.
    'support.person.answered': { guard: 'samePerson', target: '.ready', actions: 'answered' },
  },
  states: {
    start: {
      always: [
        { guard: 'validId', target: 'loading' },
        { target: 'failed', actions: 'noSuchPerson' },
      ],
    },
    loading: {
      tags: ['loading'],
      invoke: {
        id: 'loadPerson',
        src: 'loadPerson',
        input: ({ context }) => ({ rest: context.rest, id: context.id }),
        onDone: { target: 'ready', actions: { type: 'loaded', params: ({ event }) => event.output } },
        onError: { target: 'failed', actions: { type: 'loadFailed', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    ready: {
      on: { 'support.person.reload': 'reloading' },
    },
    reloading: {
      tags: ['busy'],
      invoke: {
        id: 'reloadPerson',
        src: 'loadPerson',
        input: ({ context }) => ({ rest: context.rest, id: context.id }),
        onDone: { target: 'ready', actions: { type: 'loaded', params: ({ event }) => event.output } },
        onError: { target: 'failed', actions: { type: 'loadFailed', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    failed: {
      on: { 'support.person.reload': [{ guard: 'neverLoaded', target: 'loading' }, { target: 'reloading' }] },
    },
  },
});

export type SupportPersonSnapshot = SnapshotFrom<typeof supportPersonMachine>;
