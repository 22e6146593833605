import type { Command } from 'commander';
import { GalleyApiError } from '@galley/client';
import type { CheckReport } from '@galley/core';
import type { CliIo } from '../io.js';
import { exitCodes, runCommand } from '../lib/exit.js';
import { paintFor } from '../lib/paint.js';
import { progressOn } from '../lib/progress.js';
import { readInput } from '../lib/read-input.js';
import { connect, requestFailure, withRemoteOptions } from '../lib/remote.js';
import type { RemoteOptions } from '../lib/remote.js';
import { checkReportText } from '../lib/report-text.js';
import { siteReportText } from '../lib/site-text.js';

/** A 422 answer carrying a folder report (the contract failed, or the site did not convert). */
function refusedReport(error: unknown): CheckReport | undefined {
  if (!(error instanceof GalleyApiError) || error.status !== 422) return undefined;
  const body = error.problem as Partial<CheckReport>;
  if (!body.checks || !Array.isArray(body.violations) || !body.contracts) return undefined;
  return { checks: body.checks, violations: body.violations, contracts: body.contracts };
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
    .action((project: string, path: string, opts: RemoteOptions & { json?: boolean }) =>
      runCommand(io, async () => {
        const remote = connect(opts, io.env);
        const paint = paintFor(process.stdout, io.env);
        const progress = progressOn();
        let answer;
        try {
          const input = await readInput(path, { progress });
          progress.phase(`uploading ${path} to ${project}`);
          answer = await remote.client.v1
            .replaceFolder(project, input.bytes)
            .catch((error: unknown) => {
              const refused = refusedReport(error);
              if (!refused) throw requestFailure(error, remote, `project ${project}`);
              return { refused, body: (error as GalleyApiError).problem };
            });
        } finally {
          progress.done();
        }
        if ('refused' in answer) {
          io.out(
            opts.json
              ? JSON.stringify(answer.body)
              : checkReportText(answer.refused, paint, `${path} (refused by the service)`),
          );
          return exitCodes.failed;
        }
        if (opts.json) io.out(JSON.stringify(answer));
        else {
          const summary = `${paint.bold(path)} → ${paint.bold(project)}: ${paint.green('replaced')} "${answer.title}", revision ${answer.revision}, ${answer.pages} pages`;
          io.out(answer.site ? `${summary}\n\n${siteReportText(answer.site, paint)}` : summary);
        }
        return exitCodes.ok;
      }),
    );
}
