import type { Command } from 'commander';
// The store's ids module alone: a pull loads no database driver.
import { sha256Hex } from '@galley/store/ids';
import type { CliIo } from '../io.js';
import { CommandFailure, exitCodes, runCommand } from '../lib/exit.js';
import { outputTarget, writeFileAtomically } from '../lib/files.js';
import { wholeNumberOption } from '../lib/number-option.js';
import { progressOn } from '../lib/progress.js';
import { connect, projectIdOf, request, withRemoteOptions } from '../lib/remote.js';
import type { RemoteOptions } from '../lib/remote.js';

/** The file name the service suggests (`prj_…-r3.zip`), if it is a plain name; else our own. */
function suggestedName(disposition: string | null, fallback: string): string {
  const name = /filename="([^"/\\]+)"/.exec(disposition ?? '')?.[1];
  return name !== undefined && /^[A-Za-z0-9._-]+\.zip$/.test(name) ? name : fallback;
}

interface PullOptions extends RemoteOptions {
  output?: string;
  version?: number;
}

/**
 * `galley pull`: the project's saved folder, or a confirmed version's exact ZIP, to a file. The
 * SHA-256 the service states (`X-Content-SHA256`) is verified before anything is written.
 */
export function registerPull(program: Command, io: CliIo): void {
  withRemoteOptions(program.command('pull'))
    .argument('<project-id>', 'the project, prj_…')
    .option('-o, --output <file>', 'where to write the ZIP (default: the name the service gives)')
    .option(
      '--version <n>',
      'a confirmed version instead of the saved state',
      wholeNumberOption(1, Number.MAX_SAFE_INTEGER),
    )
    .action((id: string, opts: PullOptions) =>
      runCommand(io, async () => {
        const project = projectIdOf(id);
        const remote = connect(opts, io.env);
        const target = opts.output === undefined ? undefined : await outputTarget(opts.output);
        const what =
          opts.version === undefined
            ? `project ${project}`
            : `confirmed version ${opts.version} of ${project}`;
        const progress = await progressOn();
        progress.phase(`downloading ${what}`);
        const zip = await request(remote, what, () =>
          remote.client.v1.downloadFolder(project, opts.version),
        ).finally(() => progress.done());
        // Only a whole ZIP whose SHA-256 the service states can be verified, so only it is written.
        const status = remote.statusOf(zip.headers);
        const type = zip.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase();
        if (status !== 200 || type !== 'application/zip')
          throw new CommandFailure(
            'bad_answer',
            `the service answered ${status ?? 'without a status'} ${type ?? 'without a content type'} for ${what}, not 200 application/zip; nothing written`,
          );
        const stated = zip.headers.get('x-content-sha256')?.trim().toLowerCase();
        if (!stated)
          throw new CommandFailure(
            'bad_answer',
            `the service sent ${what} without X-Content-SHA256, so it cannot be verified; nothing written`,
          );
        const sha256 = sha256Hex(zip.bytes);
        if (stated !== sha256)
          throw new CommandFailure(
            'sha256_mismatch',
            `the ZIP of ${what} has SHA-256 ${sha256}, not ${stated} as stated; nothing written`,
          );
        const fallback = `${project}${opts.version === undefined ? '' : `-v${opts.version}`}.zip`;
        const path = opts.output ?? suggestedName(zip.headers.get('content-disposition'), fallback);
        // The name the service gives is held to the rule of `-o`, only once it is known.
        await writeFileAtomically(target ?? (await outputTarget(path, 'the file')), zip.bytes);
        io.out(`${path}: ${zip.bytes.length} bytes, sha256 ${sha256}`);
        return exitCodes.ok;
      }),
    );
}
