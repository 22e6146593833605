import type { Command } from 'commander';
import { checkZip } from '@galley/core';
import type { CliIo } from '../io.js';
import { exitCodes, runCommand } from '../lib/exit.js';
import { paintFor } from '../lib/paint.js';
import { progressOn } from '../lib/progress.js';
import { readInput } from '../lib/read-input.js';
import { checkReportText, reportPassed } from '../lib/report-text.js';

/** `galley check`: the folder contract of decisions §4, as the service would judge the folder. */
export function registerCheck(program: Command, io: CliIo): void {
  program
    .command('check')
    .description('check a project folder (a ZIP or a directory) against the folder contract')
    .argument('<folder>', 'a project folder ZIP, or a directory holding project.json')
    .option('--json', 'print the report exactly as the API sends it (CheckReport JSON)')
    .action((path: string, opts: { json?: boolean }) =>
      runCommand(io, async () => {
        const progress = progressOn();
        let report;
        try {
          const input = await readInput(path, { progress });
          progress.phase(`checking ${path}`);
          report = checkZip(input.bytes); // a directory arrives zipped: the service's own reader
        } finally {
          progress.done();
        }
        if (opts.json) io.out(JSON.stringify(report));
        else {
          io.out(checkReportText(report, paintFor(process.stdout, io.env), path));
          if (report.violations.some((v) => v.code === 'project.missing'))
            io.out(
              `\nA plain site? \`galley convert ${path} -o project.zip\` makes a project of it.`,
            );
        }
        return reportPassed(report) ? exitCodes.ok : exitCodes.failed;
      }),
    );
}
