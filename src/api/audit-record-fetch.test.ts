import { createRecentAuditRecords, noteAuditRecords, RECENT_RECORD_MS } from './audit-record-fetch';

describe('recent audit records', () => {
  it('offers the newest noted record once, and none once it went stale', () => {
    let now = 1000;
    const records = createRecentAuditRecords(() => now);
    expect(records.take()).toBeNull();
    records.note(7);
    records.note(8);
    expect(records.take()).toBe(8);
    expect(records.take()).toBeNull();
    records.note(9);
    now += RECENT_RECORD_MS + 1;
    expect(records.take()).toBeNull();
  });

  it('the REST fetch notes x-audit-record of successful answers only', async () => {
    const records = createRecentAuditRecords();
    const answers = [
      new Response('{}', { status: 200, headers: { 'x-audit-record': '41' } }),
      new Response('{}', { status: 409, headers: { 'x-audit-record': '42' } }),
      new Response('{}', { status: 200, headers: { 'x-audit-record': 'abc' } }),
    ];
    const fetch = noteAuditRecords(() => Promise.resolve(answers.shift() ?? new Response('{}')), records);
    await fetch(new Request('http://api.test/api/users/1', { method: 'PUT' }));
    expect(records.take()).toBe(41);
    await fetch(new Request('http://api.test/api/users/1', { method: 'PUT' }));
    expect(records.take()).toBeNull();
    await fetch(new Request('http://api.test/api/users/1', { method: 'PUT' }));
    expect(records.take()).toBeNull();
  });
});
