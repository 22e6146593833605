import type { Violation } from '../report/violation.js';
import type { FolderCheck } from './context.js';
import { fileFormatViolation } from '../files/file-format.js';
import { projectFile } from './project.js';

/**
 * `formats`: each file's type allowed by the medium, its content matching its extension, HTML
 * and CSS in UTF-8, images within bounds, SVG without active content. Without a usable medium
 * the content rules still run, but the check cannot pass (its main rule could not).
 */
export const formatsCheck: FolderCheck = {
  name: 'formats',
  run(context) {
    const allowed = context.project.usable ? new Set(context.project.medium.formats) : undefined;
    const violations: Violation[] = [];
    for (const path of context.paths) {
      if (path === projectFile) continue; // the project check judges it
      const reader = {
        bytes: context.folder.get(path)!,
        text: () => context.text(path),
        dimensions: () => context.dimensions(path),
      };
      const problem = fileFormatViolation(path, reader, allowed);
      if (problem) violations.push(problem);
    }
    return { violations, unusable: allowed === undefined };
  },
};
