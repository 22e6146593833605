import { readdir, writeFile } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import type { Command } from 'commander';
import { mediaCatalog } from '@galley/core/folder';
import type { CliIo } from '../io.js';
import { exitCodes, InputError, notEmpty, runCommand } from '../lib/exit.js';
import { makeFolder, writeReason } from '../lib/files.js';
import { scaffoldFolder } from '../lib/scaffold.js';
import { shellWord } from '../lib/shell-word.js';

const defaultMedium = 'web';

/** `path`'s entries, or none when it does not exist yet; a file in the way is unusable input. */
async function entriesOf(path: string): Promise<string[]> {
  return readdir(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    if (error.code === 'ENOTDIR')
      throw new InputError('not_a_folder', `${path} is a file; give a new or empty folder`);
    throw new InputError('unreadable', `${path} cannot be read: ${writeReason(error)}`);
  });
}

/** `galley init`: a new project folder (project.json, a page, a style sheet) that passes check. */
export function registerInit(program: Command, io: CliIo): void {
  program
    .command('init')
    .argument('[dir]', 'the folder to make (new or empty)', '.')
    .option(
      '--medium <id>',
      `the project's medium: ${mediaCatalog.map((m) => m.id).join(', ')}`,
      defaultMedium,
    )
    .option('--title <title>', "the project's title (default: the folder's name)")
    .action((dir: string, opts: { medium: string; title?: string }) =>
      runCommand(io, async () => {
        notEmpty(dir, 'the folder', 'give the folder to make, or leave it out for this one');
        const medium = mediaCatalog.find((m) => m.id === opts.medium);
        if (!medium)
          throw new InputError(
            'invalid_option',
            `--medium ${opts.medium} is not in the media catalog; give one of ${mediaCatalog.map((m) => m.id).join(', ')}`,
          );
        const folder = resolve(dir);
        const title = opts.title === undefined ? basename(folder) : notEmpty(opts.title, '--title');
        const present = await entriesOf(folder);
        if (present.length > 0)
          throw new InputError(
            'not_empty',
            `${dir} is not empty (it holds ${present.length === 1 ? present[0] : `${present.length} entries`}); give a new or empty folder`,
          );
        const files = scaffoldFolder(medium, title);
        try {
          await makeFolder(folder);
          for (const [name, text] of files)
            await writeFile(join(folder, name), text, { flag: 'wx' });
        } catch (error) {
          throw new InputError('unreadable', `${dir} cannot be written: ${writeReason(error)}`);
        }
        io.out(
          [
            `Made a ${medium.label} project in ${dir}: ${[...files.keys()].join(', ')}`,
            `Next: galley check ${shellWord(dir)}`,
          ].join('\n'),
        );
        return exitCodes.ok;
      }),
    );
}
