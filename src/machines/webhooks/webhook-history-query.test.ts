import fc from 'fast-check';
import { historyHref, historySearch, parseHistoryQuery, sameHistoryQuery } from './webhook-history-query';

describe('the history address', () => {
  it('reads every part and leaves out what is unreadable', () => {
    expect(parseHistoryQuery('tenant=farmacia-central&run=345&endpoint=3&state=failed&type=delivered')).toEqual({
      tenant: 'farmacia-central',
      run: 345,
      endpoint: 3,
      state: 'failed',
      type: 'delivered',
    });
    expect(parseHistoryQuery('run=abc&endpoint=0&state=lost&type=x&tenant=')).toEqual({
      tenant: null,
      run: null,
      endpoint: null,
      state: null,
      type: null,
    });
  });

  it('writes what it reads (round trip)', () => {
    fc.assert(
      fc.property(
        fc.record({
          tenant: fc.option(fc.stringMatching(/^[a-z][a-z0-9-]{0,20}$/), { nil: null }),
          run: fc.option(fc.integer({ min: 1, max: 1e9 }), { nil: null }),
          endpoint: fc.option(fc.integer({ min: 1, max: 1e9 }), { nil: null }),
          state: fc.option(fc.constantFrom('pending', 'sending', 'succeeded', 'failed', 'cancelled' as const), {
            nil: null,
          }),
          type: fc.option(fc.constantFrom('sent', 'delivered', 'read', 'failed', 'replied' as const), { nil: null }),
        }),
        (query) => {
          expect(parseHistoryQuery(historySearch(query))).toEqual(query);
          expect(sameHistoryQuery(query, parseHistoryQuery(historySearch(query)))).toBe(true);
        },
      ),
    );
  });

  it('links to a tenant, a run or an endpoint', () => {
    expect(historyHref('farmacia-central')).toBe('/webhooks?tenant=farmacia-central');
    expect(historyHref('farmacia-central', { run: 7 })).toBe('/webhooks?tenant=farmacia-central&run=7');
    expect(historyHref('farmacia-central', { endpoint: 3 })).toBe('/webhooks?tenant=farmacia-central&endpoint=3');
  });
});
