import { useCallback } from 'react';
import { useSearch } from 'wouter';
import type { ActorRefFrom } from 'xstate';
import type { tenantsListMachine } from '../../../machines/tenants/tenants-list.machine';
import { useAddressSync } from '../../hooks/use-address-sync';
import { parsePanel, withListQuery, withPanel, type PanelAddress } from './tenants-address';

type TenantsActor = ActorRefFrom<typeof tenantsListMachine>;

/**
 * The tenants list in step with the address (`useAddressSync`: the list part of the query is the
 * machine's, the panel part kept beside it), and the open panel with its setter.
 */
export function useTenantsAddress(actor: TenantsActor): [PanelAddress | null, (panel: PanelAddress | null) => void] {
  const search = useSearch();
  const write = useAddressSync(actor, {
    emitted: 'tenants.queryChanged',
    location: 'tenants.location',
    merge: withListQuery,
  });
  // One setter for the screen's life: the rows' actions take it through their context, which must
  // not change when an unrelated answer re-renders the screen (docs/performance.md).
  const setPanel = useCallback((panel: PanelAddress | null) => write((current) => withPanel(current, panel)), [write]);
  return [parsePanel(search), setPanel];
}
