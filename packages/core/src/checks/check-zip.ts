import type { CheckReport } from '../report/violation.js';
import { checkNames, contracts, orderViolations } from '../report/contract.js';
import { readZip, type ReadZipOptions, type ReadZipResult } from '../zip/read.js';
import type { ZipLimits } from '../zip/limits.js';
import { checkFolder, outcomes } from './check-folder.js';

export interface CheckZipOptions {
  readonly limits?: Partial<ZipLimits>;
  /** How the ZIP is read (see ReadZipOptions): the platform's codec, stored files as views. */
  readonly reading?: Omit<ReadZipOptions, 'limits'>;
}

/**
 * A project folder ZIP in, its report out: readZip (which refuses hostile entries with
 * `archive`, `names` and `limits` violations) then checkFolder on what it accepted (checkReadZip).
 */
export function checkZip(bytes: Uint8Array, options: CheckZipOptions = {}): CheckReport {
  const read = readZip(bytes, { ...options.reading, limits: options.limits ?? {} });
  return checkReadZip(read, options);
}

export interface CheckReadZipOptions {
  readonly limits?: Partial<ZipLimits>;
}

/**
 * checkZip once the ZIP was read. When the archive as a whole could not be read (not a ZIP,
 * damaged directory, over a limit), only its own findings are reported and every other check is
 * unchecked: there was no folder to judge.
 */
export function checkReadZip(read: ReadZipResult, options: CheckReadZipOptions = {}): CheckReport {
  if (read.folder.size > 0 || read.violations.length === 0)
    return checkFolder(read.folder, {
      preViolations: read.violations,
      limits: options.limits ?? {},
    });
  const violations = orderViolations(read.violations);
  const checks = outcomes(violations, new Set(checkNames));
  return { checks, violations, contracts: { ...contracts } };
}
