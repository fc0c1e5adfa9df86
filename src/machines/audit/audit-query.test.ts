import {
  activeAuditFilters,
  auditApiQuery,
  auditEventMatches,
  auditQueryProblem,
  defaultAuditQuery,
  parseAuditQuery,
  parseId,
  serializeAuditQuery,
} from './audit-query';

const now = new Date(2026, 10, 26, 10, 0);

describe('audit query', () => {
  it('counts the filters that differ from the defaults, the period once', () => {
    expect(activeAuditFilters(defaultAuditQuery(now), now)).toBe(0);
    expect(activeAuditFilters(parseAuditQuery('from=2026-11-01&to=2026-11-07', now), now)).toBe(1);
    expect(activeAuditFilters(parseAuditQuery('actorId=3&targetType=tenant&targetId=2', now), now)).toBe(3);
    expect(
      activeAuditFilters(parseAuditQuery('from=2026-11-01&actorId=3&tenantId=2&operation=tenant.plan', now), now),
    ).toBe(4);
  });

  it('defaults to the last 7 days, today included, everything else open', () => {
    expect(defaultAuditQuery(now)).toEqual({
      from: '2026-11-20',
      to: '2026-11-26',
      actorId: null,
      tenantId: null,
      operation: null,
      targetType: null,
      targetId: null,
    });
    expect(serializeAuditQuery(defaultAuditQuery(now), now)).toBe('');
  });

  it('round-trips the filters through the address and drops what is malformed', () => {
    const search =
      'from=2026-11-01&to=2026-11-07&actorId=3&tenantId=2&operation=tenant.plan&targetType=tenant&targetId=2';
    const query = parseAuditQuery(search, now);
    expect(query).toEqual({
      from: '2026-11-01',
      to: '2026-11-07',
      actorId: 3,
      tenantId: 2,
      operation: 'tenant.plan',
      targetType: 'tenant',
      targetId: 2,
    });
    expect(serializeAuditQuery(query, now)).toBe(search);
    expect(
      parseAuditQuery('from=2026-02-30&to=x&actorId=-1&tenantId=1.5&operation=drop&targetType=table&targetId=0', now),
    ).toEqual(defaultAuditQuery(now));
  });

  it('ids are positive integers within the contract', () => {
    expect(parseId(' 42 ')).toBe(42);
    for (const bad of ['', 'abc', '0', '-3', '1e3', '2.5', '99999999999']) expect(parseId(bad)).toBeNull();
  });

  it('refuses a reversed period and a target id without a type', () => {
    expect(auditQueryProblem(defaultAuditQuery(now))).toBeNull();
    expect(auditQueryProblem({ ...defaultAuditQuery(now), from: '2026-11-27' })).toBe('audit.errors.range');
    expect(auditQueryProblem({ ...defaultAuditQuery(now), to: '' })).toBe('audit.errors.range');
    expect(auditQueryProblem({ ...defaultAuditQuery(now), targetId: 3 })).toBe('audit.errors.targetId');
    expect(auditQueryProblem({ ...defaultAuditQuery(now), targetId: 3, targetType: 'user' })).toBeNull();
  });

  it('sends the days as instants from the first midnight to the midnight after the last day', () => {
    const api = auditApiQuery({ ...defaultAuditQuery(now), operation: 'user.create', actorId: 4 }, { after: '99' });
    expect(api).toEqual({
      from: new Date(2026, 10, 20).toISOString(),
      to: new Date(2026, 10, 27).toISOString(),
      actorId: 4,
      operation: ['user.create'],
      after: '99',
      limit: 50,
    });
  });

  it('a live record matches unless the filters exclude it', () => {
    const query = { ...defaultAuditQuery(now), operation: 'tenant.plan' as const };
    const event = { at: now.toISOString(), operation: 'tenant.plan', targetType: 'tenant', targetId: 2 };
    expect(auditEventMatches(query, event)).toBe(true);
    expect(auditEventMatches(query, { ...event, operation: 'user.create' })).toBe(false);
    expect(auditEventMatches({ ...query, targetType: 'user' }, event)).toBe(false);
    expect(auditEventMatches({ ...query, targetType: 'tenant', targetId: 3 }, event)).toBe(false);
    expect(auditEventMatches({ ...query, to: '2026-11-25' }, event)).toBe(false);
  });
});
