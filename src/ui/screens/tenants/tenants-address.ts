/**
 * The parts of the `/tenants` address the screen owns besides the list query (which
 * src/domain/tenants-query.ts reads and writes): the open tenant panel and its tenant,
 * `?panel=features&tenant=farmacia-central`. Pure functions, so a link or a reload opens the same panel.
 */

/** The sections of the tenant panel, in tab order. `instances` is the other workspace's panel. */
export const PANEL_TABS = ['features', 'webhooks', 'analytics', 'instances'] as const;
export type PanelTab = (typeof PANEL_TABS)[number];

/** The list query's own keys (tenants-query.ts): everything else in the address is left alone. */
const LIST_KEYS = ['page', 'limit', 'search', 'sort', 'view'];

export interface PanelAddress {
  tab: PanelTab;
  /** The tenant named in the address, or null (the menu's "Instâncias/Conexões" names none). */
  tenant: string | null;
}

const strip = (search: string) => (search.startsWith('?') ? search.slice(1) : search);

function isPanelTab(value: string | null): value is PanelTab {
  return (PANEL_TABS as readonly (string | null)[]).includes(value);
}

/** The panel the address opens, or null. An unknown `panel` opens nothing. */
export function parsePanel(search: string): PanelAddress | null {
  const params = new URLSearchParams(strip(search));
  const tab = params.get('panel');
  if (!isPanelTab(tab)) return null;
  const tenant = params.get('tenant');
  return { tab, tenant: tenant === null || tenant === '' ? null : tenant };
}

/** The address with `panel` (null: closed) and its tenant set, the list query untouched. */
export function withPanel(search: string, panel: PanelAddress | null): string {
  const params = new URLSearchParams(strip(search));
  params.delete('panel');
  params.delete('tenant');
  if (panel) {
    params.set('panel', panel.tab);
    if (panel.tenant !== null) params.set('tenant', panel.tenant);
  }
  return params.toString();
}

/** The address with the list query replaced by `listQuery` (the machine's), the panel kept after it. */
export function withListQuery(search: string, listQuery: string): string {
  const current = new URLSearchParams(strip(search));
  const next = new URLSearchParams(listQuery);
  for (const [key, value] of current) if (!LIST_KEYS.includes(key)) next.append(key, value);
  return next.toString();
}
