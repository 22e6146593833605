// What the project page's parts are handed, in a module of its own: project.ts builds the view
// and imports each part, so a part importing the view from project.ts made an import circle.
import type { v1 } from '@galley/core';
import type { z } from 'zod';
import type { Client } from './library.js';
import type { Failure } from '../result.js';

export type Project = z.output<typeof v1.Project>;

/** What the parts of the project page share: the client, the ids, and a way to say things. */
export interface ProjectView {
  readonly client: Client;
  readonly projectId: string;
  readonly accountId: string;
  project: Project;
  /** Re-reads everything after a change. */
  refresh(): Promise<void>;
  report(failure: Failure): void;
  status(message: string): void;
}
