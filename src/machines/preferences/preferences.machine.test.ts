import { createActor } from 'xstate';
import { SUPPORTED_LOCALES } from '../../i18n/setup';
import {
  DEFAULT_PREFERENCES,
  LOCALES,
  overlayControl,
  PREFERENCES_KEY,
  preferencesMachine,
  selectCanStar,
  selectHiddenColumns,
  selectIsStarred,
  selectOverlayEnabled,
  STARRED_LIMIT,
  type PreferencesEvent,
} from './preferences.machine';
import { memoryStorage } from '../session/session-storage';
import { assertFullCoverage, exploreCoverage, formatCoverage, type GraphEvent } from '../test-support/graph-coverage';

const page = (i: number) => ({ href: `/page-${i}`, titleKey: `routes.page${i}` });
const star = (i: number): PreferencesEvent => ({ type: 'prefs.star', page: page(i) });

describe('preferences machine: model coverage', () => {
  it('reaches every state and transition along @xstate/graph paths', async () => {
    const events: GraphEvent<typeof preferencesMachine>[] = [
      { type: 'prefs.theme.set', theme: 'dark' },
      { type: 'prefs.theme.toggle' },
      { type: 'prefs.layout.set', layout: 'horizontal' },
      { type: 'prefs.sidebar.toggle' },
      { type: 'prefs.sidebar.set', collapsed: true },
      { type: 'prefs.navbar.set', width: 'boxed' },
      { type: 'prefs.locale.set', locale: 'en' },
      { type: 'prefs.unstar', href: page(0).href },
      { type: 'prefs.instance.set', instance: { id: 3, name: 'Loja 3' } },
      { type: 'prefs.columns.set', list: 'users', columns: ['email'] },
      { type: 'prefs.overlay.suspend' },
      { type: 'prefs.overlay.resume' },
      ...Array.from({ length: STARRED_LIMIT + 1 }, (_, i) => star(i)),
    ];
    const report = await exploreCoverage({
      machine: preferencesMachine,
      input: () => ({ storage: memoryStorage() }),
      events,
      serializeContext: (context) => [context.starred.length, Math.min(context.overlayHolds, 1)],
      // Eleven star events over eleven counts would be 11! simple paths; two pages tell the story.
      simpleScenarios: [{ events: [...events.slice(0, 11), star(0), star(1)] }],
    });
    console.info(`preferences: ${formatCoverage(report)}`);
    assertFullCoverage(report);
  });
});

function start(storage = memoryStorage()) {
  return { storage, actor: createActor(preferencesMachine, { input: { storage } }).start() };
}

describe('preferences machine: behaviour', () => {
  it('starts with the product defaults: light, vertical, pt-BR, no stars, no instance, overlay on', () => {
    const { actor } = start();
    expect(actor.getSnapshot().context).toMatchObject({ ...DEFAULT_PREFERENCES, activeInstance: null, refusal: null });
    expect(selectOverlayEnabled(actor.getSnapshot())).toBe(true);
    expect(LOCALES).toEqual(SUPPORTED_LOCALES);
  });

  it('keeps at most 10 starred pages and refuses the 11th with a reason key', () => {
    const { actor } = start();
    for (let i = 0; i < STARRED_LIMIT; i += 1) actor.send(star(i));
    actor.send(star(0));
    expect(actor.getSnapshot().context.starred).toHaveLength(STARRED_LIMIT);
    expect(selectCanStar(actor.getSnapshot())).toBe(false);
    actor.send(star(10));
    expect(actor.getSnapshot().context.starred.map((p) => p.href)).not.toContain('/page-10');
    expect(actor.getSnapshot().context.refusal).toEqual({ key: 'shell.starredLimit', params: { max: 10 } });
    actor.send({ type: 'prefs.unstar', href: '/page-3' });
    expect(actor.getSnapshot().context.refusal).toBeNull();
    actor.send(star(10));
    expect(selectIsStarred(actor.getSnapshot(), '/page-10')).toBe(true);
    expect(selectIsStarred(actor.getSnapshot(), '/page-3')).toBe(false);
  });

  it('persists the user choices and restores them; runtime state starts fresh', () => {
    const { actor, storage } = start();
    actor.send({ type: 'prefs.theme.toggle' });
    actor.send({ type: 'prefs.layout.set', layout: 'horizontal' });
    actor.send({ type: 'prefs.sidebar.toggle' });
    actor.send({ type: 'prefs.navbar.set', width: 'boxed' });
    actor.send({ type: 'prefs.locale.set', locale: 'en' });
    actor.send(star(1));
    actor.send({ type: 'prefs.instance.set', instance: { id: 3, name: 'Loja 3' } });
    actor.send({ type: 'prefs.overlay.suspend' });
    const again = start(storage).actor.getSnapshot();
    expect(again.context).toMatchObject({
      theme: 'dark',
      layout: 'horizontal',
      sidebarCollapsed: true,
      navbarWidth: 'boxed',
      locale: 'en',
      starred: [page(1)],
    });
    expect(again.context.activeInstance).toBeNull();
    expect(selectOverlayEnabled(again)).toBe(true);
  });

  it('keeps the hidden columns of each list, hideable ones only, in the table order, across a reload', () => {
    const { actor, storage } = start();
    actor.send({ type: 'prefs.columns.set', list: 'users', columns: ['status', 'name', 'email', 'email', 'cnpj'] });
    actor.send({ type: 'prefs.columns.set', list: 'tenants', columns: ['pool'] });
    expect(selectHiddenColumns(actor.getSnapshot(), 'users')).toEqual(['email', 'status']);
    const again = start(storage).actor.getSnapshot();
    expect(selectHiddenColumns(again, 'users')).toEqual(['email', 'status']);
    expect(selectHiddenColumns(again, 'tenants')).toEqual(['pool']);
    expect(selectHiddenColumns(again, 'audit')).toEqual([]);
    const tampered = memoryStorage({
      [PREFERENCES_KEY]: JSON.stringify({
        hiddenColumns: { users: ['actions', 'role', 7], roles: ['name'], audit: 'who' },
      }),
    });
    expect(start(tampered).actor.getSnapshot().context.hiddenColumns).toEqual({ users: ['role'] });
  });

  it('falls back to defaults for malformed stored preferences', () => {
    const storage = memoryStorage({
      [PREFERENCES_KEY]: JSON.stringify({
        theme: 'neon',
        locale: 'de',
        starred: [{ href: 1 }, page(2)],
        sidebarCollapsed: 'yes',
      }),
    });
    expect(start(storage).actor.getSnapshot().context).toMatchObject({ ...DEFAULT_PREFERENCES, starred: [page(2)] });
    expect(start(memoryStorage({ [PREFERENCES_KEY]: '{not json' })).actor.getSnapshot().context).toMatchObject(
      DEFAULT_PREFERENCES,
    );
  });

  it('keeps the overlay off while any bulk run holds it, through the OverlayControl adapter', () => {
    const { actor } = start();
    const a = overlayControl(actor);
    const b = overlayControl(actor);
    a.suspend();
    b.suspend();
    a.resume();
    expect(selectOverlayEnabled(actor.getSnapshot())).toBe(false);
    b.resume();
    b.resume();
    expect(selectOverlayEnabled(actor.getSnapshot())).toBe(true);
    a.suspend();
    expect(selectOverlayEnabled(actor.getSnapshot())).toBe(false);
  });
});
