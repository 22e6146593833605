import type { Command } from 'commander';
import { checkReadZip, isPlainSiteZip, readZip } from '@galley/core/folder';
import type { ReadZipResult } from '@galley/core/folder';
import type { CliIo } from '../io.js';
import { exitCodes, runCommand } from '../lib/exit.js';
import { paintForStdout } from '../lib/paint.js';
import { progressOn } from '../lib/progress.js';
import { readInput } from '../lib/read-input.js';
import { shellWord } from '../lib/shell-word.js';
import { nodeZipCodec } from '../lib/zip-folder.js';
import { checkReportText, reportPassed } from '../lib/report-text.js';

/** `galley check`: the folder contract of decisions §4, as the service would judge the folder. */
export function registerCheck(program: Command, io: CliIo): void {
  program
    .command('check')
    .argument('<folder>', 'a project folder ZIP, or a directory holding project.json')
    .option('--json', 'print the report exactly as the API sends it (CheckReport JSON)')
    .action((path: string, opts: { json?: boolean }) =>
      runCommand(io, async () => {
        const progress = await progressOn();
        let bytes: Uint8Array;
        let read: ReadZipResult;
        let report;
        try {
          ({ bytes } = readInput(path, { progress, onlyToRead: true }));
          progress.phase(`checking ${path}`);
          // A directory arrives zipped: the service's own reader. The archive is kept to the end.
          read = readZip(bytes, { codec: nodeZipCodec, storedAsViews: true });
          report = checkReadZip(read);
        } finally {
          progress.done();
        }
        if (opts.json) io.out(JSON.stringify(report));
        else {
          io.out(checkReportText(report, paintForStdout(io.env), path));
          // Only for what `convert` takes, judged as the service judges an upload.
          const plainSite =
            report.violations.some((v) => v.code === 'project.missing') &&
            isPlainSiteZip(bytes, read);
          if (plainSite)
            io.out(
              `\nA plain site? \`galley convert ${shellWord(path)} -o project.zip\` makes a project of it.`,
            );
        }
        return reportPassed(report) ? exitCodes.ok : exitCodes.failed;
      }),
    );
}
