import type { Command } from 'commander';
import { GalleyApiError } from '@galley/client';
import { v1 } from '@galley/core';
import type { CheckReport } from '@galley/core';
import type { CliIo } from '../io.js';
import { CommandFailure, exitCodes, runCommand } from '../lib/exit.js';
import { paintForStdout } from '../lib/paint.js';
import { progressOn } from '../lib/progress.js';
import { readInput } from '../lib/read-input.js';
import { answerAs, connect, projectIdOf, request, withRemoteOptions } from '../lib/remote.js';
import type { RemoteOptions } from '../lib/remote.js';
import { checkReportText, plural } from '../lib/report-text.js';
import { siteReportText } from '../lib/site-text.js';

/** The service's refusal behind a failed request, if the service answered at all. */
function refusalOf(error: unknown): GalleyApiError | undefined {
  const cause = error instanceof CommandFailure ? error.cause : undefined;
  return cause instanceof GalleyApiError ? cause : undefined;
}

/** The folder report a refusal carries (a 422: the contract failed, or the site did not convert). */
function reportOf(refusal: GalleyApiError): CheckReport | undefined {
  if (refusal.status !== 422) return undefined;
  const report = v1.FolderCheckFailure.safeParse(refusal.problem);
  return report.success ? report.data : undefined;
}

/**
 * `galley push`: replaces a project's contents with a folder (POST /projects/{id}/folder, one
 * history entry). A directory is zipped deterministically first; the service checks the folder
 * (or converts a plain site) and refuses it with its report, printed as `galley check` does.
 */
export function registerPush(program: Command, io: CliIo): void {
  withRemoteOptions(program.command('push'))
    .argument('<project-id>', 'the project, prj_…')
    .argument('<folder>', 'a project folder or a plain site: a ZIP or a directory')
    .option('--json', "print the service's answer body as it is (the Project, or the refusal)")
    .action((id: string, path: string, opts: RemoteOptions & { json?: boolean }) =>
      runCommand(io, async () => {
        const project = projectIdOf(id);
        const remote = connect(opts, io.env);
        const paint = paintForStdout(io.env);
        const progress = await progressOn();
        let answer;
        try {
          const input = readInput(path, { progress });
          progress.phase(`uploading ${path} to ${project}`);
          answer = await request(remote, `project ${project}`, () =>
            remote.client.v1.replaceFolder(project, input.bytes),
          ).then(
            (body: unknown) => ({ body }),
            (error: unknown) => {
              const refusal = refusalOf(error);
              if (refusal === undefined) throw error; // no answer: nothing for stdout
              return { refusal, error };
            },
          );
        } finally {
          progress.done();
        }
        if ('refusal' in answer) {
          // With --json a script gets the body of every refusal; a report is printed in full,
          // and any other refusal is said on stderr as well.
          const report = reportOf(answer.refusal);
          if (opts.json) io.out(JSON.stringify(answer.refusal.problem));
          else if (report)
            io.out(checkReportText(report, paint, `${path} (refused by the service)`));
          if (report) return exitCodes.failed;
          throw answer.error;
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
