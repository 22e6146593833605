import { lookup } from 'node:dns';
import type { LookupAddress, LookupOptions } from 'node:dns';
import ipaddr from 'ipaddr.js';

/** Addresses cloud platforms answer metadata on, beside the link-local 169.254.169.254. */
const METADATA = new Set(['100.100.100.200', 'fd00:ec2::254', '192.0.0.192']);

/**
 * Whether a webhook may be sent to `address`: only public unicast addresses, unless the operator
 * allows private ones (GALLEY_WEBHOOKS_ALLOW_PRIVATE). Loopback, private, link-local (where
 * metadata services answer), unique-local, carrier NAT, multicast, reserved: refused. Metadata
 * addresses are refused always.
 */
export function allowedAddress(address: string, allowPrivate: boolean): boolean {
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  }
  const normal = parsed.toNormalizedString();
  if (METADATA.has(normal) || normal === '169.254.169.254') return false;
  const range = parsed.range();
  if (range === 'unicast') return true;
  return allowPrivate && ['loopback', 'private', 'linkLocal', 'uniqueLocal'].includes(range);
}

/** Why a URL is refused before anything is sent (null: it may be used). */
export async function refusedUrl(url: URL, allowPrivate: boolean): Promise<string | null> {
  if (url.username || url.password) return 'a webhook URL may not carry credentials';
  const addresses = await new Promise<LookupAddress[]>((resolve) => {
    lookup(url.hostname.replace(/^\[|\]$/g, ''), { all: true }, (error, found) =>
      resolve(error ? [] : found),
    );
  });
  if (addresses.length === 0) return `${url.hostname} does not resolve`;
  const bad = addresses.find((a) => !allowedAddress(a.address, allowPrivate));
  return bad ? `${url.hostname} resolves to ${bad.address}, which webhooks may not reach` : null;
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * A `lookup` for http.request that refuses a name resolving to any address webhooks may not
 * reach: checked when the connection is made, so a name that changed its answer since it was
 * registered (DNS rebinding) cannot lead a delivery inside.
 */
export function guardedLookup(allowPrivate: boolean) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      const bad = addresses.find((a) => !allowedAddress(a.address, allowPrivate));
      if (bad) {
        const refused = Object.assign(
          new Error(`${hostname} resolves to ${bad.address}, which webhooks may not reach`),
          {
            code: 'EADDRNOTALLOWED',
          },
        );
        return callback(refused, []);
      }
      if (options.all) return callback(null, addresses);
      const first = addresses[0]!;
      callback(null, first.address, first.family);
    });
  };
}
