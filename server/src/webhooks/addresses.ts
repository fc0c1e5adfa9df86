import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/**
 * Where a webhook may be sent (docs/webhooks.md, Addresses): only to public addresses, so a tenant's
 * endpoint cannot make the server call itself, its database, the cloud's metadata service or anything
 * else on a private network. Checked twice: when an endpoint is registered or changed (the address as
 * written: an IP literal, `localhost`) and at every send, on the addresses the host resolves to at that
 * moment (`guardedLookup`), the connection then going to the address that was checked (no second
 * resolution a DNS rebinding could answer differently). Redirects are never followed.
 *
 * Conservative on purpose: IPv4-mapped, NAT64 and 6to4 IPv6 forms, which embed an IPv4 address, are
 * refused whole rather than decoded.
 */

/** Non-public ranges (IANA special-purpose registries; RFC 6890 and its updates). */
const NON_PUBLIC: ReadonlyArray<readonly [string, number, 'ipv4' | 'ipv6']> = [
  ['0.0.0.0', 8, 'ipv4'], // "this network"
  ['10.0.0.0', 8, 'ipv4'], // private
  ['100.64.0.0', 10, 'ipv4'], // shared address space (carrier-grade NAT)
  ['127.0.0.0', 8, 'ipv4'], // loopback
  ['169.254.0.0', 16, 'ipv4'], // link-local, the cloud metadata services (169.254.169.254)
  ['172.16.0.0', 12, 'ipv4'], // private
  ['192.0.0.0', 24, 'ipv4'], // IETF protocol assignments
  ['192.0.2.0', 24, 'ipv4'], // documentation
  ['192.88.99.0', 24, 'ipv4'], // 6to4 relay anycast
  ['192.168.0.0', 16, 'ipv4'], // private
  ['198.18.0.0', 15, 'ipv4'], // benchmarking
  ['198.51.100.0', 24, 'ipv4'], // documentation
  ['203.0.113.0', 24, 'ipv4'], // documentation
  ['224.0.0.0', 4, 'ipv4'], // multicast
  ['240.0.0.0', 4, 'ipv4'], // reserved, broadcast
  ['::', 128, 'ipv6'], // unspecified
  ['::1', 128, 'ipv6'], // loopback
  ['::ffff:0:0', 96, 'ipv6'], // IPv4-mapped
  ['::', 96, 'ipv6'], // IPv4-compatible (deprecated)
  ['64:ff9b::', 96, 'ipv6'], // NAT64
  ['64:ff9b:1::', 48, 'ipv6'], // local-use NAT64
  ['100::', 64, 'ipv6'], // discard-only
  ['2001::', 23, 'ipv6'], // IETF protocol assignments (Teredo, ORCHIDv2…)
  ['2001:db8::', 32, 'ipv6'], // documentation
  ['2002::', 16, 'ipv6'], // 6to4
  ['3fff::', 20, 'ipv6'], // documentation
  ['5f00::', 16, 'ipv6'], // segment routing SIDs
  ['fc00::', 7, 'ipv6'], // unique local
  ['fe80::', 10, 'ipv6'], // link-local
  ['fec0::', 10, 'ipv6'], // site-local (deprecated)
  ['ff00::', 8, 'ipv6'], // multicast
];

// One list per family, each address checked against its own family's only: a BlockList matches an IPv4
// address against IPv6 rules through its mapped form (so `::/96` would hold every IPv4 address).
const listOf = (family: 'ipv4' | 'ipv6') => {
  const list = new BlockList();
  for (const [network, prefix, f] of NON_PUBLIC) if (f === family) list.addSubnet(network, prefix, f);
  return list;
};
const nonPublicV4 = listOf('ipv4');
const nonPublicV6 = listOf('ipv6');
const loopbackV4 = new BlockList();
loopbackV4.addSubnet('127.0.0.0', 8, 'ipv4');
const loopbackV6 = new BlockList();
loopbackV6.addAddress('::1', 'ipv6');

export interface AddressRules {
  /** WEBHOOK_ALLOW_LOOPBACK (server/src/base/config.ts): development and tests only. */
  allowLoopback: boolean;
}

/** Whether a webhook may be sent to this IP address (v4 or v6 text); false for anything that is not one. */
export function isAllowedAddress(address: string, rules: AddressRules): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  if (family === 4)
    return (rules.allowLoopback && loopbackV4.check(address, 'ipv4')) || !nonPublicV4.check(address, 'ipv4');
  if (rules.allowLoopback && loopbackV6.check(address, 'ipv6')) return true;
  return !nonPublicV6.check(address, 'ipv6');
}

/** A URL's hostname without IPv6 brackets or a final dot, lower case. */
export function bareHost(hostname: string): string {
  const host = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return host.replace(/\.$/, '').toLowerCase();
}

const isLocalhostName = (host: string) => host === 'localhost' || host.endsWith('.localhost');

/**
 * Why a host as written may not receive webhooks, or null: an IP literal that is not public, or
 * `localhost` (a name every resolver answers with loopback). Other names are checked when resolved.
 */
export function hostRefusal(hostname: string, rules: AddressRules): 'address_not_public' | null {
  const host = bareHost(hostname);
  if (isIP(host) !== 0) return isAllowedAddress(host, rules) ? null : 'address_not_public';
  if (isLocalhostName(host)) return rules.allowLoopback ? null : 'address_not_public';
  return null;
}

/** The error a refused resolution fails the connection with: the attempt is recorded as `address_refused`. */
export class AddressRefused extends Error {
  readonly code = 'WEBHOOK_ADDRESS_REFUSED';
  constructor(
    readonly host: string,
    readonly addresses: readonly string[],
  ) {
    super(`webhook host ${host} resolves to an address that is not public`);
  }
}

type Resolve = (
  hostname: string,
  callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

const systemResolve: Resolve = (hostname, callback) => dnsLookup(hostname, { all: true, verbatim: true }, callback);

/**
 * A `lookup` for `http(s).request` that resolves the host once and refuses the connection unless every
 * address it resolves to is allowed; the socket then connects to the checked addresses. `localhost` names
 * resolve to loopback only, without asking DNS. IP literals never reach a lookup: check them with
 * `hostRefusal` before sending.
 */
export function guardedLookup(rules: AddressRules, resolve: Resolve = systemResolve): LookupFunction {
  return (hostname, options, callback) => {
    const host = bareHost(hostname);
    const done = (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => {
      if (error) return callback(error, '', 0);
      if (addresses.length === 0)
        return callback(Object.assign(new Error(`no address for ${host}`), { code: 'ENOTFOUND' }), '', 0);
      if (!addresses.every((a) => isAllowedAddress(a.address, rules)))
        return callback(
          new AddressRefused(
            host,
            addresses.map((a) => a.address),
          ),
          '',
          0,
        );
      const wanted = options.family === 4 || options.family === 6 ? options.family : 0;
      const usable = wanted === 0 ? addresses : addresses.filter((a) => a.family === wanted);
      if (usable.length === 0)
        return callback(
          Object.assign(new Error(`no IPv${String(wanted)} address for ${host}`), { code: 'ENOTFOUND' }),
          '',
          0,
        );
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, usable);
      const first = usable[0]!;
      return callback(null, first.address, first.family);
    };
    if (isLocalhostName(host))
      return done(null, [
        { address: '127.0.0.1', family: 4 },
        { address: '::1', family: 6 },
      ]);
    resolve(host, done);
  };
}
