import type { Folder } from '../report/folder.js';
import type { Violation } from '../report/violation.js';
import { violation } from '../report/codes.js';
import { findMedium } from '../media/catalog.js';
import { schemaUri } from '../schemas/definitions.js';
import { validateJson } from '../schemas/validate.js';
import { controlCharacterOf, decodeUtf8 } from '../files/text.js';
import type { Project, ProjectState } from './context.js';

export const projectFile = 'project.json';
const projectSchemaUri = schemaUri('project', 1);

/**
 * The `project` check: project.json present, JSON, valid against svc://schemas/project/1, with
 * a title free of control characters, and naming a medium of the catalog. Runs first: the other
 * checks read its result.
 */
export function checkProject(folder: Folder): { violations: Violation[]; state: ProjectState } {
  const failed = (...violations: Violation[]) => ({
    violations,
    state: { usable: false } as const,
  });
  const bytes = folder.get(projectFile);
  if (bytes === undefined) return failed(violation('project.missing', { path: projectFile }));

  let value: unknown;
  try {
    value = JSON.parse(decodeUtf8(bytes) ?? '\u0000');
  } catch {
    // The parser's own message differs between engines; the report must not.
    return failed(violation('project.json', { path: projectFile }));
  }

  const validation = validateJson(projectSchemaUri, value);
  if (validation?.ok === false)
    return failed(
      ...validation.errors.map((error) =>
        violation('project.schema', {
          path: projectFile,
          message: `project.json ${error.path || '/'} ${error.message}`,
        }),
      ),
    );

  const project = value as Project;
  const titles = titleViolations(project.title);
  const medium = findMedium(project.media);
  if (medium === undefined)
    return failed(
      ...titles,
      violation('project.medium_unknown', {
        path: projectFile,
        actual: { id: project.media.id, version: project.media.version },
      }),
    );
  // A bad title leaves the project usable: the other checks still read the folder.
  return { violations: titles, state: { usable: true, project, medium } };
}

/**
 * `project.title_control` for a project title holding a control character. The title is what
 * the stores keep as text (PostgreSQL refuses U+0000); page titles are kept inside JSON.
 */
function titleViolations(title: string): Violation[] {
  const control = controlCharacterOf(title);
  if (control === undefined) return [];
  return [
    violation('project.title_control', {
      path: projectFile,
      message: `project.json /title contains the control character ${control}.`,
      actual: control,
    }),
  ];
}
