import type { Store } from '@galley/store';
import { v1ProblemOf } from '../problems.js';
import type { EditingSignals } from './editing-signals.js';

/**
 * Deletes a project for good; its members are told (read first: once deleted, the project no
 * longer says who may hear of it). 404 when another request deleted it first.
 */
export async function deleteProject(
  deps: { store: Store; signals: EditingSignals },
  projectId: string,
): Promise<void> {
  const members = await deps.store.projectMembers.list(projectId);
  if (!(await deps.store.projects.delete(projectId))) {
    throw v1ProblemOf('not_found', { detail: 'Gone.' });
  }
  const audience = members.map((member) => member.accountNumber);
  deps.signals.changed(projectId, { kind: 'project.deleted', data: {} }, { audience });
}
