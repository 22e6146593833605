import type { Command } from 'commander';
import { GalleyApiError } from '@galley/client';
import { v1 } from '@galley/core';
import type { CheckReport } from '@galley/core';
import type { CliIo } from '../io.js';
import { CommandFailure, exitCodes, runCommand } from '../lib/exit.js';
import { paintFor } from '../lib/paint.js';
import { progressOn } from '../lib/progress.js';
import { readInput } from '../lib/read-input.js';
import { answerAs, connect, projectIdOf, request, withRemoteOptions } from '../lib/remote.js';
import type { RemoteOptions } from '../lib/remote.js';
import { checkReportText, plural } from '../lib/report-text.js';
import { siteReportText } from '../lib/site-text.js';

/** A refusal carrying a folder report (a 422: the contract failed, or the site did not convert). */
function refusedReport(error: unknown): { report: CheckReport; body: unknown } | undefined {
  const refusal = error instanceof CommandFailure ? error.cause : undefined;
  if (!(refusal instanceof GalleyApiError) || refusal.status !== 422) return undefined;
  const report = v1.FolderCheckFailure.safeParse(refusal.problem);
  return report.success ? { report: report.data, body: refusal.problem } : undefined;
}

/**
 * `galley push`: replaces a project's contents with a folder (POST /projects/{id}/folder, one
 * history entry). A directory is zipped deterministically first; the service checks the folder
 * (or converts a plain site) and refuses it with its report, printed as `galley check` does.
 */
export function registerPush(program: Command, io: CliIo): void {
  withRemoteOptions(program.command('push'))
    .description("replace a project's contents with a folder (a ZIP or a directory)")
    .argument('<project-id>', 'the project, prj_…')
    .argument('<folder>', 'a project folder or a plain site: a ZIP or a directory')
    .option('--json', "print the service's answer body as it is (the Project, or the 422 body)")
    .action((id: string, path: string, opts: RemoteOptions & { json?: boolean }) =>
      runCommand(io, async () => {
        const project = projectIdOf(id);
        const remote = connect(opts, io.env);
        const paint = paintFor(process.stdout, io.env);
        const progress = progressOn();
        let answer;
        try {
          const input = await readInput(path, { progress });
          progress.phase(`uploading ${path} to ${project}`);
          answer = await request(remote, `project ${project}`, () =>
            remote.client.v1.replaceFolder(project, input.bytes),
          ).then(
            (body: unknown) => ({ body }),
            (error: unknown) => {
              const refused = refusedReport(error);
              if (!refused) throw error;
              return { refused };
            },
          );
        } finally {
          progress.done();
        }
        if ('refused' in answer) {
          const { report, body } = answer.refused;
          io.out(
            opts.json
              ? JSON.stringify(body)
              : checkReportText(report, paint, `${path} (refused by the service)`),
          );
          return exitCodes.failed;
        }
        const created = answerAs({ name: 'a project', schema: v1.CreatedProject }, answer.body);
        if (opts.json) io.out(JSON.stringify(answer.body));
        else {
          const summary = `${paint.bold(path)} → ${paint.bold(project)}: ${paint.green('replaced')} "${created.title}", revision ${created.revision}, ${plural(created.pages, 'page')}`;
          io.out(created.site ? `${summary}\n\n${siteReportText(created.site, paint)}` : summary);
        }
        return exitCodes.ok;
      }),
    );
}
