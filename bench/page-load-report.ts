import { TENANT_COUNT } from './peers/tenants-data.mjs';
import { check, fixed, median, type Check } from './lib/report';
import { LIGHTHOUSE_PAGES, THROTTLES, USERS } from './page-load-plan';
import type { AppKey } from './page-load-plan';
import type { Figure, RunResult } from './page-load-browser';
import type { LighthouseFigures } from './page-load-lighthouse';

export interface PageLoadBudgets {
  throttledLoginLcpMs: number;
  throttledFormInteractiveMs: number;
  throttledLoginToListMs: number;
  loginToListMs1x: number;
  /** react-admin's sign-in → 100 rows at 4× over ours: at least this. */
  loginToListVsReactAdminMin: number;
  /** The same at 1×: at least this. */
  loginToListVsReactAdminMin1x: number;
  throttledHeapAfterListMiB: number;
  /** react-admin's heap after the list over ours: at least this. */
  heapVsReactAdminMin: number;
  usersListMaxDomRows: number;
  scrollMaxLongTaskMs: number;
  /** On every page Lighthouse visits (LIGHTHOUSE_PAGES in ./page-load-plan.ts). */
  lighthouse: { performanceMin: number; totalBlockingMaxMs: number; interactiveMaxMs: number };
}

/**
 * "ours vs react-admin": above 1× ours is better. For a time or a size that is react-admin's figure ÷
 * ours; for a score (higher is better) ours ÷ react-admin's. NaN when either is missing; Infinity when
 * ours is 0 and react-admin's is not (a total blocking time of none).
 */
export function versusReactAdmin(reactAdmin: number, ours: number, better: 'lower' | 'higher' = 'lower'): number {
  if (!Number.isFinite(reactAdmin) || !Number.isFinite(ours)) return Number.NaN;
  const [num, den] = better === 'lower' ? [reactAdmin, ours] : [ours, reactAdmin];
  if (den === 0) return num === 0 ? 1 : Number.POSITIVE_INFINITY;
  return num / den;
}

export function ratioText(ratio: number): string {
  if (ratio === Number.POSITIVE_INFINITY) return '∞× (ours 0)';
  return Number.isFinite(ratio) ? `${ratio.toFixed(2)}×` : '—';
}

const LIGHTHOUSE_FIGURES: {
  figure: Exclude<keyof LighthouseFigures, 'longTasks'>;
  label: string;
  better: 'lower' | 'higher';
}[] = [
  { figure: 'performance', label: 'Lighthouse performance score', better: 'higher' },
  { figure: 'totalBlockingMs', label: 'Lighthouse total blocking time ms', better: 'lower' },
  { figure: 'interactiveMs', label: 'Lighthouse time to interactive ms', better: 'lower' },
  { figure: 'largestPaintMs', label: 'Lighthouse LCP ms', better: 'lower' },
];

/**
 * The comparison table (react-admin, refine, ours, ours vs react-admin, budget) and the budget checks,
 * from the medians of the runs and of Lighthouse. Every figure that react-admin has too carries its
 * ratio; the panel's users list has no peer page (its ratio cell says so).
 */
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
  const l = (slot: string, figure: Exclude<keyof LighthouseFigures, 'longTasks'>) =>
    median((lh.get(slot) ?? []).map((r) => r[figure]).filter(Number.isFinite));
  const b = input.budgets;
  const table = [
    [`figure (median of ${runs})`, 'react-admin', 'refine', 'ours', 'ours vs react-admin', 'budget (ours)'],
  ];
  const row = (label: string, figure: Figure, throttle: number, digits: number, budget = '') => {
    const [ra, rf, ours] = [
      m('react-admin', throttle, figure),
      m('refine', throttle, figure),
      m('ours', throttle, figure),
    ];
    table.push([
      `${label}, ${throttle}× CPU`,
      fixed(ra, digits),
      fixed(rf, digits),
      fixed(ours, digits),
      ratioText(versusReactAdmin(ra, ours)),
      budget,
    ]);
  };
  const rows = `sign-in → ${TENANT_COUNT} rows painted`;
  for (const throttle of THROTTLES) {
    const at4 = throttle === 4;
    row('sign-in page FCP ms', 'fcp', throttle, 0);
    row('sign-in page LCP ms', 'lcp', throttle, 0, at4 ? `≤ ${b.throttledLoginLcpMs}` : '');
    row('sign-in form interactive ms', 'formInteractive', throttle, 0, at4 ? `≤ ${b.throttledFormInteractiveMs}` : '');
    row('sign-in form ready to send (submit enabled) ms', 'formReady', throttle, 0);
    row(
      `${rows} ms`,
      'loginToList',
      throttle,
      0,
      at4
        ? `≤ ${b.throttledLoginToListMs}, ratio ≥ ${b.loginToListVsReactAdminMin}`
        : `≤ ${b.loginToListMs1x}, ratio ≥ ${b.loginToListVsReactAdminMin1x}`,
    );
    row(
      'JS heap after the list MiB (after GC)',
      'heapAfterListMiB',
      throttle,
      1,
      at4 ? `≤ ${b.throttledHeapAfterListMiB}, ratio ≥ ${b.heapVsReactAdminMin}` : '',
    );
  }
  if (lighthouseRuns > 0) {
    for (const page of LIGHTHOUSE_PAGES) {
      for (const { figure, label, better } of LIGHTHOUSE_FIGURES) {
        const [ra, ours] = [l(page.reference, figure), l(page.slot, figure)];
        const budget =
          figure === 'performance'
            ? `≥ ${b.lighthouse.performanceMin}`
            : figure === 'totalBlockingMs'
              ? `≤ ${b.lighthouse.totalBlockingMaxMs}`
              : figure === 'interactiveMs'
                ? `≤ ${b.lighthouse.interactiveMaxMs}`
                : '';
        table.push([
          `${label}, ${page.label} (median of ${lighthouseRuns})`,
          fixed(ra, 0),
          '',
          fixed(ours, 0),
          ratioText(versusReactAdmin(ra, ours, better)),
          budget,
        ]);
      }
    }
  }
  // The panel's own pages: no peer counterpart.
  for (const throttle of THROTTLES) {
    const ours = (figure: Figure, digits: number) => fixed(m('ours', throttle, figure), digits);
    const only = (label: string, value: string, budget = '') =>
      table.push([`${label}, ${throttle}× CPU`, '', '', value, 'no peer page', budget]);
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

  const ours4 = (figure: Figure) => m('ours', 4, figure);
  const allOurs = [...(results.get('ours 4x') ?? []), ...(results.get('ours 1x') ?? [])];
  const fakeSignIn = 'ours with the real server and argon2id, react-admin with fake in-memory sign-in';
  const checks: Check[] = [
    check('page: sign-in LCP at 4× CPU', ours4('lcp'), b.throttledLoginLcpMs, 'ms'),
    check('page: sign-in form interactive at 4× CPU', ours4('formInteractive'), b.throttledFormInteractiveMs, 'ms'),
    check(`page: ${rows} at 4× CPU`, ours4('loginToList'), b.throttledLoginToListMs, 'ms'),
    check(`page: ${rows} at 1× CPU`, m('ours', 1, 'loginToList'), b.loginToListMs1x, 'ms'),
    check(
      `page: react-admin ÷ ours, ${rows} at 4× CPU`,
      versusReactAdmin(m('react-admin', 4, 'loginToList'), ours4('loginToList')),
      b.loginToListVsReactAdminMin,
      '×',
      'min',
      fakeSignIn,
    ),
    check(
      `page: react-admin ÷ ours, ${rows} at 1× CPU`,
      versusReactAdmin(m('react-admin', 1, 'loginToList'), m('ours', 1, 'loginToList')),
      b.loginToListVsReactAdminMin1x,
      '×',
      'min',
      fakeSignIn,
    ),
    check('page: JS heap after the list at 4× CPU', ours4('heapAfterListMiB'), b.throttledHeapAfterListMiB, 'MiB'),
    check(
      'page: react-admin ÷ ours, JS heap after the list at 4× CPU',
      versusReactAdmin(m('react-admin', 4, 'heapAfterListMiB'), ours4('heapAfterListMiB')),
      b.heapVsReactAdminMin,
      '×',
      'min',
    ),
    check(
      `page: users list rows in the DOM (${USERS.toLocaleString('en')} users)`,
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
    for (const page of LIGHTHOUSE_PAGES) {
      checks.push(
        check(
          `lighthouse: performance score, ${page.label}`,
          l(page.slot, 'performance'),
          b.lighthouse.performanceMin,
          'points',
          'min',
        ),
        check(
          `lighthouse: total blocking time, ${page.label}`,
          l(page.slot, 'totalBlockingMs'),
          b.lighthouse.totalBlockingMaxMs,
          'ms',
        ),
        check(
          `lighthouse: time to interactive, ${page.label}`,
          l(page.slot, 'interactiveMs'),
          b.lighthouse.interactiveMaxMs,
          'ms',
        ),
      );
    }
  }

  return { table, checks };
}

/**
 * For the notes: each of our Lighthouse pages' long tasks in its run of median total blocking time
 * (Lighthouse's simulated times), so a missed blocking-time budget says which scripts to look at.
 */
export function lighthouseLongTasks(lh: Map<string, LighthouseFigures[]>, top = 5): string[] {
  const notes: string[] = [];
  for (const page of LIGHTHOUSE_PAGES) {
    const runs = [...(lh.get(page.slot) ?? [])].sort((a, b) => a.totalBlockingMs - b.totalBlockingMs);
    const mid = runs[Math.floor((runs.length - 1) / 2)];
    if (!mid) continue;
    const tasks = mid.longTasks.slice(0, top);
    notes.push(
      `Lighthouse long tasks, ${page.label} (run of median TBT ${fixed(mid.totalBlockingMs, 0)} ms): ${tasks.length ? tasks.join('; ') : 'none'}`,
    );
  }
  return notes;
}
