import { promises as dns } from 'node:dns';
import type { LookupAddress, LookupOptions } from 'node:dns';
import ipaddr from 'ipaddr.js';

/**
 * How host names are looked up: every address of `hostname` (of `family` 4 or 6 when given).
 * Passed in (AppOptions.resolve), so that tests can answer what a name server would.
 */
export type Resolve = (hostname: string, family?: 4 | 6) => Promise<LookupAddress[]>;

/** The system's resolver (getaddrinfo, as `http.request` uses by default). */
export const systemResolve: Resolve = (hostname, family) =>
  dns.lookup(hostname, { all: true, ...(family ? { family } : {}) });

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
export async function refusedUrl(
  url: URL,
  allowPrivate: boolean,
  resolve: Resolve = systemResolve,
): Promise<string | null> {
  if (url.username || url.password) return 'a webhook URL may not carry credentials';
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const addresses = ipaddr.isValid(host)
    ? [{ address: host, family: host.includes(':') ? 6 : 4 }]
    : await resolve(host).catch((): LookupAddress[] => []);
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
export function guardedLookup(allowPrivate: boolean, resolve: Resolve = systemResolve) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    const family = options.family === 4 || options.family === 6 ? options.family : undefined;
    void resolve(hostname, family).then(
      (addresses) => {
        if (addresses.length === 0) {
          const none = Object.assign(new Error(`${hostname} does not resolve`), {
            code: 'ENOTFOUND',
          });
          return callback(none, []);
        }
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
      },
      (error: NodeJS.ErrnoException) => callback(error, []),
    );
  };
}
