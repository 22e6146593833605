import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { InvalidArgumentError } from 'commander';
import type { Command } from 'commander';
import type { v1 } from '@galley/core';
import type { CliIo } from '../io.js';
import { CommandFailure, exitCodes, InputError, runCommand } from '../lib/exit.js';
import { makeFolder, sha256Hex, writeFileAtomically } from '../lib/files.js';
import { ImportedRecord } from '../lib/imported.js';
import { progressOn } from '../lib/progress.js';
import { connect, ownUrl, request, withRemoteOptions } from '../lib/remote.js';
import type { Remote, RemoteOptions } from '../lib/remote.js';

function seconds(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0 || n > 86_400)
    throw new InvalidArgumentError('seconds, more than 0 and at most 86400');
  return n;
}

interface ConfirmationPage {
  confirmations: v1.Confirmation[];
  next_page_url: string | null;
}

interface Watch {
  readonly remote: Remote;
  readonly record: ImportedRecord;
  readonly project: string;
  readonly into: string;
  readonly io: CliIo;
  readonly signal: AbortSignal;
}

/**
 * Confirmed versions newer than `through`, oldest first (the list comes newest first, paged).
 * Every page is read before any version is handled, and a next page on another origin is never
 * asked for (the token would go with it): the poll fails, and nothing is recorded.
 */
async function newConfirmations(w: Watch, through: number): Promise<v1.Confirmation[]> {
  const what = `project ${w.project}`;
  const fresh: v1.Confirmation[] = [];
  let page = await request(w.remote, what, () =>
    w.remote.client.v1.listConfirmations(w.project, { per_page: 50 }),
  );
  for (;;) {
    for (const confirmation of page.confirmations) {
      if (confirmation.version <= through) return fresh.reverse();
      fresh.push(confirmation);
    }
    if (page.next_page_url === null) return fresh.reverse();
    const next = ownUrl(w.remote, page.next_page_url, `the next page of confirmations`);
    page = await request(w.remote, what, () => w.remote.client.v1.follow<ConfirmationPage>(next));
  }
}

/**
 * One poll: every confirmed version not handled yet, oldest first. Bytes whose `sha256` was
 * imported already are skipped (the spec's rule); others are downloaded, verified against
 * `sha256`, written as `<project>-v<version>.zip` and recorded. A failure stops the poll before
 * any newer version, so the record always covers every version up to its newest.
 */
async function poll(w: Watch): Promise<number> {
  const fresh = await newConfirmations(w, w.record.handledThrough(w.project));
  let handled = 0;
  for (const c of fresh) {
    if (w.signal.aborted) break;
    const same = w.record.fileWith(c.sha256);
    if (same !== undefined) {
      await w.record.addSkipped({ project: w.project, version: c.version, sha256: c.sha256 });
      w.io.out(`v${c.version}: skipped, the same ZIP as ${same} (sha256 ${c.sha256})`);
      handled++;
      continue;
    }
    const url = ownUrl(w.remote, c.download_url, `version ${c.version}`);
    const progress = progressOn();
    progress.phase(`downloading version ${c.version}`);
    const zip = await request(w.remote, `confirmed version ${c.version}`, () =>
      w.remote.client.v1.download(url),
    ).finally(() => progress.done());
    const sha256 = sha256Hex(zip.bytes);
    if (sha256 !== c.sha256)
      throw new CommandFailure(
        'sha256_mismatch',
        `version ${c.version} downloaded with SHA-256 ${sha256}, not ${c.sha256} as confirmed; not imported`,
      );
    const file = `${w.project}-v${c.version}.zip`;
    await writeFileAtomically(join(w.into, file), zip.bytes);
    const at = new Date().toISOString();
    await w.record.addImported({
      project: w.project,
      version: c.version,
      sha256,
      file,
      imported_at: at,
    });
    w.io.out(`v${c.version}: ${join(w.into, file)} (sha256 ${sha256})`);
    handled++;
  }
  return handled;
}

/** Errors a later poll cannot fix: stop watching rather than retry them forever. */
function isFatal(error: unknown): boolean {
  if (error instanceof InputError) return true;
  return (
    error instanceof CommandFailure &&
    ['not_allowed', 'not_found', 'write_failed', 'foreign_url'].includes(error.code)
  );
}

interface WatchOptions extends RemoteOptions {
  into: string;
  interval: number;
  once?: boolean;
}

/**
 * `galley watch`: imports every confirmed version of a project into a folder, polling the
 * confirmations (the spec has no events). Integrations import confirmed versions only.
 */
export function registerWatch(program: Command, io: CliIo): void {
  withRemoteOptions(program.command('watch'))
    .description("import a project's confirmed versions into a folder as they are confirmed")
    .argument('<project-id>', 'the project, prj_…')
    .requiredOption('--into <dir>', 'the folder to write <project>-v<version>.zip into')
    .option('--interval <seconds>', 'seconds between polls', seconds, 30)
    .option('--once', 'poll once, import what is new, and exit')
    .action((project: string, opts: WatchOptions) =>
      runCommand(io, async () => {
        if (!/^[A-Za-z0-9._-]+$/.test(project))
          throw new InputError('invalid_option', `${project} is not a project id (prj_…)`);
        if (opts.into === '') throw new InputError('invalid_option', '--into is empty');
        const stop = new AbortController();
        const remote = connect(opts, io.env, stop.signal);
        await makeFolder(opts.into).catch((error: Error) => {
          throw new InputError(
            'unreadable',
            `cannot make the folder ${opts.into}: ${error.message}`,
          );
        });
        const record = await ImportedRecord.open(opts.into);
        const w: Watch = { remote, record, project, into: opts.into, io, signal: stop.signal };
        if (opts.once) {
          if ((await poll(w)) === 0) io.out(`nothing new for ${project}`);
          return exitCodes.ok;
        }
        return watchUntilStopped(w, opts.interval, stop);
      }),
    );
}

/** Polls every `interval` seconds until SIGINT or SIGTERM; a second signal ends at once. */
async function watchUntilStopped(w: Watch, interval: number, stop: AbortController) {
  const onSignal = () => {
    if (stop.signal.aborted) process.exit(exitCodes.failed);
    stop.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  w.io.out(`watching ${w.project} every ${interval} s, into ${w.into} (Ctrl-C stops)`);
  try {
    while (!stop.signal.aborted) {
      try {
        await poll(w);
      } catch (error) {
        if (stop.signal.aborted) break; // the signal aborted a request: stop, don't report it
        if (isFatal(error) || !(error instanceof CommandFailure)) throw error;
        w.io.err(`galley: ${error.message}; trying again in ${interval} s`);
      }
      await sleep(interval * 1000, undefined, { signal: stop.signal }).catch(() => undefined);
    }
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
  w.io.out('stopped');
  return exitCodes.ok;
}
