import type { Command } from 'commander';
import { convertSiteZip } from '@galley/core';
import type { CliIo } from '../io.js';
import { exitCodes, runCommand } from '../lib/exit.js';
import { outputTarget, writeFileAtomically, zipFolder } from '../lib/files.js';
import { paintFor } from '../lib/paint.js';
import { progressOn } from '../lib/progress.js';
import { readInput } from '../lib/read-input.js';
import { checkReportText } from '../lib/report-text.js';
import { siteReportText } from '../lib/site-text.js';

/** `galley convert`: a plain site to a project folder ZIP (decisions §5), as the service does it. */
export function registerConvert(program: Command, io: CliIo): void {
  program
    .command('convert')
    .usage('<site> -o <file> [options]') // commander leaves a required option out of it
    .argument('<site>', 'a plain site: a ZIP or a directory with index.html')
    .requiredOption('-o, --output <file>', 'where to write the project folder ZIP')
    .option('--json', 'print {"site": …} on success, the 422 body (CheckReport) on failure')
    .action((path: string, opts: { output: string; json?: boolean }) =>
      runCommand(io, async () => {
        const target = await outputTarget(opts.output);
        const paint = paintFor(process.stdout, io.env);
        const progress = progressOn();
        try {
          const input = await readInput(path, { progress });
          progress.phase(`converting ${path}`);
          // A directory arrives zipped, so it is read as the service reads an uploaded site.
          const result = convertSiteZip(input.bytes);
          if (!result.ok) {
            progress.done();
            io.out(
              opts.json
                ? JSON.stringify(result.report)
                : checkReportText(result.report, paint, `${path} (not converted)`),
            );
            return exitCodes.failed;
          }
          progress.phase(`writing ${opts.output}`);
          await writeFileAtomically(target, zipFolder(result.folder));
          progress.done();
          if (opts.json) io.out(JSON.stringify({ site: result.site }));
          else
            io.out(
              [
                `${paint.bold(path)} → ${paint.bold(opts.output)}: ${paint.green('converted')} "${result.title}", ${result.folder.size} files`,
                '',
                siteReportText(result.site, paint),
              ].join('\n'),
            );
          return exitCodes.ok;
        } finally {
          progress.done();
        }
      }),
    );
}
