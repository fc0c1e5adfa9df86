import { useEffect, useRef } from 'react';
import { useLocation, useSearch } from 'wouter';
import type { ActorRefFrom } from 'xstate';
import { parseTenantsQuery, serializeTenantsQuery } from '../../../domain/tenants-query';
import type { tenantsListMachine } from '../../../machines/tenants/tenants-list.machine';
import { hrefOf, parsePanel, withListQuery, withPanel, type PanelAddress } from './tenants-address';

type TenantsActor = ActorRefFrom<typeof tenantsListMachine>;

/**
 * Keeps the address and the tenants list in step, both ways, always with `replace` (paging and
 * typing do not fill the back button): the machine's `tenants.queryChanged` rewrites the list part
 * of the query; an address changed from outside (a link, back/forward, the menu) is sent to the
 * machine as `tenants.location` when its list part differs. Answers the open panel and a setter.
 */
export function useTenantsAddress(actor: TenantsActor): [PanelAddress | null, (panel: PanelAddress | null) => void] {
  const search = useSearch();
  const [location, navigate] = useLocation();
  const latest = useRef({ search, location, navigate });
  useEffect(() => {
    latest.current = { search, location, navigate };
  });

  useEffect(() => {
    const subscription = actor.on('tenants.queryChanged', (event) => {
      const { search: current, location: path, navigate: go } = latest.current;
      const next = withListQuery(current, event.search);
      // Read synchronously by the next event, before React re-renders.
      latest.current = { ...latest.current, search: next };
      if (next !== current) go(hrefOf(path, next), { replace: true });
    });
    return () => subscription.unsubscribe();
  }, [actor]);

  useEffect(() => {
    // Only the address changing triggers this: the machine's own writes already match it.
    if (serializeTenantsQuery(parseTenantsQuery(search)) !== actor.getSnapshot().context.queryString)
      actor.send({ type: 'tenants.location', search });
  }, [actor, search]);

  const setPanel = (panel: PanelAddress | null) => {
    const { search: current, location: path, navigate: go } = latest.current;
    go(hrefOf(path, withPanel(current, panel)), { replace: true });
  };
  return [parsePanel(search), setPanel];
}
