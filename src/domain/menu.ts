import type { I18nKey } from '../i18n/keys';
import { getHref, getRoute, type QueryParams, type RouteName } from './paths';
import { canAccess, type AccessSubject } from './route-access';

/**
 * The navigation menu (docs/product.md, Menu), built on the route table so the menu shows exactly
 * what the guard lets the user open. Sections without a screen in this panel open the coming-soon
 * page inside the shell.
 */

export type MenuIcon =
  | 'dashboard'
  | 'report'
  | 'analytics'
  | 'audience'
  | 'campaign'
  | 'users'
  | 'roles'
  | 'instances'
  | 'blocked'
  | 'departments'
  | 'tenants'
  | 'settings'
  | 'security'
  | 'audit'
  | 'support';

/** One entry: a route of the table (with an optional query), or a section without a screen yet. */
export interface MenuItem {
  readonly id: string;
  /** i18n key of the label (short enough for one line of the sidebar). */
  readonly labelKey: I18nKey;
  readonly icon: MenuIcon;
  readonly route: RouteName;
  readonly query?: QueryParams;
  /** A section without a screen yet: badged "Em breve", it opens the coming-soon page naming it. */
  readonly soon?: boolean;
}

/** A group of entries under one heading; every group holds at least two entries. */
export interface MenuSection {
  readonly id: string;
  readonly labelKey: I18nKey;
  readonly items: readonly MenuItem[];
}

const soon = (id: string, labelKey: I18nKey, icon: MenuIcon): MenuItem => ({
  id,
  labelKey,
  icon,
  route: 'comingsoon',
  query: { section: id },
  soon: true,
});
const page = (
  route: RouteName,
  icon: MenuIcon,
  labelKey: I18nKey = getRoute(route).titleKey,
  query?: QueryParams,
): MenuItem => ({
  id: query ? `${route}:${Object.values(query).join(',')}` : route,
  labelKey,
  icon,
  route,
  ...(query ? { query } : {}),
});

/**
 * The menu groups, in order (docs/product.md, Menu): a heading only where it groups several
 * entries, labels short enough for one line, the sections not built yet last.
 */
export const MENU: readonly MenuSection[] = [
  {
    id: 'panels',
    labelKey: 'menu.groups.panels',
    items: [
      page('dashboard-control-panel', 'dashboard'),
      page('dashboard-maria-panel', 'dashboard'),
      page('dashboard-analytics', 'analytics'),
    ],
  },
  {
    id: 'report',
    labelKey: 'menu.sections.report',
    items: [
      page('dashboard-report', 'report', 'menu.items.loginFailures'),
      page('dashboard-report-smart', 'report'),
      page('dashboard-produtivity-report', 'report', 'menu.items.productivity'),
    ],
  },
  {
    id: 'people',
    labelKey: 'menu.groups.people',
    items: [
      page('users', 'users'),
      // The support desk: back-office staff with the `users` permission (route-access.ts `canAccess`).
      page('support', 'support', 'menu.sections.support'),
      page('departments', 'departments', 'menu.sections.departments'),
      page('roles-list', 'roles'),
    ],
  },
  {
    id: 'administration',
    labelKey: 'menu.groups.administration',
    items: [
      page('tenants', 'tenants'),
      // Instances and connections are managed per tenant, in the tenants workspace.
      page('tenants', 'instances', 'menu.sections.instances', { panel: 'instances' }),
      page('audit', 'audit', 'menu.sections.audit'),
    ],
  },
  {
    id: 'account',
    labelKey: 'menu.groups.account',
    items: [
      page('user-settings', 'settings', 'menu.items.settings'),
      page('two-factor', 'security', 'menu.items.twoFactor'),
    ],
  },
  {
    id: 'outreach',
    labelKey: 'menu.groups.outreach',
    items: [
      soon('targetAudience', 'menu.sections.targetAudience', 'audience'),
      soon('campaigns', 'menu.sections.campaigns', 'campaign'),
      soon('blockedContacts', 'menu.sections.blockedContacts', 'blocked'),
    ],
  },
];

/** The coming-soon entry with this id (the coming-soon page's `?section=`), or undefined. */
export function soonItem(id: string | null): MenuItem | undefined {
  return MENU.flatMap((section) => section.items).find((item) => item.soon === true && item.id === id);
}

/** The href of an item (tenant-relative). */
export function menuHref(item: MenuItem): string {
  return getHref(item.route, undefined, item.query);
}

/** The menu as this subject may use it: items it may not open removed, then empty sections. */
export function visibleMenu(subject: AccessSubject, menu: readonly MenuSection[] = MENU): MenuSection[] {
  return menu
    .map((section) => ({ ...section, items: section.items.filter((item) => canAccess(getRoute(item.route), subject)) }))
    .filter((section) => section.items.length > 0);
}
