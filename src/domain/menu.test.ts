import ptBR from '../i18n/pt-BR.json';
import { MENU, menuHref, soonItem, visibleMenu } from './menu';
import { getRoute, matchPath } from './paths';
import { canAccess, type AccessSubject } from './route-access';

const admin: AccessSubject = { authenticated: true, role: 'administrador', permittedRoutes: [], staff: true };
/** What the demo `operador` role holds (server/src/tooling/seed-org.ts): dashboards and reports only. */
const operador: AccessSubject = {
  authenticated: true,
  role: 'operador',
  permittedRoutes: [
    'dashboard-analytics',
    'dashboard-control-panel',
    'dashboard-maria-panel',
    'dashboard-produtivity-report',
    'dashboard-report',
    'dashboard-report-smart',
  ],
};

function lookup(key: string): unknown {
  return key
    .split('.')
    .reduce<unknown>(
      (node, part) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined),
      ptBR,
    );
}

describe('menu', () => {
  it('has every group, in its order, each of two entries or more', () => {
    expect(MENU.map((s) => s.id)).toEqual(['panels', 'report', 'people', 'administration', 'account', 'outreach']);
    for (const section of MENU) expect(section.items.length, section.id).toBeGreaterThan(1);
    expect(MENU.flatMap((s) => s.items.map((i) => i.id))).toEqual([
      'dashboard-control-panel',
      'dashboard-maria-panel',
      'dashboard-analytics',
      'dashboard-report',
      'dashboard-report-smart',
      'dashboard-produtivity-report',
      'users',
      'support',
      'departments',
      'roles-list',
      'tenants',
      'tenants:instances',
      'audit',
      'user-settings',
      'two-factor',
      'targetAudience',
      'campaigns',
      'blockedContacts',
    ]);
  });

  it('never names a group after its only entry', () => {
    for (const section of MENU)
      expect(
        section.items.map((i) => i.labelKey),
        section.id,
      ).not.toEqual([section.labelKey]);
  });

  it('labels every section and item with a pt-BR string', () => {
    const keys = MENU.flatMap((s) => [s.labelKey, ...s.items.map((i) => i.labelKey)]);
    expect(keys.filter((key) => typeof lookup(key) !== 'string')).toEqual([]);
  });

  it('links every item to a route of the table, ids unique', () => {
    const items = MENU.flatMap((s) => s.items);
    for (const item of items) expect(matchPath(menuHref(item).split('?')[0] ?? '')?.route.name).toBe(item.route);
    expect(new Set(items.map((i) => i.id)).size).toBe(items.length);
  });

  it('sends the sections without a screen to the coming-soon page, badged, and finds them by id', () => {
    const items = MENU.flatMap((s) => s.items);
    const soon = items.filter((i) => i.route === 'comingsoon');
    expect(soon.map((i) => i.id)).toEqual(['targetAudience', 'campaigns', 'blockedContacts']);
    expect(items.filter((i) => i.soon === true)).toEqual(soon);
    for (const item of soon) {
      expect(menuHref(item)).toBe(`/pages/comingsoon?section=${item.id}`);
      expect(soonItem(item.id)).toBe(item);
    }
    expect(soonItem('users')).toBeUndefined();
    expect(soonItem(null)).toBeUndefined();
  });

  it('offers "Atendimento" exactly where the guard lets one in: staff holding `users`', () => {
    const desk = (who: AccessSubject) =>
      visibleMenu(who)
        .flatMap((s) => s.items)
        .some((i) => i.route === 'support');
    const subjects: AccessSubject[] = [
      admin,
      { ...admin, staff: false },
      { ...operador, staff: true },
      { ...operador, staff: true, permittedRoutes: ['users'] },
      { ...operador, permittedRoutes: ['users'] },
    ];
    expect(subjects.map(desk)).toEqual([true, false, false, true, false]);
    for (const who of subjects) expect(desk(who)).toBe(canAccess(getRoute('support'), who));
  });

  it('shows an administrator every item', () => {
    expect(visibleMenu(admin).flatMap((s) => s.items)).toHaveLength(MENU.flatMap((s) => s.items).length);
  });

  it('shows operador its dashboards and reports but no users, roles, tenants or instances', () => {
    const visible = visibleMenu(operador).flatMap((s) => s.items.map((i) => i.route));
    expect(visible).not.toEqual(expect.arrayContaining(['users']));
    for (const hidden of ['users', 'roles-list', 'tenants', 'departments']) expect(visible).not.toContain(hidden);
    expect(visible).toEqual(
      expect.arrayContaining([
        'dashboard-control-panel',
        'dashboard-report',
        'dashboard-analytics',
        'user-settings',
        'two-factor',
      ]),
    );
    // Exactly what the guard would let through, never more.
    for (const item of MENU.flatMap((s) => s.items))
      expect(visible.includes(item.route)).toBe(canAccess(getRoute(item.route), operador));
  });

  it('opens Departments on its screen, for whoever holds the users permission', () => {
    const item = MENU.flatMap((s) => s.items).find((i) => i.id === 'departments');
    expect(item && [item.route, menuHref(item)]).toEqual(['departments', '/departments']);
    const usersOnly = { authenticated: true, role: 'gerente', permittedRoutes: ['users'] };
    expect(visibleMenu(usersOnly).flatMap((s) => s.items.map((i) => i.route))).toContain('departments');
  });

  it('drops sections left empty', () => {
    expect(visibleMenu(operador).map((s) => s.id)).not.toContain('people');
    expect(visibleMenu(operador).every((s) => s.items.length > 0)).toBe(true);
  });
});
