import { TENANT_COUNT } from './peers/tenants-data.mjs';
import { check, fixed, median, type Check } from './lib/report';
import { THROTTLES, USERS } from './page-load-apps';
import type { AppKey } from './page-load-apps';
import type { Figure, RunResult } from './page-load-browser';
import type { LighthouseFigures } from './page-load-lighthouse';

export interface PageLoadBudgets {
  throttledLoginLcpMs: number;
  throttledFormInteractiveMs: number;
  throttledLoginToListMs: number;
  loginToListMs1x: number;
  /** react-admin's sign-in → 100 rows at 4× over ours: at least this. */
  loginToListVsReactAdminMin: number;
  throttledHeapAfterListMiB: number;
  /** react-admin's heap after the list over ours: at least this. */
  heapVsReactAdminMin: number;
  usersListMaxDomRows: number;
  scrollMaxLongTaskMs: number;
  lighthouse: { performanceMin: number; interactiveMaxMs: number };
}

/** The comparison table and the budget checks, from the medians of the runs and of Lighthouse. */
export function pageLoadReport(input: {
  runs: number;
  budgets: PageLoadBudgets;
  results: Map<string, RunResult[]>;
  lh: Map<string, LighthouseFigures[]>;
  lighthouseRuns: number;
}): { table: string[][]; checks: Check[] } {
  const { runs, results, lh, lighthouseRuns } = input;
  const m = (key: AppKey, throttle: number, figure: Figure) =>
    median((results.get(`${key} ${throttle}x`) ?? []).map((r) => r[figure]).filter(Number.isFinite));
  const l = (slot: string, figure: keyof LighthouseFigures) =>
    median((lh.get(slot) ?? []).map((r) => r[figure]).filter(Number.isFinite));
  const b = input.budgets;
  const table = [
    [`figure (median of ${runs})`, 'react-admin', 'refine', 'ours', 'ours vs react-admin', 'budget (ours)'],
  ];
  // react-admin's value over ours: above 1 means ours is faster (or smaller).
  const ratio = (ra: number, ours: number) =>
    Number.isFinite(ra) && Number.isFinite(ours) && ours > 0 ? ra / ours : Number.NaN;
  const ratioText = (r: number) => (Number.isFinite(r) ? `${r.toFixed(2)}×` : '—');
  const row = (label: string, figure: Figure, throttle: number, digits: number, budget = '') => {
    const [ra, rf, ours] = [
      m('react-admin', throttle, figure),
      m('refine', throttle, figure),
      m('ours', throttle, figure),
    ];
    table.push([label, fixed(ra, digits), fixed(rf, digits), fixed(ours, digits), ratioText(ratio(ra, ours)), budget]);
  };
  row('sign-in page FCP ms, 4× CPU', 'fcp', 4, 0);
  row('sign-in page LCP ms, 4× CPU', 'lcp', 4, 0, `≤ ${b.throttledLoginLcpMs}`);
  row('sign-in form interactive ms, 4× CPU', 'formInteractive', 4, 0, `≤ ${b.throttledFormInteractiveMs}`);
  row('sign-in form ready to send (submit enabled) ms, 4× CPU', 'formReady', 4, 0);
  row(
    `sign-in → ${TENANT_COUNT} rows painted ms, 4× CPU`,
    'loginToList',
    4,
    0,
    `≤ ${b.throttledLoginToListMs}, ratio ≥ ${b.loginToListVsReactAdminMin}`,
  );
  row(
    'JS heap after the list MiB (after GC), 4× CPU',
    'heapAfterListMiB',
    4,
    1,
    `≤ ${b.throttledHeapAfterListMiB}, ratio ≥ ${b.heapVsReactAdminMin}`,
  );
  row('sign-in page FCP ms, 1× CPU', 'fcp', 1, 0);
  row('sign-in page LCP ms, 1× CPU', 'lcp', 1, 0);
  row('sign-in form interactive ms, 1× CPU', 'formInteractive', 1, 0);
  row('sign-in form ready to send (submit enabled) ms, 1× CPU', 'formReady', 1, 0);
  row(`sign-in → ${TENANT_COUNT} rows painted ms, 1× CPU`, 'loginToList', 1, 0, `≤ ${b.loginToListMs1x}`);
  row('JS heap after the list MiB (after GC), 1× CPU', 'heapAfterListMiB', 1, 1);
  // The panel's own pages: no peer counterpart.
  for (const throttle of THROTTLES) {
    const ours = (figure: Figure, digits: number) => fixed(m('ours', throttle, figure), digits);
    const only = (label: string, value: string, budget = '') =>
      table.push([`${label}, ${throttle}× CPU`, '', '', value, '', budget]);
    only(
      `users list (${USERS.toLocaleString('en')} users) first row painted ms from navigation`,
      ours('usersRendered', 0),
    );
    only(
      'users list: rows in the DOM / aria-rowcount',
      `${ours('usersDomRows', 0)} / ${ours('usersRowCount', 0)}`,
      `≤ ${b.usersListMaxDomRows}`,
    );
    only('JS heap after the users list MiB', ours('heapAfterUsersMiB', 1));
    only(
      'scrolling the users list: longest long task ms (0 = none)',
      ours('scrollMaxLongTask', 0),
      throttle === 4 ? `≤ ${b.scrollMaxLongTaskMs}` : '',
    );
    only('scrolling the users list: long tasks', ours('scrollLongTasks', 0));
  }
  if (lighthouseRuns > 0) {
    for (const visitor of ['pt-BR light', 'en dark']) {
      const ours = `ours ${visitor}`;
      table.push([
        `Lighthouse mobile performance score, ${visitor} visitor`,
        fixed(l('react-admin', 'performance'), 0),
        '',
        fixed(l(ours, 'performance'), 0),
        '',
        `≥ ${b.lighthouse.performanceMin}`,
      ]);
      table.push([
        `Lighthouse mobile time to interactive ms, ${visitor} visitor`,
        fixed(l('react-admin', 'interactiveMs'), 0),
        '',
        fixed(l(ours, 'interactiveMs'), 0),
        ratioText(ratio(l('react-admin', 'interactiveMs'), l(ours, 'interactiveMs'))),
        `≤ ${b.lighthouse.interactiveMaxMs}`,
      ]);
    }
  }

  const ours4 = (figure: Figure) => m('ours', 4, figure);
  const allOurs = [...(results.get('ours 4x') ?? []), ...(results.get('ours 1x') ?? [])];
  const checks: Check[] = [
    check('page: sign-in LCP at 4× CPU', ours4('lcp'), b.throttledLoginLcpMs, 'ms'),
    check('page: sign-in form interactive at 4× CPU', ours4('formInteractive'), b.throttledFormInteractiveMs, 'ms'),
    check(
      `page: sign-in → ${TENANT_COUNT} rows painted at 4× CPU`,
      ours4('loginToList'),
      b.throttledLoginToListMs,
      'ms',
    ),
    check(
      `page: sign-in → ${TENANT_COUNT} rows painted at 1× CPU`,
      m('ours', 1, 'loginToList'),
      b.loginToListMs1x,
      'ms',
    ),
    check(
      `page: react-admin ÷ ours, sign-in → ${TENANT_COUNT} rows at 4× CPU`,
      ratio(m('react-admin', 4, 'loginToList'), ours4('loginToList')),
      b.loginToListVsReactAdminMin,
      '×',
      'min',
      'ours with the real server and argon2id, react-admin with fake in-memory sign-in',
    ),
    check('page: JS heap after the list at 4× CPU', ours4('heapAfterListMiB'), b.throttledHeapAfterListMiB, 'MiB'),
    check(
      'page: react-admin ÷ ours, JS heap after the list at 4× CPU',
      ratio(m('react-admin', 4, 'heapAfterListMiB'), ours4('heapAfterListMiB')),
      b.heapVsReactAdminMin,
      '×',
      'min',
    ),
    check(
      'page: users list rows in the DOM (10,000 users)',
      allOurs.length ? Math.max(...allOurs.map((r) => r.usersDomRows)) : Number.NaN,
      b.usersListMaxDomRows,
      'rows',
    ),
    check(
      'page: longest long task scrolling the users list at 4× CPU',
      ours4('scrollMaxLongTask'),
      b.scrollMaxLongTaskMs,
      'ms',
    ),
  ];
  if (lighthouseRuns > 0) {
    for (const visitor of ['pt-BR light', 'en dark']) {
      checks.push(
        check(
          `lighthouse: sign-in performance score, ${visitor} visitor`,
          l(`ours ${visitor}`, 'performance'),
          b.lighthouse.performanceMin,
          'points',
          'min',
        ),
      );
      checks.push(
        check(
          `lighthouse: sign-in time to interactive, ${visitor} visitor`,
          l(`ours ${visitor}`, 'interactiveMs'),
          b.lighthouse.interactiveMaxMs,
          'ms',
        ),
      );
    }
  }

  return { table, checks };
}
