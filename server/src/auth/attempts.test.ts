import { addressKey, backoffMs, retryAfter, type Failures, type ThrottleLimits } from './attempts';

/**
 * The throttle's arithmetic (server/src/auth/attempts.ts): which key an address is counted by, how the
 * per-account back-off grows, and what Retry-After each limit gives. Bursts, engines and the
 * reservations themselves: server/src/auth/login-throttle.test.ts.
 */
describe('addressKey', () => {
  it('keeps an IPv4 address as it is', () => {
    expect(addressKey('203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('10.0.0.1')).toBe('10.0.0.1');
  });

  it('counts an IPv4-mapped IPv6 address as its IPv4, in either spelling', () => {
    expect(addressKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('::FFFF:203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('::ffff:cb00:7107')).toBe('203.0.113.7');
    expect(addressKey('0:0:0:0:0:ffff:cb00:7107')).toBe('203.0.113.7');
  });

  it('counts any other IPv6 address by its /64, whatever its spelling', () => {
    const key = '2001:db8:0:1::/64';
    for (const address of [
      '2001:db8:0:1::1',
      '2001:db8:0:1:ffff:ffff:ffff:ffff',
      '2001:0DB8:0000:0001:0000:0000:0000:0002',
      '2001:db8::1:0:0:0:3',
      '2001:db8:0:1::5%eth0',
      '2001:db8:0:1::192.0.2.1',
    ])
      expect(addressKey(address), address).toBe(key);
    expect(addressKey('2001:db8:0:2::1')).toBe('2001:db8:0:2::/64');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
    expect(addressKey('fe80::1')).toBe('fe80:0:0:0::/64');
    // IPv4-compatible (deprecated) and NAT64 addresses are not mapped: their /64 like any other.
    expect(addressKey('64:ff9b::203.0.113.7')).toBe('64:ff9b:0:0::/64');
  });

  it('leaves anything that is not an address as it is', () => {
    expect(addressKey('')).toBe('');
    expect(addressKey('proxy.local')).toBe('proxy.local');
    expect(addressKey('2001:db8::1::2')).toBe('2001:db8::1::2');
  });
});

const LIMITS: ThrottleLimits = {
  loginMaxFailures: 10,
  loginMaxFailuresPerAddress: 50,
  loginMaxFailuresPerAccount: 20,
  loginBackoffSeconds: 1,
  loginWindowSeconds: 900,
};

describe('backoffMs', () => {
  it('is nothing below the ceiling, then doubles per failure past it, at most the window', () => {
    expect(backoffMs(LIMITS, 0)).toBe(0);
    expect(backoffMs(LIMITS, 19)).toBe(0);
    const waits = Array.from({ length: 13 }, (_, i) => backoffMs(LIMITS, 20 + i) / 1000);
    expect(waits).toEqual([1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 900, 900, 900]);
    expect(backoffMs({ ...LIMITS, loginBackoffSeconds: 5 }, 22)).toBe(20_000);
    // No overflow however many failures.
    expect(backoffMs(LIMITS, 1e9)).toBe(900_000);
  });
});

describe('retryAfter', () => {
  const now = 1_000_000_000;
  const none: Failures = { n: 0, oldest: null, newest: null };
  const of = (n: number, oldestAgo: number, newestAgo = 0): Failures => ({
    n,
    oldest: now - oldestAgo * 1000,
    newest: now - newestAgo * 1000,
  });

  it('accepts below every limit', () => {
    expect(retryAfter(LIMITS, { pair: none, address: none, account: none }, now)).toBeNull();
    expect(retryAfter(LIMITS, { pair: of(9, 100), address: of(49, 100), account: of(19, 100) }, now)).toBeNull();
  });

  it('refuses a pair or an address at its limit until the oldest failure leaves the window', () => {
    expect(retryAfter(LIMITS, { pair: of(10, 100), address: of(10, 100), account: of(10, 100) }, now)).toBe(800);
    expect(retryAfter(LIMITS, { pair: of(1, 100), address: of(50, 300), account: of(1, 100) }, now)).toBe(600);
  });

  it('past the account ceiling, refuses until the back-off after the newest failure, the longest wait winning', () => {
    expect(retryAfter(LIMITS, { pair: none, address: none, account: of(23, 500, 2) }, now)).toBe(6);
    expect(retryAfter(LIMITS, { pair: none, address: none, account: of(23, 500, 9) }, now)).toBeNull();
    expect(retryAfter(LIMITS, { pair: of(10, 850), address: none, account: of(30, 850, 0) }, now)).toBe(900);
  });

  it('never answers less than a second', () => {
    const justOver = { n: 20, oldest: now - 1000, newest: now - 999.5 };
    expect(retryAfter(LIMITS, { pair: none, address: none, account: justOver }, now)).toBe(1);
  });
});
