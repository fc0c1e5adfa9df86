import { describe, expect, it } from 'vitest';
import type { LookupAddress } from 'node:dns';
import { AddressRefused, guardedLookup, hostRefusal, isAllowedAddress } from './addresses';

const strict = { allowLoopback: false };
const dev = { allowLoopback: true };

describe('webhook addresses (docs/webhooks.md, Addresses)', () => {
  it.each([
    '127.0.0.1',
    '127.255.255.254',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '198.18.0.1',
    '::1',
    '::',
    '::ffff:127.0.0.1',
    '::ffff:8.8.8.8',
    '64:ff9b::a00:1',
    '2002:7f00:1::',
    'fc00::1',
    'fd12:3456::1',
    'fe80::1',
    'ff02::1',
    '2001:db8::1',
    'not-an-ip',
    '',
  ])('refuses %s', (address) => {
    expect(isAllowedAddress(address, strict)).toBe(false);
  });

  it.each(['8.8.8.8', '1.1.1.1', '200.147.67.142', '172.32.0.1', '2804:14c::1', '2606:4700:4700::1111'])(
    'allows the public %s',
    (address) => {
      expect(isAllowedAddress(address, strict)).toBe(true);
    },
  );

  it('allows loopback, and only loopback, under the development setting', () => {
    expect(isAllowedAddress('127.0.0.1', dev)).toBe(true);
    expect(isAllowedAddress('::1', dev)).toBe(true);
    expect(isAllowedAddress('0:0:0:0:0:0:0:1', dev)).toBe(true);
    expect(isAllowedAddress('::2', dev)).toBe(false);
    expect(isAllowedAddress('10.0.0.1', dev)).toBe(false);
    expect(isAllowedAddress('169.254.169.254', dev)).toBe(false);
    expect(isAllowedAddress('::ffff:127.0.0.1', dev)).toBe(false);
  });

  it('refuses hosts as written: literals the URL parser normalised, brackets, localhost names', () => {
    // new URL('https://0x7f.1/').hostname is 127.0.0.1; new URL('https://2130706433/').hostname too.
    expect(hostRefusal(new URL('https://0x7f.1/').hostname, strict)).toBe('address_not_public');
    expect(hostRefusal(new URL('https://2130706433/').hostname, strict)).toBe('address_not_public');
    expect(hostRefusal(new URL('https://[::1]/').hostname, strict)).toBe('address_not_public');
    expect(hostRefusal(new URL('https://[::ffff:a9fe:a9fe]/').hostname, strict)).toBe('address_not_public');
    expect(hostRefusal('LOCALHOST.', strict)).toBe('address_not_public');
    expect(hostRefusal('api.localhost', strict)).toBe('address_not_public');
    expect(hostRefusal('localhost', dev)).toBeNull();
    expect(hostRefusal('erp.farmacia.com.br', strict)).toBeNull();
    expect(hostRefusal('8.8.8.8', strict)).toBeNull();
  });

  const lookup = (rules: { allowLoopback: boolean }, answer: LookupAddress[], options: { all?: boolean } = {}) =>
    new Promise<{ error: unknown; address: unknown; family?: number }>((resolve) => {
      guardedLookup(rules, (_host, callback) => callback(null, answer))(
        'example.test',
        options,
        (error, address, family) => resolve({ error, address, family }),
      );
    });

  it('refuses a name when any address it resolves to is not public (a rebinding answer mixes both)', async () => {
    const mixed = await lookup(strict, [
      { address: '93.184.216.34', family: 4 },
      { address: '10.0.0.5', family: 4 },
    ]);
    expect(mixed.error).toBeInstanceOf(AddressRefused);
    const metadata = await lookup(dev, [{ address: '169.254.169.254', family: 4 }]);
    expect(metadata.error).toBeInstanceOf(AddressRefused);
  });

  it('connects to the address it checked, one or all as the socket asks', async () => {
    const one = await lookup(strict, [{ address: '93.184.216.34', family: 4 }]);
    expect(one).toEqual({ error: null, address: '93.184.216.34', family: 4 });
    const all = await lookup(strict, [{ address: '2606:4700::1', family: 6 }], { all: true });
    expect(all.error).toBeNull();
    expect(all.address).toEqual([{ address: '2606:4700::1', family: 6 }]);
  });

  it('resolves localhost names to loopback without DNS, allowed only under the development setting', async () => {
    const refused = await new Promise<unknown>((resolve) => {
      guardedLookup(strict, () => {
        throw new Error('DNS asked');
      })('localhost', {}, (error) => resolve(error));
    });
    expect(refused).toBeInstanceOf(AddressRefused);
    const allowed = await new Promise<unknown>((resolve) => {
      guardedLookup(dev, () => {
        throw new Error('DNS asked');
      })('localhost', { family: 4 }, (_e, address) => resolve(address));
    });
    expect(allowed).toBe('127.0.0.1');
  });
});
