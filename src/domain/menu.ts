import type { I18nKey } from '../i18n/keys';
import { getHref, getRoute, type QueryParams, type RouteName } from './paths';
import { canAccess, type AccessSubject } from './route-access';

/**
 * The navigation menu (docs/product.md, Menu), built on the route table so the menu shows exactly
 * what the guard lets the user open. Sections without a screen in this panel open the coming-soon
 * page.
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
  /** i18n key of the label. */
  readonly labelKey: I18nKey;
  readonly icon: MenuIcon;
  readonly route: RouteName;
  readonly query?: QueryParams;
}

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
});
const page = (
  route: RouteName,
  icon: MenuIcon,
  query?: QueryParams,
  labelKey: I18nKey = getRoute(route).titleKey,
): MenuItem => ({
  id: query ? `${route}:${Object.values(query).join(',')}` : route,
  labelKey,
  icon,
  route,
  ...(query ? { query } : {}),
});

/** The menu sections, in order (docs/product.md, Menu). */
export const MENU: readonly MenuSection[] = [
  {
    id: 'dashboard',
    labelKey: 'menu.sections.dashboard',
    items: [page('dashboard-control-panel', 'dashboard'), page('dashboard-maria-panel', 'dashboard')],
  },
  {
    id: 'report',
    labelKey: 'menu.sections.report',
    items: [
      page('dashboard-report', 'report'),
      page('dashboard-report-smart', 'report'),
      page('dashboard-produtivity-report', 'report'),
    ],
  },
  { id: 'dataAnalytics', labelKey: 'menu.sections.dataAnalytics', items: [page('dashboard-analytics', 'analytics')] },
  {
    id: 'targetAudience',
    labelKey: 'menu.sections.targetAudience',
    items: [soon('targetAudience', 'menu.sections.targetAudience', 'audience')],
  },
  {
    id: 'campaigns',
    labelKey: 'menu.sections.campaigns',
    items: [soon('campaigns', 'menu.sections.campaigns', 'campaign')],
  },
  { id: 'users', labelKey: 'menu.sections.users', items: [page('users', 'users')] },
  // The support desk: back-office staff with the `users` permission (route-access.ts `canAccess`).
  {
    id: 'support',
    labelKey: 'menu.sections.support',
    items: [page('support', 'support', undefined, 'menu.sections.support')],
  },
  { id: 'roles', labelKey: 'menu.sections.roles', items: [page('roles-list', 'roles')] },
  // Instances and connections are managed per tenant, in the tenants workspace.
  {
    id: 'instances',
    labelKey: 'menu.sections.instances',
    items: [page('tenants', 'instances', { panel: 'instances' }, 'menu.sections.instances')],
  },
  {
    id: 'blockedContacts',
    labelKey: 'menu.sections.blockedContacts',
    items: [soon('blockedContacts', 'menu.sections.blockedContacts', 'blocked')],
  },
  {
    id: 'departments',
    labelKey: 'menu.sections.departments',
    items: [page('departments', 'departments', undefined, 'menu.sections.departments')],
  },
  { id: 'audit', labelKey: 'menu.sections.audit', items: [page('audit', 'audit', undefined, 'menu.sections.audit')] },
  {
    id: 'others',
    labelKey: 'menu.sections.others',
    items: [page('tenants', 'tenants'), page('user-settings', 'settings'), page('two-factor', 'security')],
  },
];

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
