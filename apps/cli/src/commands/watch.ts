import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Command } from 'commander';
import { followEvents } from '@galley/client';
import { v1 } from '@galley/core';
// The store's ids module alone: watching loads no database driver.
import { sha256Hex } from '@galley/store/ids';
import type { CliIo } from '../io.js';
import { CommandFailure, exitCodes, InputError, notEmpty, runCommand } from '../lib/exit.js';
import { makeFolder, missingFolders, writeFileAtomically, writeReason } from '../lib/files.js';
import { ImportedRecord } from '../lib/imported.js';
import { secondsOption } from '../lib/number-option.js';
import { progressOn } from '../lib/progress.js';
import {
  answerAs,
  connect,
  ownUrl,
  projectIdOf,
  request,
  withRemoteOptions,
} from '../lib/remote.js';
import type { Remote, RemoteOptions } from '../lib/remote.js';

/** The longest `--interval`, and the longest wait a `Retry-After` may ask for: a day. */
const maxIntervalSeconds = 86_400;

/**
 * A confirmation as the interface describes it, with the spec's version numbers (1, 2, …):
 * the version names the file written, so nothing but a whole number from 1 is taken.
 */
const Confirmation = v1.Confirmation.extend({ version: v1.Confirmation.shape.version.min(1) });
type Confirmation = v1.Confirmation;
const confirmationPage = {
  name: 'a list of confirmations',
  schema: v1.ConfirmationList.extend({ confirmations: Confirmation.array() }),
};

interface Watch {
  readonly remote: Remote;
  readonly record: ImportedRecord;
  readonly project: string;
  readonly into: string;
  /** Makes `into` if missing (once): only when the service has listed the project. */
  readonly makeInto: () => Promise<void>;
  readonly io: CliIo;
  readonly signal: AbortSignal;
}

/**
 * Confirmed versions newer than `through`, oldest first (the list comes newest first, paged).
 * Every page is read before any version is handled, and a next page on another origin is never
 * asked for (the token would go with it): the poll fails, and nothing is recorded.
 */
async function newConfirmations(w: Watch, through: number): Promise<Confirmation[]> {
  const what = `project ${w.project}`;
  const fresh: Confirmation[] = [];
  const read = async (ask: () => Promise<unknown>) =>
    answerAs(confirmationPage, await request(w.remote, what, ask));
  let page = await read(() => w.remote.client.v1.listConfirmations(w.project, { per_page: 50 }));
  for (;;) {
    for (const confirmation of page.confirmations) {
      if (confirmation.version <= through) return fresh.reverse();
      fresh.push(confirmation);
    }
    if (page.next_page_url === null) return fresh.reverse();
    const next = ownUrl(w.remote, page.next_page_url, `the next page of confirmations`);
    page = await read(() => w.remote.client.v1.follow(next));
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
  await w.makeInto();
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
    const progress = await progressOn();
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
    // One plain name inside `--into`: the id is letters, digits, `_`, `-`; the version a number.
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
    ['not_allowed', 'not_found', 'write_failed', 'foreign_url', 'bad_answer'].includes(error.code)
  );
}

/**
 * Why `--into` cannot be used: a file in the way is a mistaken option (exit 2); a folder it may
 * not make is one it may not write, as an existing folder it may not write (exit 1).
 */
function intoFailureOf(into: string) {
  return (error: NodeJS.ErrnoException): never => {
    if (error.code === 'ENOTDIR')
      throw new InputError(
        'not_a_file',
        `--into ${into} is not a folder (a file is in the way); give a folder`,
      );
    throw new CommandFailure(
      'write_failed',
      `cannot make the folder ${into}: ${writeReason(error)}`,
    );
  };
}

interface WatchOptions extends RemoteOptions {
  into: string;
  interval: number;
  once?: boolean;
  events?: boolean;
}

/**
 * `galley watch`: imports every confirmed version of a project into a folder, polling the
 * confirmations (the spec has no events). Integrations import confirmed versions only.
 */
export function registerWatch(program: Command, io: CliIo): void {
  withRemoteOptions(program.command('watch'))
    .argument('<project-id>', 'the project, prj_…')
    .requiredOption('--into <dir>', 'the folder to write <project>-v<version>.zip into')
    .option(
      '--interval <seconds>',
      `seconds between polls (at most ${maxIntervalSeconds})`,
      secondsOption(maxIntervalSeconds),
      30,
    )
    .option('--once', 'poll once, import what is new, and exit')
    .option(
      '--events',
      'look as soon as a confirmation is announced (GET /api/v1/events), besides every --interval',
    )
    .action((id: string, opts: WatchOptions) =>
      runCommand(io, async () => {
        const project = projectIdOf(id);
        notEmpty(opts.into, '--into', 'give the folder to import into');
        const stop = new AbortController();
        const remote = connect(opts, io.env, stop.signal);
        // A file in the way is found before anything is asked; the folder is made only once the
        // project is known to exist, so a mistyped id leaves no folder behind.
        const intoFailure = intoFailureOf(opts.into);
        await missingFolders(opts.into).catch(intoFailure);
        const record = await ImportedRecord.open(opts.into);
        let made: Promise<void> | undefined;
        const w: Watch = {
          remote,
          record,
          project,
          into: opts.into,
          makeInto: () => (made ??= makeFolder(opts.into).catch(intoFailure)),
          io,
          signal: stop.signal,
        };
        if (opts.once) {
          if ((await poll(w)) === 0) io.out(`nothing new for ${project}`);
          return exitCodes.ok;
        }
        return watchUntilStopped(w, opts.interval, stop, opts.events === true);
      }),
    );
}

/** A message ready for a clause after it: `Try later.` + `; trying…` is not `Try later.; trying…`. */
const withoutFinalStop = (message: string) => message.replace(/[\s.;,:]+$/, '');

/** Polls every `interval` seconds until SIGINT or SIGTERM; a second signal ends at once. */
async function watchUntilStopped(
  w: Watch,
  interval: number,
  stop: AbortController,
  events: boolean,
) {
  const announced = events ? confirmationsAnnounced(w) : null;
  const onSignal = () => {
    if (stop.signal.aborted) process.exit(exitCodes.failed);
    stop.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  // For a person at a terminal, like progress; piped, stdout holds only the `vN:` lines.
  if (process.stderr.isTTY)
    w.io.err(`watching ${w.project} every ${interval} s, into ${w.into} (Ctrl-C stops)`);
  try {
    while (!stop.signal.aborted) {
      let wait = interval;
      try {
        await poll(w);
      } catch (error) {
        if (stop.signal.aborted) break; // the signal aborted a request: stop, don't report it
        if (isFatal(error) || !(error instanceof CommandFailure)) throw error;
        // A service that asked for a pause (429 with Retry-After) gets at least that long.
        wait = Math.max(interval, Math.min(w.remote.retryAfter() ?? 0, maxIntervalSeconds));
        w.io.err(`galley: ${withoutFinalStop(error.message)}; trying again in ${wait} s`);
      }
      const paused = sleep(wait * 1000, undefined, { signal: stop.signal }).catch(() => undefined);
      await (announced ? Promise.race([paused, announced.next()]) : paused);
    }
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
  w.io.out('stopped');
  return exitCodes.ok;
}

/**
 * Word of each confirmation of the project, from its event stream (resumed after a dropped
 * connection): `next` resolves at the next one, at once when one came since it was last asked.
 * A stream that cannot be had (an older service) is said once; the polls go on.
 */
function confirmationsAnnounced(w: Watch): { next(): Promise<void> } {
  let came = false;
  let wake = () => undefined as void;
  const query = { kinds: ['project.confirmed'] as const, project: w.project, signal: w.signal };
  void (async () => {
    try {
      for await (const item of followEvents((q) => w.remote.client.v1.events(q), query)) {
        if (item.kind !== 'project.confirmed') continue;
        came = true;
        wake();
      }
    } catch (error) {
      if (!w.signal.aborted) {
        w.io.err(`galley: no event stream (${(error as Error).message}); polling only`);
      }
    }
  })();
  return {
    next: () => {
      if (came) {
        came = false;
        return Promise.resolve();
      }
      return new Promise<void>((resolve) => {
        wake = () => {
          came = false;
          resolve();
        };
      });
    },
  };
}
