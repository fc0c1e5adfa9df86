import { assertEvent, assign, emit, setup } from 'xstate';
import { parseUsersQuery, sameUsersQuery, serializeUsersQuery, type UsersQuery } from './users-query';

/** How long typing pauses before the address is updated (browsers throttle history writes). */
export const ADDRESS_DELAY_MS = 300;

export interface UsersQueryInput {
  /** The address's query string when the screen opens. */
  search: string;
  addressDelayMs?: number;
}

export interface UsersQueryContext {
  query: UsersQuery;
  addressDelayMs: number;
}

export type UsersQueryEvent =
  { type: 'usersQuery.change'; change: Partial<UsersQuery> } | { type: 'usersQuery.location'; search: string };

export type UsersQueryEmitted = { type: 'usersQuery.changed'; search: string };

/**
 * The users table's search, filters, sort and page (users-query.ts). The query changes at once on each
 * `usersQuery.change` (a change other than the page goes back to page 1; the list machine decides when
 * to ask the server, users.machine.ts); after a pause without changes it is
 * emitted as `usersQuery.changed` for the address. An address changed from outside
 * (`usersQuery.location`: a link, back/forward, a starred page) replaces the query when it differs,
 * and drops a pending write; the machine's own write coming back changes nothing.
 * States: `idle`, `writing` (a change waits for the pause).
 */
export const usersQueryMachine = setup({
  types: {
    input: {} as UsersQueryInput,
    context: {} as UsersQueryContext,
    events: {} as UsersQueryEvent,
    emitted: {} as UsersQueryEmitted,
  },
  delays: { addressDelay: ({ context }) => context.addressDelayMs },
  guards: {
    addressDiffers: ({ context, event }) => {
      assertEvent(event, 'usersQuery.location');
      return !sameUsersQuery(parseUsersQuery(event.search), context.query);
    },
  },
  actions: {
    // A new search, filter or sort is another list: it starts at its first page.
    change: assign(({ context, event }) => {
      assertEvent(event, 'usersQuery.change');
      const page = event.change.page ?? (Object.keys(event.change).length > 0 ? 1 : context.query.page);
      return { query: { ...context.query, ...event.change, page } };
    }),
    follow: assign(({ event }) => {
      assertEvent(event, 'usersQuery.location');
      return { query: parseUsersQuery(event.search) };
    }),
    announce: emit(({ context }) => ({
      type: 'usersQuery.changed' as const,
      search: serializeUsersQuery(context.query),
    })),
  },
}).createMachine({
  id: 'usersQuery',
  context: ({ input }) => ({
    query: parseUsersQuery(input.search),
    addressDelayMs: input.addressDelayMs ?? ADDRESS_DELAY_MS,
  }),
  initial: 'idle',
  on: {
    // Each change restarts the pause.
    'usersQuery.change': { target: '.writing', reenter: true, actions: 'change' },
    'usersQuery.location': { guard: 'addressDiffers', target: '.idle', actions: 'follow' },
  },
  states: {
    idle: {},
    writing: {
      after: { addressDelay: { target: 'idle', actions: 'announce' } },
    },
  },
});

/** The query the table shows. */
export const selectUsersQuery = (snapshot: { context: UsersQueryContext }) => snapshot.context.query;
