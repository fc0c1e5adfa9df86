/** What the page-load bench (./page-load.ts) measures: the apps, the CPU rates, the users list's size. */

export const USERS = 10_000;
export const THROTTLES = [4, 1] as const;
export const PEERS = ['react-admin', 'refine'] as const;

export type AppKey = (typeof PEERS)[number] | 'ours';

export const APPS_ORDER: readonly AppKey[] = ['react-admin', 'refine', 'ours'];

/**
 * The pages Lighthouse visits, each slot `<app> <page>`: the sign-in page (ours for a pt-BR light and an
 * English dark visitor) and the tenants list signed in; react-admin's sign-in page and its signed-in list
 * are the reference each of ours is divided by.
 */
export const LIGHTHOUSE_PAGES = [
  { slot: 'ours login pt-BR light', reference: 'react-admin login', label: 'sign-in page, pt-BR light visitor' },
  { slot: 'ours login en dark', reference: 'react-admin login', label: 'sign-in page, en dark visitor' },
  { slot: 'ours tenants signed in', reference: 'react-admin tenants signed in', label: 'tenants list signed in' },
] as const;
