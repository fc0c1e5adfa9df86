import { makeIcon } from '../components/make-icon';
import type { MenuIcon } from '../../domain/menu';

// The theme toggle's icons are on the login route: a module of their own.
export { MoonIcon, SunIcon } from './theme-icons';

/** Shell icons (same 24-unit stroke set as the primitives; always aria-hidden). */
export const MenuToggleIcon = /* @__PURE__ */ makeIcon(['M3 6h18', 'M3 12h18', 'M3 18h18']);
export const StarIcon = /* @__PURE__ */ makeIcon([
  'M12 2l3.09 6.26L22 9.27l-5 4.87 1.18 6.88L12 17.77l-6.18 3.25L7 14.14 2 9.27l6.91-1.01L12 2z',
]);
export const LogoutIcon = /* @__PURE__ */ makeIcon([
  'M9 21H5a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2h4',
  'M16 17l5-5-5-5',
  'M21 12H9',
]);
export const UserIcon = /* @__PURE__ */ makeIcon([
  'M20 21v-2a4 4 0 0 0-4-4H8a4 4 0 0 0-4 4v2',
  'M12 11a4 4 0 1 0 0-8 4 4 0 0 0 0 8z',
]);
export const BellIcon = /* @__PURE__ */ makeIcon([
  'M18 8A6 6 0 0 0 6 8c0 7-3 9-3 9h18s-3-2-3-9',
  'M13.73 21a2 2 0 0 1-3.46 0',
]);
export const SlidersIcon = /* @__PURE__ */ makeIcon([
  'M4 21v-7',
  'M4 10V3',
  'M12 21v-9',
  'M12 8V3',
  'M20 21v-5',
  'M20 12V3',
  'M1 14h6',
  'M9 8h6',
  'M17 16h6',
]);
export const ShieldIcon = /* @__PURE__ */ makeIcon(['M12 22s8-4 8-10V5l-8-3-8 3v7c0 6 8 10 8 10z']);

const DashboardIcon = /* @__PURE__ */ makeIcon(['M3 3h7v9H3z', 'M14 3h7v5h-7z', 'M14 12h7v9h-7z', 'M3 16h7v5H3z']);
const ReportIcon = /* @__PURE__ */ makeIcon([
  'M14 2H6a2 2 0 0 0-2 2v16a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2V8z',
  'M14 2v6h6',
  'M16 13H8',
  'M16 17H8',
]);
const AnalyticsIcon = /* @__PURE__ */ makeIcon(['M18 20V10', 'M12 20V4', 'M6 20v-6']);
const AudienceIcon = /* @__PURE__ */ makeIcon([
  'M17 21v-2a4 4 0 0 0-4-4H5a4 4 0 0 0-4 4v2',
  'M9 11a4 4 0 1 0 0-8 4 4 0 0 0 0 8z',
  'M23 21v-2a4 4 0 0 0-3-3.87',
  'M16 3.13a4 4 0 0 1 0 7.75',
]);
const CampaignIcon = /* @__PURE__ */ makeIcon(['M3 11l18-5v12L3 14v-3z', 'M11.6 16.8a3 3 0 1 1-5.8-1.6']);
const RolesIcon = /* @__PURE__ */ makeIcon(['M12 22s8-4 8-10V5l-8-3-8 3v7c0 6 8 10 8 10z', 'M9 12l2 2 4-4']);
const InstancesIcon = /* @__PURE__ */ makeIcon(['M21 15a2 2 0 0 1-2 2H7l-4 4V5a2 2 0 0 1 2-2h14a2 2 0 0 1 2 2z']);
const BlockedIcon = /* @__PURE__ */ makeIcon(['M12 22a10 10 0 1 0 0-20 10 10 0 0 0 0 20z', 'M4.93 4.93l14.14 14.14']);
const DepartmentsIcon = /* @__PURE__ */ makeIcon([
  'M3 21h18',
  'M5 21V7l8-4v18',
  'M19 21V11l-6-4',
  'M9 9v.01',
  'M9 12v.01',
  'M9 15v.01',
]);
const TenantsIcon = /* @__PURE__ */ makeIcon(['M3 9l9-7 9 7v11a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2z', 'M9 22V12h6v10']);
const SettingsIcon = /* @__PURE__ */ makeIcon([
  'M12 15a3 3 0 1 0 0-6 3 3 0 0 0 0 6z',
  'M19.4 15a1.65 1.65 0 0 0 .33 1.82l.06.06a2 2 0 1 1-2.83 2.83l-.06-.06a1.65 1.65 0 0 0-1.82-.33 1.65 1.65 0 0 0-1 1.51V21a2 2 0 1 1-4 0v-.09A1.65 1.65 0 0 0 9 19.4a1.65 1.65 0 0 0-1.82.33l-.06.06a2 2 0 1 1-2.83-2.83l.06-.06A1.65 1.65 0 0 0 4.68 15a1.65 1.65 0 0 0-1.51-1H3a2 2 0 1 1 0-4h.09A1.65 1.65 0 0 0 4.6 9a1.65 1.65 0 0 0-.33-1.82l-.06-.06a2 2 0 1 1 2.83-2.83l.06.06A1.65 1.65 0 0 0 9 4.68a1.65 1.65 0 0 0 1-1.51V3a2 2 0 1 1 4 0v.09a1.65 1.65 0 0 0 1 1.51 1.65 1.65 0 0 0 1.82-.33l.06-.06a2 2 0 1 1 2.83 2.83l-.06.06A1.65 1.65 0 0 0 19.4 9a1.65 1.65 0 0 0 1.51 1H21a2 2 0 1 1 0 4h-.09a1.65 1.65 0 0 0-1.51 1z',
]);

const AuditIcon = /* @__PURE__ */ makeIcon([
  'M14 2H6a2 2 0 0 0-2 2v16a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2V8z',
  'M14 2v6h6',
  'M9 13h6',
  'M9 17h6',
  'M9 9h1',
]);

/** A headset: the support desk (docs/support-desk.md). */
const SupportIcon = /* @__PURE__ */ makeIcon([
  'M3 18v-6a9 9 0 0 1 18 0v6',
  'M21 19a2 2 0 0 1-2 2h-1a2 2 0 0 1-2-2v-3a2 2 0 0 1 2-2h3z',
  'M3 19a2 2 0 0 0 2 2h1a2 2 0 0 0 2-2v-3a2 2 0 0 0-2-2H3z',
]);

/** The icon of a menu entry (src/domain/menu.ts). */
export const MENU_ICONS: Record<MenuIcon, ReturnType<typeof makeIcon>> = {
  dashboard: DashboardIcon,
  report: ReportIcon,
  analytics: AnalyticsIcon,
  audience: AudienceIcon,
  campaign: CampaignIcon,
  users: AudienceIcon,
  roles: RolesIcon,
  instances: InstancesIcon,
  blocked: BlockedIcon,
  departments: DepartmentsIcon,
  tenants: TenantsIcon,
  settings: SettingsIcon,
  security: ShieldIcon,
  audit: AuditIcon,
  support: SupportIcon,
};
