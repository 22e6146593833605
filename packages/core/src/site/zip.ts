import { contracts } from '../report/contract.js';
import { declaredNames } from '../zip/directory.js';
import {
  readZip,
  isZip,
  type ReadZipOptions,
  type ReadZipResult,
  type ZipLimits,
} from '../zip/index.js';
import { convertSite, type ConvertSiteOptions, type SiteConversion } from './convert.js';
import { detectSite, siteRootOf, type DetectSiteOptions } from './detect.js';

export interface ConvertSiteZipOptions extends Omit<
  ConvertSiteOptions,
  'limits' | 'preViolations'
> {
  /** Decisions §4 limits by default; the folder limits of the result are the same numbers. */
  readonly limits?: Partial<ZipLimits>;
  /** How the ZIP is read (see ReadZipOptions): the platform's codec, stored files as views. */
  readonly reading?: Omit<ReadZipOptions, 'limits'>;
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
  const { limits, reading, ...conversion } = options;
  const read = readZip(bytes, { ...reading, ...(limits ? { limits } : {}) });
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
    ...conversion,
    preViolations: read.violations,
    ...(limits ? { limits } : {}),
  });
}

/**
 * Whether a ZIP, read by `readZip`, is a plain site (decisions §5, rule 1: no `project.json`, and
 * `index.html`). `project.json` is judged by the names the central directory declares, not by
 * what could be read: a damaged, encrypted or otherwise refused `project.json` still makes a
 * project folder, whose checks then report the damage (`archive.*`, never `site.read`). The rest
 * is judged by the files the reader accepted, or, when they are no site and the reader refused
 * something (the very `index.html` may be damaged, a limit or a damaged directory may have
 * stopped it before it accepted anything), by the declared names as well. So a plain site's
 * damage is `site.read` and its limits `site.limit` (decisions §4, §8) whether or not any entry
 * survived, never `archive.*` or `limits`. Bytes that declare no names at all (not a ZIP, or a
 * directory too damaged to walk) are never a plain site: the `archive` check answers them.
 */
export function isPlainSiteZip(
  bytes: Uint8Array,
  read: ReadZipResult,
  options: DetectSiteOptions = {},
): boolean {
  const found = detectSite(read.folder, options);
  if (found.ok) return !declaresProjectJson(bytes, found.layout.root);
  // Nothing refused: the folder is all the archive declares, and it is no site.
  if (read.violations.length === 0) return false;
  return siteRootOf(declaredNames(bytes), options).ok;
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
