import fc from 'fast-check';
import {
  addDays,
  ALL_TENANTS_PARAM,
  defaultRange,
  intervalFor,
  isoDateIn,
  MAX_RANGE_DAYS,
  parseDashboardQuery,
  PERIOD_PRESETS,
  presetOf,
  presetRange,
  previousRange,
  rangeDays,
  rangeProblem,
  serializeDashboardQuery,
  type DashboardQuery,
} from './dashboard-query';

const defaults: DashboardQuery = { startAt: '2026-10-23', finishAt: '2026-11-21', tenant: null };

// Days from 1990 to 2090, ranges of 1–366 days, tenants as the contract's slugs (or every tenant).
const dayArb = fc.integer({ min: 0, max: 36_500 }).map((n) => addDays('1990-01-01', n));
const tenantArb = fc.oneof(
  fc.constant(null),
  fc.stringMatching(/^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/),
  fc.constantFrom('farmacia-central', 'backoffice', 'all', 'x'),
);
const queryArb: fc.Arbitrary<DashboardQuery> = fc
  .record({ startAt: dayArb, length: fc.integer({ min: 1, max: MAX_RANGE_DAYS }), tenant: tenantArb })
  .map(({ startAt, length, tenant }) => ({ startAt, finishAt: addDays(startAt, length - 1), tenant }));

describe('dashboard query in the address', () => {
  it('round-trips any valid filters under any defaults (1000 runs)', () => {
    fc.assert(
      fc.property(queryArb, queryArb, (query, base) => {
        const search = serializeDashboardQuery(query, base);
        expect(parseDashboardQuery(search, base)).toEqual(query);
        expect(parseDashboardQuery(`?${search}`, base)).toEqual(query);
      }),
      { numRuns: 1000 },
    );
  });

  it('reads any string as valid filters, and writes them back canonically (1000 runs)', () => {
    const junk = fc.oneof(
      fc.string(),
      fc
        .record({
          from: fc.oneof(dayArb, fc.string()),
          to: fc.oneof(dayArb, fc.string()),
          tenant: fc.oneof(tenantArb, fc.string()),
        })
        .map((r) => {
          const params = new URLSearchParams();
          params.set('from', r.from);
          params.set('to', r.to);
          params.set('tenant', r.tenant ?? ALL_TENANTS_PARAM);
          return params.toString();
        }),
    );
    fc.assert(
      fc.property(junk, queryArb, (search, base) => {
        const query = parseDashboardQuery(search, base);
        expect(rangeProblem(query.startAt, query.finishAt)).toBeNull();
        expect(query.tenant === null || /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/.test(query.tenant)).toBe(true);
        const canonical = serializeDashboardQuery(query, base);
        expect(serializeDashboardQuery(parseDashboardQuery(canonical, base), base)).toBe(canonical);
      }),
      { numRuns: 1000 },
    );
  });

  it('leaves defaults out and falls back on a bad range as a whole', () => {
    expect(serializeDashboardQuery(defaults, defaults)).toBe('');
    expect(serializeDashboardQuery({ ...defaults, tenant: 'farmacia-central' }, defaults)).toBe(
      'tenant=farmacia-central',
    );
    expect(serializeDashboardQuery(defaults, { ...defaults, tenant: 'farmacia-central' })).toBe('tenant=*');
    expect(serializeDashboardQuery({ ...defaults, startAt: '2026-11-01' }, defaults)).toBe(
      'from=2026-11-01&to=2026-11-21',
    );
    expect(parseDashboardQuery('from=2026-11-30&to=2026-11-01&tenant=Farmácia', defaults)).toEqual(defaults);
    expect(parseDashboardQuery('from=2026-02-30&to=2026-03-01', defaults)).toEqual(defaults);
    expect(parseDashboardQuery('from=2025-01-01&to=2026-01-02', defaults)).toEqual(defaults);
    expect(parseDashboardQuery('from=2025-01-01&to=2026-01-01', defaults)).toEqual({
      ...defaults,
      startAt: '2025-01-01',
      finishAt: '2026-01-01',
    });
  });
});

describe('dashboard ranges', () => {
  it('defaults to the last 30 days, today included, in São Paulo', () => {
    expect(defaultRange('2026-03-01')).toEqual({ startAt: '2026-01-31', finishAt: '2026-03-01' });
    expect(rangeDays('2026-01-31', '2026-03-01')).toBe(30);
    // 02:30 UTC on 21 Nov is still 20 Nov in São Paulo (UTC−3).
    expect(isoDateIn(new Date('2026-11-21T02:30:00Z'))).toBe('2026-11-20');
    expect(isoDateIn(new Date('2026-11-21T03:30:00Z'))).toBe('2026-11-21');
  });

  it('compares with the period of the same length just before', () => {
    expect(previousRange({ startAt: '2026-11-01', finishAt: '2026-11-30' })).toEqual({
      startAt: '2026-10-02',
      finishAt: '2026-10-31',
    });
    expect(previousRange({ startAt: '2024-03-01', finishAt: '2024-03-01' })).toEqual({
      startAt: '2024-02-29',
      finishAt: '2024-02-29',
    });
    expect(previousRange({ startAt: '0001-01-01', finishAt: '0001-01-05' })).toBeNull();
  });

  it('refuses reversed, impossible and over-long ranges, and picks a bucket by length', () => {
    expect(rangeProblem('2026-11-02', '2026-11-01')).toBe('invalid');
    expect(rangeProblem('2026-11-31', '2026-12-01')).toBe('invalid');
    expect(rangeProblem('2024-01-01', '2024-12-31')).toBeNull(); // 366 days, leap year
    expect(rangeProblem('2025-01-01', '2026-01-02')).toBe('tooLong');
    expect(intervalFor({ startAt: '2026-01-01', finishAt: '2026-03-03' })).toBe('day'); // 62 days
    expect(intervalFor({ startAt: '2026-01-01', finishAt: '2026-03-04' })).toBe('week');
    expect(intervalFor({ startAt: '2026-01-01', finishAt: '2026-07-02' })).toBe('week'); // 183 days
    expect(intervalFor({ startAt: '2026-01-01', finishAt: '2026-07-03' })).toBe('month');
  });
});

describe('period presets', () => {
  it('cover the days they say, and are recognised from a range', () => {
    expect(presetRange('last7', '2026-03-01')).toEqual({ startAt: '2026-02-23', finishAt: '2026-03-01' });
    expect(presetRange('last90', '2026-03-01')).toEqual({ startAt: '2025-12-02', finishAt: '2026-03-01' });
    expect(presetRange('thisMonth', '2026-03-15')).toEqual({ startAt: '2026-03-01', finishAt: '2026-03-15' });
    expect(presetRange('lastMonth', '2024-03-15')).toEqual({ startAt: '2024-02-01', finishAt: '2024-02-29' });
    expect(presetRange('lastMonth', '2026-01-10')).toEqual({ startAt: '2025-12-01', finishAt: '2025-12-31' });
    expect(presetOf({ startAt: '2026-02-01', finishAt: '2026-03-02' }, '2026-03-02')).toBe('last30');
    expect(presetOf({ startAt: '2026-02-02', finishAt: '2026-03-02' }, '2026-03-02')).toBeNull();
  });

  it('are valid ranges that map back to themselves (or an earlier preset with the same days) on any day (1000 runs)', () => {
    fc.assert(
      fc.property(dayArb, fc.constantFrom(...PERIOD_PRESETS), (today, preset) => {
        const range = presetRange(preset, today);
        expect(rangeProblem(range.startAt, range.finishAt)).toBeNull();
        const found = presetOf(range, today);
        expect(found).not.toBeNull();
        expect(presetRange(found!, today)).toEqual(range);
      }),
      { numRuns: 1000 },
    );
  });
});
