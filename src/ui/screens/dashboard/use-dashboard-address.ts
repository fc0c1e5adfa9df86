import { useEffect } from 'react';
import { useLocation, useSearch } from 'wouter';
import type { DashboardActor } from '../../../machines/dashboard/dashboard.machine';

/**
 * Keeps the filters and the address in step: a filter the user changed replaces the query string
 * (`replace`, so typing a date does not fill the back button), and an address changed from
 * elsewhere (a link, a starred page) is sent to the machine, which reloads only if it differs.
 */
export function useDashboardAddress(actor: DashboardActor): void {
  const search = useSearch();
  const [location, navigate] = useLocation();

  useEffect(() => {
    const subscription = actor.on('dashboard.queryChanged', (event) =>
      navigate(event.search ? `${location}?${event.search}` : location, { replace: true }),
    );
    return () => subscription.unsubscribe();
  }, [actor, location, navigate]);

  useEffect(() => {
    actor.send({ type: 'dashboard.location', search });
  }, [actor, search]);
}
