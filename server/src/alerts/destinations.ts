/**
 * Where a channel may send: http(s) URLs on public addresses. A URL on a loopback, private,
 * link-local or otherwise internal address is refused (a console user must not make the server
 * call its own network), at creation and again at each delivery, so a name that later resolves
 * inward is refused too. `alerts.allowPrivateUrls` lifts this, for demos and networks that mean it.
 */
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { unprocessable } from '../problem.ts';

export interface UrlPolicy {
  allowPrivateUrls: boolean;
}

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
for (const [net, prefix] of [
  ['::', 96],
  ['::ffff:0:0', 96],
  ['64:ff9b::', 96],
  ['2002::', 16],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  internal.addSubnet(net, prefix, 'ipv6');

const isInternal = (address: string) => internal.check(address, isIP(address) === 6 ? 'ipv6' : 'ipv4');

/** The URL, when a channel may send to it; a 422 naming why not otherwise. */
export async function checkedUrl(url: string, { allowPrivateUrls }: UrlPolicy): Promise<URL> {
  const parsed = new URL(url);
  if (allowPrivateUrls) return parsed;
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : (await lookup(host, { all: true })).map((a) => a.address);
  } catch {
    throw unprocessable(`The host ${host} does not resolve.`, [{ field: 'url', message: 'does not resolve' }]);
  }
  if (addresses.some(isInternal))
    throw unprocessable(`${host} is a private or loopback address: alerts go to public URLs (or set alerts.allowPrivateUrls).`, [
      { field: 'url', message: 'private or loopback address' },
    ]);
  return parsed;
}
