import { contracts } from '../report/violation.js';
import { readZip, isZip, type ZipLimits } from '../zip/index.js';
import { convertSite, type SiteConversion } from './convert.js';

export interface ConvertSiteZipOptions {
  /** Decisions §4 limits by default; the folder limits of the result are the same numbers. */
  readonly limits?: Partial<ZipLimits>;
}

/**
 * Reads a plain site's ZIP and converts it. Entries the reader refuses (hostile names, damage)
 * are `site.read`, exceeded limits `site.limit` (decisions §8). Bytes that are not a ZIP at all
 * fail the `archive` check instead: `site.read` is only for plain sites, which they cannot be.
 */
export function convertSiteZip(
  bytes: Uint8Array,
  options: ConvertSiteZipOptions = {},
): SiteConversion {
  const read = readZip(bytes, { ...(options.limits ? { limits: options.limits } : {}) });
  if (!isZip(bytes)) {
    return {
      ok: false,
      report: {
        checks: { archive: 'failed' },
        violations: read.violations,
        contracts: { ...contracts },
      },
    };
  }
  return convertSite(read.folder, {
    preViolations: read.violations,
    ...(options.limits ? { limits: options.limits } : {}),
  });
}
