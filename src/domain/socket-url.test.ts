import fc from 'fast-check';
import { buildSocketUrl, reconnectDelay } from './socket-url';

const creds = { tenantName: 'farmácia central', userId: 2, ticket: 'a-b_c+d' };

describe('buildSocketUrl (socket.md §1.1)', () => {
  it.each([
    ['/ws', 'https://panel.example.com/t/users', 'wss://panel.example.com/ws?'],
    ['/ws', 'http://127.0.0.1:8080/t/', 'ws://127.0.0.1:8080/ws?'],
    ['wss://rt.example.com/socket', 'http://127.0.0.1:8080/t/', 'wss://rt.example.com/socket?'],
    ['https://rt.example.com/socket?v=2', 'http://127.0.0.1:8080/t/', 'wss://rt.example.com/socket?v=2&'],
    ['http://rt.example.com/', 'https://panel.example.com/', 'ws://rt.example.com/?'],
    ['', 'https://panel.example.com/', 'wss://panel.example.com/ws?'],
  ])('%s on %s', (setting, page, prefix) => {
    expect(buildSocketUrl(setting, page, creds)).toBe(
      `${prefix}tenantName=farm%C3%A1cia+central&userId=2&ticket=a-b_c%2Bd`,
    );
  });

  it('refuses other schemes', () => {
    expect(() => buildSocketUrl('ftp://x/', 'https://panel.example.com/', creds)).toThrow(/scheme/);
  });
});

describe('reconnectDelay (socket.md §4.3)', () => {
  it('is exactly 1000 ms for the first attempt, whatever the random source', () => {
    expect(reconnectDelay(1, () => 0)).toBe(1000);
    expect(reconnectDelay(1, () => 0.99)).toBe(1000);
  });

  it('stays within [0, min(30000, 1000·2^(n−1))] for later attempts', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 2000 }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (attempt, r) => {
          const delay = reconnectDelay(attempt, () => r);
          expect(delay).toBeGreaterThanOrEqual(0);
          expect(delay).toBeLessThanOrEqual(Math.min(30000, 1000 * 2 ** (attempt - 1)));
        },
      ),
      { numRuns: 1000 },
    );
    expect(reconnectDelay(6, () => 0.999999)).toBe(30000);
  });
});
