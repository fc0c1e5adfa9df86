import { assertEvent, assign, emit, setup, type SnapshotFrom } from 'xstate';
import type { RestClient } from '../../api/rest-client';
import { actionError, type ActionError } from '../shared/request-error';
import { supportActors, type SupportUser } from './support-actors';
import { normaliseQuery, parseSupportQuery, serializeSupportQuery } from './support-query';

/** Keystrokes are searched after this pause (the tenants list waits as long: tenants-list.machine.ts). */
export const SUPPORT_SEARCH_DEBOUNCE_MS = 300;

export interface SupportSearchInput {
  rest: RestClient;
  /** The address's query string at start (`location.search`): a link or a reload searches it again. */
  search?: string;
  debounceMs?: number;
}

export interface SupportSearchContext {
  rest: RestClient;
  debounceMs: number;
  /** What the box holds. */
  text: string;
  /** The query searched (normalised), '' for none; the address holds it. */
  query: string;
  /** The last answer's people (kept while the next search runs, so the table does not flash). */
  results: SupportUser[];
  /** The query {@link results} answer. */
  resultsFor: string;
  error: ActionError | null;
}

export type SupportSearchEvent =
  { type: 'support.type'; text: string } | { type: 'support.location'; search: string } | { type: 'support.retry' };

/** `support.queryChanged`: the query string the view writes into the address (src/ui/hooks/use-address-sync.ts). */
export type SupportSearchEmitted = { type: 'support.queryChanged'; search: string };

/**
 * The desk's search (`GET /api/support/users`; docs/support-desk.md): matches as one types, after a
 * pause; a keystroke during a search stops it (the invoked actor is stopped, its request aborted), so
 * an older answer never replaces a newer one. The query lives in the address (`?q=`), both ways.
 *
 * States: `empty` (no query), `debouncing`, `searching` (tag `loading`), `ready`, `failed` (`error`).
 */
export const supportSearchMachine = setup({
  types: {
    input: {} as SupportSearchInput,
    context: {} as SupportSearchContext,
    events: {} as SupportSearchEvent,
    emitted: {} as SupportSearchEmitted,
  },
  actors: { searchPeople: supportActors.searchPeople },
  delays: { searchDebounce: ({ context }) => context.debounceMs },
  guards: {
    hasQuery: ({ context }) => context.query !== '',
    cleared: ({ context, event }) => {
      assertEvent(event, 'support.type');
      return normaliseQuery(event.text) === '' && context.query !== '';
    },
    textChanged: ({ context }) => normaliseQuery(context.text) !== context.query,
    locationChanged: ({ context, event }) => {
      assertEvent(event, 'support.location');
      return parseSupportQuery(event.search) !== context.query;
    },
    answered: ({ context }) => context.query !== '' && context.resultsFor === context.query && context.error === null,
  },
  actions: {
    type: assign(({ event }) => {
      assertEvent(event, 'support.type');
      return { text: event.text };
    }),
    commitText: assign(({ context }) => ({ query: normaliseQuery(context.text) })),
    followLocation: assign(({ event }) => {
      assertEvent(event, 'support.location');
      const query = parseSupportQuery(event.search);
      return { query, text: query };
    }),
    announceQuery: emit(({ context }) => ({
      type: 'support.queryChanged' as const,
      search: serializeSupportQuery(context.query),
    })),
    clearResults: assign({ results: [], resultsFor: '', error: null }),
    showResults: assign(({ context }, results: SupportUser[]) => ({ results, resultsFor: context.query, error: null })),
    searchFailed: assign((_, { error }: { error: unknown }) => ({
      error: actionError('support.errors.search', error),
    })),
  },
}).createMachine({
  id: 'supportSearch',
  context: ({ input }) => {
    const query = parseSupportQuery(input.search ?? '');
    return {
      rest: input.rest,
      debounceMs: input.debounceMs ?? SUPPORT_SEARCH_DEBOUNCE_MS,
      text: query,
      query,
      results: [],
      resultsFor: '',
      error: null,
    };
  },
  initial: 'start',
  on: {
    'support.type': [
      // An emptied box needs no pause: the empty state and the address follow at once.
      { guard: 'cleared', target: '.start', actions: ['type', 'commitText', 'announceQuery'] },
      // Each keystroke restarts the pause (and stops a search under way).
      { target: '.debouncing', actions: 'type' },
    ],
    'support.location': [
      {
        guard: 'locationChanged',
        target: '.start',
        actions: 'followLocation',
      },
    ],
  },
  states: {
    start: {
      always: [
        { guard: 'hasQuery', target: 'searching' },
        { target: 'empty', actions: 'clearResults' },
      ],
    },
    empty: {},
    debouncing: {
      tags: ['loading'],
      after: {
        searchDebounce: [
          { guard: 'textChanged', target: 'start', actions: ['commitText', 'announceQuery'] },
          // The same query again (a space typed and taken back): its answer stands, or the search it
          // interrupted runs again.
          { guard: 'answered', target: 'ready' },
          { target: 'start' },
        ],
      },
    },
    searching: {
      tags: ['loading'],
      invoke: {
        id: 'searchPeople',
        src: 'searchPeople',
        input: ({ context }) => ({ rest: context.rest, q: context.query }),
        onDone: { target: 'ready', actions: { type: 'showResults', params: ({ event }) => event.output } },
        onError: {
          target: 'failed',
          actions: { type: 'searchFailed', params: ({ event }) => ({ error: event.error }) },
        },
      },
    },
    ready: {},
    failed: {
      on: { 'support.retry': { target: 'searching' } },
    },
  },
});

export type SupportSearchSnapshot = SnapshotFrom<typeof supportSearchMachine>;

/** What the results area shows. */
export type SupportSearchStatus = 'empty' | 'loading' | 'error' | 'noMatch' | 'results';

export function selectSearchStatus(snapshot: SupportSearchSnapshot): SupportSearchStatus {
  if (snapshot.matches('failed')) return 'error';
  if (snapshot.matches('empty')) return 'empty';
  if (snapshot.hasTag('loading')) {
    // Blanks typed into an empty box: the pause ends in `empty`, nothing is loading for them.
    return normaliseQuery(snapshot.context.text) === '' && snapshot.context.query === '' ? 'empty' : 'loading';
  }
  return snapshot.context.results.length === 0 ? 'noMatch' : 'results';
}
