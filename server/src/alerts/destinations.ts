/**
 * Where a channel may send: http(s) URLs on public addresses. A URL on a loopback, private,
 * link-local or otherwise internal address is refused (a console user must not make the server
 * call its own network): at creation, and again as each delivery's connection opens, on the
 * address it connects to, so a name that resolves inward later (DNS rebinding) is refused too.
 * `alerts.allowPrivateUrls` lifts this, for demos and networks that mean it.
 */
import { lookup } from 'node:dns/promises';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { Agent, type Dispatcher } from 'undici';
import { unprocessable } from '../problem.ts';

export interface UrlPolicy {
  allowPrivateUrls: boolean;
  /** How a channel's host name resolves to addresses (default: the system's resolver). */
  resolve?: ((host: string) => Promise<string[]>) | undefined;
}

const systemResolve = async (host: string) => (await lookup(host, { all: true })).map((found) => found.address);

const internal = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 3],
] as const)
  internal.addSubnet(net, prefix, 'ipv4');
// No `::ffff:0:0/96`: BlockList checks IPv4-mapped addresses against the IPv4 subnets above, and
// that subnet would match every IPv4 address.
for (const [net, prefix] of [
  ['::', 96],
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  ['::ffff:0:0:0', 96],
  ['2001::', 32],
  ['fec0::', 10],
  ['2002::', 16],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  internal.addSubnet(net, prefix, 'ipv6');

const isInternal = (address: string) => internal.check(address, isIP(address) === 6 ? 'ipv6' : 'ipv4');

/** The URL, when a channel may send to it; a 422 naming why not otherwise. */
export async function checkedUrl(url: string, policy: UrlPolicy): Promise<URL> {
  const parsed = new URL(url);
  if (policy.allowPrivateUrls) return parsed;
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : await (policy.resolve ?? systemResolve)(host);
  } catch {
    throw unprocessable(`The host ${host} does not resolve.`, [{ field: 'url', message: 'does not resolve' }]);
  }
  if (addresses.some(isInternal))
    throw unprocessable(`${host} is a private or loopback address: alerts go to public URLs (or set alerts.allowPrivateUrls).`, [
      { field: 'url', message: 'private or loopback address' },
    ]);
  return parsed;
}

/**
 * The dispatcher deliveries go through: its connections resolve names with the policy's resolver
 * and refuse an internal address at the moment they connect, so what was checked is what is called.
 */
export function deliveryDispatcher(policy: UrlPolicy): Dispatcher {
  if (policy.allowPrivateUrls) return new Agent();
  const resolve = policy.resolve ?? systemResolve;
  const guardedLookup = ((hostname: string, options: { all?: boolean }, callback: (...answer: unknown[]) => void) => {
    const answer = (addresses: string[]) => {
      if (addresses.length === 0 || addresses.some(isInternal))
        callback(Object.assign(new Error(`${hostname} resolved to a private or loopback address`), { code: 'EPRIVATEADDRESS' }));
      else if (options.all)
        callback(
          null,
          addresses.map((address) => ({ address, family: isIP(address) })),
        );
      else callback(null, addresses[0], isIP(addresses[0]!));
    };
    resolve(hostname).then(answer, (error: unknown) => {
      callback(error);
    });
  }) as unknown as LookupFunction;
  return new Agent({ connect: { lookup: guardedLookup } });
}
