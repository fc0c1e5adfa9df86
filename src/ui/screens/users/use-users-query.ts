import { useEffect, useState } from 'react';
import { useLocation, useSearch } from 'wouter';
import { parseUsersQuery, serializeUsersQuery, type UsersQuery } from './users-query';

/** How long typing pauses before the address is updated (browsers throttle history writes). */
const URL_DELAY_MS = 300;

/**
 * The search and sort of the users table. State lives here (the table answers every keystroke);
 * the address follows it after a pause, with `replace` so typing does not fill the back button.
 * The query is read from the address once, when the screen opens.
 */
export function useUsersQuery(): [UsersQuery, (next: Partial<UsersQuery>) => void] {
  const search = useSearch();
  const [location, navigate] = useLocation();
  const [query, setQuery] = useState(() => parseUsersQuery(search));
  const serialized = serializeUsersQuery(query);

  useEffect(() => {
    if (serialized === serializeUsersQuery(parseUsersQuery(search))) return undefined;
    const timer = setTimeout(
      () => navigate(serialized ? `${location}?${serialized}` : location, { replace: true }),
      URL_DELAY_MS,
    );
    return () => clearTimeout(timer);
  }, [serialized, search, location, navigate]);

  return [query, (next) => setQuery((current) => ({ ...current, ...next }))];
}
