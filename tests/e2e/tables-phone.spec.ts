import type { Locator, Page } from '@playwright/test';
import { apiLogin } from './support/api';
import { signIn, tenantPath } from './support/app';
import { seriousViolations, useTheme } from './support/axe';
import { expect, test } from './support/fixtures';
import { t } from './support/i18n';
import { createTenant, uniquePrefix } from './support/tenants';

/**
 * Every list on a phone (390 × 844; docs/panel.md, "Tables on a phone"): the page never scrolls
 * sideways, each row's actions are on screen in its card and are 44 × 44 px targets, sortable
 * columns keep their sort buttons (and arrows) in view, and axe finds nothing serious in either theme.
 */
const PHONE = { width: 390, height: 844 } as const;

// axe is injected into pages whose CSP forbids injected scripts (support/axe.ts).
test.use({ bypassCSP: true, viewport: PHONE });

/** Controls of a grid's body rows and of a list's items: every one on screen and 44 × 44 px at least. */
async function expectReachableTargets(controls: Locator, what: string): Promise<number> {
  const count = await controls.count();
  for (let i = 0; i < count; i++) {
    const control = controls.nth(i);
    await control.scrollIntoViewIfNeeded();
    const box = await control.boundingBox();
    const name = (await control.getAttribute('aria-label')) ?? (await control.textContent());
    expect(box, `${what}: ${name} has a box`).not.toBeNull();
    if (!box) continue;
    expect(box.x, `${what}: ${name} starts on screen`).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width, `${what}: ${name} ends on screen`).toBeLessThanOrEqual(PHONE.width);
    expect(box.width, `${what}: ${name} is 44 px wide`).toBeGreaterThanOrEqual(44);
    expect(box.height, `${what}: ${name} is 44 px high`).toBeGreaterThanOrEqual(44);
  }
  return count;
}

async function expectNoSidewaysPage(page: Page): Promise<void> {
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width, 'the page does not scroll sideways').toBeLessThanOrEqual(PHONE.width);
}

async function expectSortButtonsInView(grid: Locator): Promise<void> {
  const sortable = grid.locator('[role=columnheader][aria-sort]');
  const count = await sortable.count();
  for (let i = 0; i < count; i++) {
    const header = sortable.nth(i);
    const box = await header.boundingBox();
    const arrow = await header.locator('svg').boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= PHONE.width, `${await header.textContent()} in view`).toBe(true);
    expect(box?.height ?? 0).toBeGreaterThanOrEqual(44);
    expect(arrow?.width ?? 0, `${await header.textContent()}'s sort arrow keeps its size`).toBeGreaterThanOrEqual(14);
  }
}

const rowControls = (grid: Locator) => grid.locator('tbody:not([data-empty]) [role=row]').locator('button, a[href]');

interface ListCase {
  name: string;
  path: string;
  grid: (page: Page) => Locator;
  /** Rows with actions are expected (the list has some in the demo data). */
  actions: boolean;
  prepare?: (page: Page) => Promise<void>;
}

const LISTS: ListCase[] = [
  {
    name: 'users',
    path: '/users',
    grid: (page) => page.getByRole('main').getByRole('grid'),
    actions: true,
  },
  {
    name: 'roles',
    path: '/roles/list',
    grid: (page) => page.getByRole('grid', { name: t('roles.list.tableLabel') }),
    actions: true,
  },
  { name: 'tenants', path: '/tenants', grid: (page) => page.getByRole('main').getByRole('grid'), actions: true },
  {
    name: 'audit',
    path: '/audit',
    grid: (page) => page.getByRole('grid', { name: t('audit.tableLabel') }),
    actions: false,
  },
  {
    name: 'productivity report',
    path: '/dashboard/produtivity-report',
    grid: (page) => page.getByRole('grid', { name: t('reports.screen.productivity.tableLabel') }),
    actions: false,
  },
  {
    name: 'login-failure report',
    path: '/dashboard/report',
    grid: (page) => page.getByRole('grid', { name: t('reports.screen.loginFailures.tableLabel') }),
    actions: false,
  },
  {
    name: 'support',
    path: '/support',
    grid: (page) => page.getByRole('grid', { name: t('support.search.tableLabel') }),
    actions: true,
    prepare: async (page) => {
      await page.getByRole('searchbox', { name: t('support.search.label') }).fill('demo');
    },
  },
];

for (const list of LISTS) {
  test(`${list.name} at 390 px: rows read as cards, their actions on screen and 44 px; sort buttons in view`, async ({
    page,
    app,
  }) => {
    await signIn(page, app.origin, app.admin, list.path);
    await list.prepare?.(page);
    const grid = list.grid(page);
    await expect(grid.locator('tbody:not([data-empty]) [role=row]').first()).toBeVisible();
    await expectNoSidewaysPage(page);
    const count = await expectReachableTargets(rowControls(grid), list.name);
    if (list.actions) expect(count, `${list.name} rows have actions`).toBeGreaterThan(0);
    await expectSortButtonsInView(grid);
    // A list with pages: its pager's buttons and page-size select are touch targets too.
    const pager = page.getByRole('navigation', { name: t('ui.pagination.label') });
    if (await pager.count()) await expectReachableTargets(pager.locator('button, select'), `${list.name} pages`);
  });
}

test('departments at 390 px: "Desativar" and "Renomear" on screen in each card, 44 px', async ({ page, app }) => {
  const api = await apiLogin(app.origin, app.admin.email, app.admin.password);
  const tenant = await createTenant(api, uniquePrefix('phone'));
  for (const name of ['Compras e estoque', 'Atendimento ao cliente'])
    await api.rest('POST', `/api/departments?tenantName=${tenant}`, { name });
  await signIn(page, app.origin, app.admin);
  await page.goto(`${app.origin}${tenantPath('/departments', tenant)}`);
  const grid = page.getByRole('grid', { name: t('departments.tableLabel') });
  await expect(grid.getByRole('row', { name: /Compras e estoque/ })).toBeVisible();
  await expectNoSidewaysPage(page);
  expect(await expectReachableTargets(rowControls(grid), 'departments')).toBe(4);
  await expect(
    grid.getByRole('button', { name: t('departments.deactivateLabel', { name: 'Compras e estoque' }) }),
  ).toHaveText(t('departments.deactivate'));
});

test('login-failure report at 390 px, past 100 rows: the windowed grid scrolls sideways with a shadow cue', async ({
  page,
  app,
}) => {
  // The windowed grid shows from 100 rows on (login-failure-report.tsx VIRTUALIZE_FROM): the server's
  // own answer, repeated with fresh ids until it has 150.
  await page.route('**/api/dashboard-report', async (route) => {
    if (route.request().method() !== 'POST') return route.fallback();
    const response = await route.fetch();
    const rows = (await response.json()) as { id: number }[];
    expect(rows.length).toBeGreaterThan(0);
    const many = Array.from({ length: 150 }, (_, i) => ({ ...rows[i % rows.length], id: 1_000_000 + i }));
    await route.fulfill({ response, json: many });
  });
  await signIn(page, app.origin, app.admin, '/dashboard/report');
  const grid = page.getByRole('grid', { name: t('reports.screen.loginFailures.tableLabel') });
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
  await expect(grid.locator('[role=row][aria-rowindex="3"]')).toBeVisible();
  await expectNoSidewaysPage(page);
  const cue = await grid.evaluate((el) => {
    const style = getComputedStyle(el);
    return { wider: el.scrollWidth > el.clientWidth, image: style.backgroundImage, attach: style.backgroundAttachment };
  });
  expect(cue.wider, 'the report is wider than a phone').toBe(true);
  expect(cue.image).toContain('linear-gradient');
  expect(cue.attach).toBe('local, local, scroll, scroll');
});

test('instances and connections at 390 px: every control of a card on screen and 44 px', async ({ page, app }) => {
  const api = await apiLogin(app.origin, app.admin.email, app.admin.password);
  const tenant = await createTenant(api, uniquePrefix('phone-i'));
  const instance = await api.rest<{ id: number; name: string }>('POST', '/api/instance', {
    name: 'WhatsApp Balcão',
    tenantName: tenant,
    isOfficial: false,
    isUnlimited: false,
  });
  await api.rest('POST', '/api/connection', { instance_id: instance.id, name: 'Atendimento 1', tenantName: tenant });
  await signIn(page, app.origin, app.admin, `/tenants?panel=instances&tenant=${tenant}`);
  const card = page.getByRole('listitem', { name: instance.name });
  const connections = page.getByRole('list', { name: t('instances.connections.listLabel', { tenant }) });
  await expect(connections.getByText('Atendimento 1')).toBeVisible();
  await expectNoSidewaysPage(page);
  expect(await expectReachableTargets(card.locator('button, a[href]'), 'instances')).toBeGreaterThan(0);
  expect(await expectReachableTargets(connections.locator('button, a[href]'), 'connections')).toBeGreaterThan(0);
});

for (const theme of ['light', 'dark'] as const) {
  test(`lists at 390 px, ${theme}: axe finds no serious violation in the card layout`, async ({ page, app }) => {
    await useTheme(page, theme);
    await signIn(page, app.origin, app.admin, '/users');
    for (const list of LISTS) {
      await page.goto(`${app.origin}${tenantPath(list.path)}`);
      await list.prepare?.(page);
      await expect(list.grid(page).locator('tbody:not([data-empty]) [role=row]').first()).toBeVisible();
      await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
      expect(await seriousViolations(page), `${list.name}, ${theme}`).toEqual([]);
    }
  });
}
