import { assertEvent, assign, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import type { Locale } from '../../i18n/options';
import type { OverlayControl } from '../shared/bulk-run';
import type { I18nKey } from '../../domain/i18n-key';
import type { StorageLike } from '../session/session-storage';
import { hideableColumns, isViewList, type ViewList } from '../../domain/views';

/**
 * Panel preferences and global UI state (docs/product.md, Preferences and global state): theme, layout,
 * sidebar, navbar width, locale, starred pages, the active instance and the loading-overlay flag.
 *
 * Decision: the user's choices (theme, layout, sidebar, navbar width, locale, starred pages) are kept
 * in localStorage under {@link PREFERENCES_KEY} so a reload keeps them; the active instance and the
 * overlay flag are per-tab runtime state and start as the product says (null, on).
 */

export type Theme = 'light' | 'dark';
export type Layout = 'vertical' | 'horizontal';
export type NavbarWidth = 'full' | 'boxed';

/** A starred page: where it goes and the i18n key of its title (from the route table). */
export interface StarredPage {
  href: string;
  titleKey: string;
}

export interface ActiveInstance {
  id: number;
  name: string;
}

/** docs/product.md, Limits. */
export const STARRED_LIMIT = 10;
export const PREFERENCES_KEY = 'preferences';
/** Kept in step with src/i18n/setup.ts (a runtime import of it would pull react-i18next into machines). */
export const LOCALES = ['pt-BR', 'pt', 'en'] as const satisfies readonly Locale[];

export interface Preferences {
  theme: Theme;
  layout: Layout;
  sidebarCollapsed: boolean;
  navbarWidth: NavbarWidth;
  locale: Locale;
  starred: StarredPage[];
  /**
   * The columns hidden on each list while no saved view is open (docs/lists.md, Views; a view keeps its
   * own): hideable columns only (src/domain/views.ts).
   */
  hiddenColumns: Partial<Record<ViewList, string[]>>;
}

export const DEFAULT_PREFERENCES: Preferences = {
  theme: 'light',
  layout: 'vertical',
  sidebarCollapsed: false,
  navbarWidth: 'full',
  locale: 'pt-BR',
  starred: [],
  hiddenColumns: {},
};

export interface PreferencesInput {
  /** Where preferences persist; without it they live in memory only. */
  storage?: StorageLike;
}

export interface PreferencesContext extends Preferences {
  storage: StorageLike | null;
  activeInstance: ActiveInstance | null;
  /** How many bulk runs hold the overlay off; the overlay is on when zero. */
  overlayHolds: number;
  /** Why the last request was refused (the 11th star), for a toast; cleared by the next change. */
  refusal: { key: I18nKey; params: Record<string, number> } | null;
}

export type PreferencesEvent =
  | { type: 'prefs.theme.set'; theme: Theme }
  | { type: 'prefs.theme.toggle' }
  | { type: 'prefs.layout.set'; layout: Layout }
  | { type: 'prefs.sidebar.toggle' }
  | { type: 'prefs.sidebar.set'; collapsed: boolean }
  | { type: 'prefs.navbar.set'; width: NavbarWidth }
  | { type: 'prefs.locale.set'; locale: Locale }
  | { type: 'prefs.star'; page: StarredPage }
  | { type: 'prefs.unstar'; href: string }
  | { type: 'prefs.instance.set'; instance: ActiveInstance | null }
  /** The columns hidden on a list without a saved view (the column chooser). */
  | { type: 'prefs.columns.set'; list: ViewList; columns: readonly string[] }
  /** A bulk run starts: hold the overlay off. */
  | { type: 'prefs.overlay.suspend' }
  /** That run ended (any outcome): release its hold. */
  | { type: 'prefs.overlay.resume' };

const oneOf = <T extends string>(values: readonly T[], value: unknown, fallback: T): T =>
  values.includes(value as T) ? (value as T) : fallback;

/** Reads stored preferences; anything missing or malformed falls back to its default. */
export function readPreferences(storage: StorageLike | null): Preferences {
  let raw: unknown;
  try {
    raw = JSON.parse(storage?.getItem(PREFERENCES_KEY) ?? 'null');
  } catch {
    raw = null;
  }
  const stored = raw && typeof raw === 'object' ? (raw as Partial<Record<keyof Preferences, unknown>>) : {};
  const starred = Array.isArray(stored.starred)
    ? stored.starred.filter(
        (p): p is StarredPage =>
          !!p &&
          typeof p === 'object' &&
          typeof (p as StarredPage).href === 'string' &&
          typeof (p as StarredPage).titleKey === 'string',
      )
    : [];
  return {
    theme: oneOf(['light', 'dark'], stored.theme, DEFAULT_PREFERENCES.theme),
    layout: oneOf(['vertical', 'horizontal'], stored.layout, DEFAULT_PREFERENCES.layout),
    sidebarCollapsed: stored.sidebarCollapsed === true,
    navbarWidth: oneOf(['full', 'boxed'], stored.navbarWidth, DEFAULT_PREFERENCES.navbarWidth),
    locale: oneOf(LOCALES, stored.locale, DEFAULT_PREFERENCES.locale),
    starred: starred.slice(0, STARRED_LIMIT),
    hiddenColumns: readHiddenColumns(stored.hiddenColumns),
  };
}

/** Stored hidden columns, each list's kept to its hideable columns (a column removed since is dropped). */
function readHiddenColumns(value: unknown): Partial<Record<ViewList, string[]>> {
  if (!value || typeof value !== 'object') return {};
  const out: Partial<Record<ViewList, string[]>> = {};
  for (const [list, columns] of Object.entries(value as Record<string, unknown>))
    if (isViewList(list) && Array.isArray(columns))
      out[list] = hideableColumns(
        list,
        columns.filter((c): c is string => typeof c === 'string'),
      );
  return out;
}

/**
 * The preferences store. One state: everything is context, changed by `prefs.*` events; the only
 * rule with a refusal is the starred-pages limit. Read with the selectors below.
 */
export const preferencesMachine = setup({
  types: {
    context: {} as PreferencesContext,
    events: {} as PreferencesEvent,
    input: {} as PreferencesInput,
  },
  guards: {
    alreadyStarred: ({ context, event }) => {
      assertEvent(event, 'prefs.star');
      return context.starred.some((p) => p.href === event.page.href);
    },
    starredFull: ({ context }) => context.starred.length >= STARRED_LIMIT,
  },
  actions: {
    persist: ({ context }) => {
      const { theme, layout, sidebarCollapsed, navbarWidth, locale, starred, hiddenColumns } = context;
      try {
        context.storage?.setItem(
          PREFERENCES_KEY,
          JSON.stringify({ theme, layout, sidebarCollapsed, navbarWidth, locale, starred, hiddenColumns }),
        );
      } catch {
        // Quota or privacy mode: the choice still applies to this tab.
      }
    },
    change: assign((_, params: Partial<Preferences>) => ({ ...params, refusal: null })),
    toggleTheme: assign(({ context }) => ({
      theme: context.theme === 'light' ? ('dark' as const) : ('light' as const),
      refusal: null,
    })),
    toggleSidebar: assign(({ context }) => ({ sidebarCollapsed: !context.sidebarCollapsed, refusal: null })),
    star: assign(({ context, event }) => {
      assertEvent(event, 'prefs.star');
      return { starred: [...context.starred, event.page], refusal: null };
    }),
    unstar: assign(({ context, event }) => {
      assertEvent(event, 'prefs.unstar');
      return { starred: context.starred.filter((p) => p.href !== event.href), refusal: null };
    }),
    refuseStar: assign({ refusal: { key: 'shell.starredLimit', params: { max: STARRED_LIMIT } } }),
    setInstance: assign(({ event }) => {
      assertEvent(event, 'prefs.instance.set');
      return { activeInstance: event.instance };
    }),
    hold: assign(({ context }) => ({ overlayHolds: context.overlayHolds + 1 })),
    release: assign(({ context }) => ({ overlayHolds: Math.max(0, context.overlayHolds - 1) })),
  },
}).createMachine({
  id: 'preferences',
  context: ({ input }) => ({
    ...readPreferences(input.storage ?? null),
    storage: input.storage ?? null,
    activeInstance: null,
    overlayHolds: 0,
    refusal: null,
  }),
  initial: 'ready',
  states: {
    ready: {
      on: {
        'prefs.theme.set': {
          actions: [{ type: 'change', params: ({ event }) => ({ theme: event.theme }) }, 'persist'],
        },
        'prefs.theme.toggle': { actions: ['toggleTheme', 'persist'] },
        'prefs.layout.set': {
          actions: [{ type: 'change', params: ({ event }) => ({ layout: event.layout }) }, 'persist'],
        },
        'prefs.sidebar.toggle': { actions: ['toggleSidebar', 'persist'] },
        'prefs.sidebar.set': {
          actions: [{ type: 'change', params: ({ event }) => ({ sidebarCollapsed: event.collapsed }) }, 'persist'],
        },
        'prefs.navbar.set': {
          actions: [{ type: 'change', params: ({ event }) => ({ navbarWidth: event.width }) }, 'persist'],
        },
        'prefs.locale.set': {
          actions: [{ type: 'change', params: ({ event }) => ({ locale: event.locale }) }, 'persist'],
        },
        'prefs.star': [
          { guard: 'alreadyStarred' },
          { guard: 'starredFull', actions: 'refuseStar' },
          { actions: ['star', 'persist'] },
        ],
        'prefs.unstar': { actions: ['unstar', 'persist'] },
        'prefs.instance.set': { actions: 'setInstance' },
        'prefs.columns.set': {
          actions: [
            {
              type: 'change',
              params: ({ context, event }) => ({
                hiddenColumns: { ...context.hiddenColumns, [event.list]: hideableColumns(event.list, event.columns) },
              }),
            },
            'persist',
          ],
        },
        'prefs.overlay.suspend': { actions: 'hold' },
        'prefs.overlay.resume': { actions: 'release' },
      },
    },
  },
});

export type PreferencesActor = ActorRefFrom<typeof preferencesMachine>;
export type PreferencesSnapshot = SnapshotFrom<typeof preferencesMachine>;

/** The loading overlay (global request spinner) may show: on at start, off while any bulk run holds it. */
export const selectOverlayEnabled = (snapshot: PreferencesSnapshot): boolean => snapshot.context.overlayHolds === 0;
export const selectIsStarred = (snapshot: PreferencesSnapshot, href: string): boolean =>
  snapshot.context.starred.some((p) => p.href === href);
/** The columns a list hides while no saved view is open. */
export const selectHiddenColumns = (snapshot: PreferencesSnapshot, list: ViewList): readonly string[] =>
  snapshot.context.hiddenColumns[list] ?? NO_COLUMNS;
const NO_COLUMNS: readonly string[] = [];
export const selectCanStar = (snapshot: PreferencesSnapshot): boolean =>
  snapshot.context.starred.length < STARRED_LIMIT;

/** The preferences' overlay flag as the bulk runners' {@link OverlayControl} (src/machines/shared/bulk-run.ts). */
export function overlayControl(preferences: PreferencesActor): OverlayControl {
  return {
    suspend: () => preferences.send({ type: 'prefs.overlay.suspend' }),
    resume: () => preferences.send({ type: 'prefs.overlay.resume' }),
  };
}
