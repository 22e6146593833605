import { contracts } from '../report/violation.js';
import { declaredNames } from '../zip/directory.js';
import { readZip, isZip, type ReadZipResult, type ZipLimits } from '../zip/index.js';
import { convertSite, type SiteConversion } from './convert.js';
import { detectSite, siteRootOf } from './detect.js';

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

/**
 * Whether a ZIP, read by `readZip`, is a plain site (decisions §5). `project.json` is judged by
 * the names the central directory declares, not by what could be read: a damaged, encrypted or
 * otherwise refused `project.json` still makes a project folder, whose checks then report the
 * damage (`archive.*`, never `site.read`). The rest is judged by the files the reader accepted,
 * or, when a limit stopped it before it accepted any (too many entries, too many bytes in all),
 * by the declared names as well. So a plain site over any limit is converted, and answered with
 * `site.limit` (decisions §4, §8), never `limits`.
 */
export function isPlainSiteZip(bytes: Uint8Array, read: ReadZipResult): boolean {
  if (read.folder.size === 0) {
    if (!read.violations.some((found) => found.check === 'limits')) return false;
    return siteRootOf(declaredNames(bytes)).ok;
  }
  const found = detectSite(read.folder);
  return found.ok && !declaresProjectJson(bytes, found.layout.root);
}

/**
 * Whether the central directory lists `project.json` where it would make a project folder: at the
 * root, or inside the site's one wrapping folder (`siteRootOf`).
 */
function declaresProjectJson(bytes: Uint8Array, root: string): boolean {
  for (const name of declaredNames(bytes)) {
    if (name === 'project.json' || name === `${root}project.json`) return true;
  }
  return false;
}
