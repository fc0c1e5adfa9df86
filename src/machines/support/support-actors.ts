import { fromPromise } from 'xstate';
import { unwrap, type RestClient } from '../../api/rest-client';
import type { components } from '../../generated/openapi';

/** A person as the desk lists them (contracts/openapi.yaml `SupportUser`; docs/support-desk.md). */
export type SupportUser = components['schemas']['SupportUser'];
/** Everything the person page shows (contracts/openapi.yaml `SupportPerson`). */
export type SupportPerson = components['schemas']['SupportPerson'];
export type SupportAttempt = SupportPerson['attempts'][number];
export type SupportSession = SupportPerson['sessions'][number];
/** `supportResetLink`'s answer: the link went out and stops working at `expires_at`. */
export type ResetLinkSent = components['schemas']['SupportResetLinkSent'];

/** The most people one search answers (`supportSearch` allows 1–50). */
export const SEARCH_LIMIT = 20;

/** The I/O of the desk: every call goes through the typed REST client in `input`; `signal` aborts a stale search. */
export const supportActors = {
  searchPeople: fromPromise<SupportUser[], { rest: RestClient; q: string }>(async ({ input, signal }) => {
    const answer = unwrap(
      await input.rest.GET('/api/support/users', { params: { query: { q: input.q, limit: SEARCH_LIMIT } }, signal }),
    );
    return answer.data;
  }),
  loadPerson: fromPromise<SupportPerson, { rest: RestClient; id: number }>(async ({ input, signal }) =>
    unwrap(await input.rest.GET('/api/support/users/{id}', { params: { path: { id: input.id } }, signal })),
  ),
};
