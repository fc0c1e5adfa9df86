import type { FetchLike } from './auth-middleware';

/** How long a prefetched answer waits for the request it was made for. */
export const PREFETCH_MAX_AGE_MS = 10_000;

interface Entry {
  key: string;
  body: Promise<string>;
  at: number;
  response: Promise<Response>;
}

export interface PrefetchingFetch {
  /** The fetch the clients use: a request equal to a waiting prefetch (method, URL, body) takes its answer, once. */
  fetch: FetchLike;
  /**
   * Sends `request` now and keeps a copy of its answer for the first equal request within
   * {@link PREFETCH_MAX_AGE_MS}; answers the request too (its body may be read: the copy is separate).
   */
  prefetch: FetchLike;
  /** Drops every answer still waiting (they were asked for a sign-in that has ended). */
  clear(): void;
}

const keyOf = (request: Request) => `${request.method} ${request.url}`;

/**
 * Lets a request leave before the code that needs its answer has rendered: after a sign-in, the
 * first screen's list query goes out with the sign-in answer instead of after the main layout's
 * first render (src/machines/navigation/route-prefetch.ts says which). Requests are matched by method, URL
 * and body text, each prefetched answer serves one request, and an answer nobody asked for within
 * the window is dropped; anything else passes through to `inner` untouched.
 */
export function createPrefetchingFetch(inner: FetchLike, now: () => number = Date.now): PrefetchingFetch {
  let entries: Entry[] = [];
  const fresh = () => {
    const limit = now() - PREFETCH_MAX_AGE_MS;
    entries = entries.filter((entry) => entry.at >= limit);
  };
  return {
    async fetch(request) {
      fresh();
      if (entries.length === 0) return inner(request);
      const key = keyOf(request);
      const candidates = entries.filter((entry) => entry.key === key);
      if (candidates.length === 0) return inner(request);
      const body = await request.clone().text();
      const bodies = await Promise.all(candidates.map((entry) => entry.body));
      // Still waiting (an equal request may have taken it meanwhile) and the same body.
      const match = candidates.find((entry, i) => bodies[i] === body && entries.includes(entry));
      if (!match) return inner(request);
      entries = entries.filter((entry) => entry !== match);
      return match.response;
    },
    clear() {
      entries = [];
    },
    prefetch(request) {
      fresh();
      // Read before `inner` consumes the body; sent at once, in the caller's task.
      const body = request.clone().text();
      const answer = inner(request);
      // A failed prefetch is not kept: the screen's own request then goes to the network.
      const copy = answer.then((response) => response.clone());
      const entry: Entry = { key: keyOf(request), body, at: now(), response: copy };
      entries.push(entry);
      copy.catch(() => {
        entries = entries.filter((e) => e !== entry);
      });
      return answer;
    },
  };
}
