import { violationCodes, type CodeCatalog, type CodeEntry, type ViolationCode } from '../codes.js';
import type { CheckName, Violation } from './violation.js';

type Place = Omit<Violation, 'check' | 'code' | 'message' | 'suggestion' | 'severity'> & {
  severity?: Violation['severity'];
  /** Overrides the catalog text where the finding adds detail (the code stays the same). */
  message?: string;
  /** Overrides the catalog's suggestion where the finding calls for another remedy. */
  suggestion?: string;
};

/** Builds a violation from the catalog; the check is the code's namespace. */
export function violation(code: ViolationCode, place: Place): Violation {
  const name: string = code;
  const entry: CodeEntry | undefined = (violationCodes as CodeCatalog)[name];
  if (entry === undefined) throw new Error(`violation code missing from the catalog: ${name}`);
  const { message, severity, suggestion = entry.suggestion, ...rest } = place;
  return {
    check: name.slice(0, name.indexOf('.')) as CheckName,
    code,
    severity: severity ?? 'error',
    ...rest,
    message: message ?? entry.message,
    ...(suggestion === undefined ? {} : { suggestion }),
  };
}
