import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { getEnv } from '~/env.server';

// The SSRF guard of webhook endpoints (docs/decisions/314-webhook-targets.md): an endpoint may not
// reach this machine, its link-local neighbours (the cloud metadata service), or private networks,
// unless the installation allows private targets (ONRECO_WEBHOOK_PRIVATE_TARGETS=1).

const blocked = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this network"; 0.0.0.0 reaches the local host
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, 169.254.169.254 the metadata service
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved and broadcast
] as const) blocked.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
  ['fd00:ec2::254', 128], // the metadata service over IPv6
] as const) blocked.addSubnet(network, prefix, 'ipv6');

/** The IPv4 address an IPv4-mapped or -translated IPv6 address carries, else null. */
function embeddedIpv4(address: string): string | null {
  const match = /^(?:::ffff:|::ffff:0:|64:ff9b::)((?:\d{1,3}\.){3}\d{1,3})$/i.exec(address);
  return match ? match[1] : null;
}

/** True when an address is loopback, link-local, private, multicast or reserved. */
export function isForbiddenTargetAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return blocked.check(address, 'ipv4');
  if (family !== 6) return true;
  const v4 = embeddedIpv4(address);
  if (v4 !== null) return blocked.check(v4, 'ipv4');
  return blocked.check(address, 'ipv6');
}

export const privateTargetsAllowed = (): boolean => getEnv().ONRECO_WEBHOOK_PRIVATE_TARGETS;

/** A URL's host as an address or a name (brackets of an IPv6 literal removed). */
const hostOf = (url: URL): string => url.hostname.replace(/^\[(.*)\]$/, '$1');

export type TargetCheck = { ok: true } | { ok: false; address: string };

/**
 * Save-time check: the URL's host, or every address its name resolves to, must be public. A name
 * that does not resolve now is accepted (it may be registered before its DNS), the delivery's
 * connection is checked again whatever it resolves to then.
 */
export async function checkWebhookTarget(value: string): Promise<TargetCheck> {
  if (privateTargetsAllowed()) return { ok: true };
  const host = hostOf(new URL(value));
  if (host === 'localhost' || host.endsWith('.localhost')) return { ok: false, address: host };
  if (isIP(host)) return isForbiddenTargetAddress(host) ? { ok: false, address: host } : { ok: true };
  const addresses = await new Promise<LookupAddress[]>((resolve) => dnsLookup(host, { all: true }, (error, found) => resolve(error ? [] : found)));
  const bad = addresses.find((found) => isForbiddenTargetAddress(found.address));
  return bad ? { ok: false, address: bad.address } : { ok: true };
}

export class ForbiddenTargetError extends Error {
  constructor(readonly address: string) {
    super(`webhook target ${address} is a loopback, link-local or private address (ONRECO_WEBHOOK_PRIVATE_TARGETS is off)`);
  }
}

/**
 * The delivery's DNS lookup: the connection is made to the very addresses checked here, so a name
 * that resolves to a private address since it was saved (or between a check and the connect) is
 * refused at delivery.
 */
export const guardedLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
    if (error) return callback(error, '', 0);
    if (!privateTargetsAllowed()) {
      const bad = addresses.find((found) => isForbiddenTargetAddress(found.address));
      if (bad) return callback(new ForbiddenTargetError(bad.address), '', 0);
    }
    if (options.all) return (callback as unknown as (err: null, all: LookupAddress[]) => void)(null, addresses);
    return callback(null, addresses[0].address, addresses[0].family);
  });
};

/** An IP literal in a URL never goes through lookup: it is checked here before connecting. */
export function assertLiteralTarget(url: URL): void {
  const host = hostOf(url);
  if (!privateTargetsAllowed() && isIP(host) && isForbiddenTargetAddress(host)) throw new ForbiddenTargetError(host);
}
