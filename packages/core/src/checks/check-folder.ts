import type { Folder } from '../report/folder.js';
import { checkNames, contracts, orderViolations } from '../report/contract.js';
import type { CheckName, CheckOutcome, CheckReport, Violation } from '../report/violation.js';
import { defaultFolderLimits, type FolderLimits } from '../files/limits.js';
import type { ReadMemo } from '../files/readers.js';
import { createContext, type FolderCheck } from './context.js';
import { checkProject } from './project.js';
import { namesCheck } from './names.js';
import { formatsCheck } from './formats.js';
import { pagesCheck } from './pages.js';
import { linksCheck } from './links.js';
import { canvasCheck } from './canvas.js';
import { limitsCheck } from './limits.js';

/** The checks that read the folder, after `project` (whose result they share). */
export const folderChecks: readonly FolderCheck[] = [
  namesCheck,
  formatsCheck,
  pagesCheck,
  linksCheck,
  canvasCheck,
  limitsCheck,
];

export interface CheckFolderOptions {
  /** Findings made before the folder existed (readZip's `archive`, `names`, `limits`). */
  readonly preViolations?: readonly Violation[];
  readonly limits?: Partial<FolderLimits>;
  /** Files read in earlier runs on the same bytes (see `createReadMemo`). */
  readonly memo?: ReadMemo;
}

/** Failed where an error was found, else unchecked where the input was unusable, else passed. */
export function outcomes(violations: readonly Violation[], unusable: ReadonlySet<CheckName>) {
  const failed = new Set(violations.filter((v) => v.severity === 'error').map((v) => v.check));
  const checks: Partial<Record<CheckName, CheckOutcome>> = {};
  for (const name of checkNames)
    checks[name] = failed.has(name) ? 'failed' : unusable.has(name) ? 'unchecked' : 'passed';
  return checks;
}

/**
 * The folder contract (decisions §4): folder in, report out. Pure and deterministic: equal
 * folders give byte-equal JSON whatever the order of their entries. Warnings never fail a check;
 * a check whose input was unusable (no valid project.json, a damaged canvas image) is
 * `unchecked` unless it found errors anyway.
 */
export function checkFolder(folder: Folder, options: CheckFolderOptions = {}): CheckReport {
  const project = checkProject(folder);
  const limits = { ...defaultFolderLimits, ...options.limits };
  const context = createContext(folder, project.state, limits, options.memo);
  const found: Violation[] = [...(options.preViolations ?? []), ...project.violations];
  const unusable = new Set<CheckName>();
  for (const check of folderChecks) {
    const findings = check.run(context);
    found.push(...findings.violations);
    if (findings.unusable) unusable.add(check.name);
  }
  const violations = orderViolations(found);
  return { checks: outcomes(violations, unusable), violations, contracts: { ...contracts } };
}
