import type { Command } from 'commander';
import {
  convertSite,
  convertSiteZip,
  externalLoads,
  isZip,
  readZip,
  vendorSite,
  type ConvertSiteOptions,
  type SiteConversion,
} from '@galley/core';
import type { CliIo } from '../io.js';
import { exitCodes, runCommand } from '../lib/exit.js';
import { defaultFetchLimits, fetchResources, type FetchLimits } from '../lib/fetch-resources.js';
import { outputTarget, writeFileAtomically } from '../lib/files.js';
import { nodeZipCodec, zipFolder } from '../lib/zip-folder.js';
import { secondsOption, wholeNumberOption } from '../lib/number-option.js';
import { paintForStdout } from '../lib/paint.js';
import { progressOn, type Progress } from '../lib/progress.js';
import { readInput } from '../lib/read-input.js';
import { checkReportText } from '../lib/report-text.js';
import { siteReportText, vendorReportText, type VendorReport } from '../lib/site-text.js';

interface ConvertOptions {
  output: string;
  json?: boolean;
  index?: string;
  dropExternal?: boolean;
  dropMissing?: boolean;
  vendor?: boolean;
  vendorMaxFiles: number;
  vendorMaxBytes: number;
  vendorTimeout: number;
}

/** `galley convert`: a plain site to a project folder ZIP (decisions §5), as the service does it. */
export function registerConvert(program: Command, io: CliIo): void {
  program
    .command('convert')
    .usage('<site> -o <file> [options]') // commander leaves a required option out of it
    .argument('<site>', 'a plain site: a ZIP or a directory with index.html')
    .requiredOption('-o, --output <file>', 'where to write the project folder ZIP')
    .option('--index <file>', 'the entry page of a site without index.html (it becomes index.html)')
    .option(
      '--vendor',
      'fetch what pages load from other origins (scripts, style sheets, fonts, images) into the site',
    )
    .option(
      '--drop-external',
      'remove elements that load from other origins (an iframe becomes a link), each a warning',
    )
    .option(
      '--drop-missing',
      'remove elements that load absent local files, or files of a type the web medium refuses',
    )
    .option(
      '--vendor-max-files <n>',
      'with --vendor: resources fetched at most',
      wholeNumberOption(1, 5000),
      defaultFetchLimits.maxFiles,
    )
    .option(
      '--vendor-max-bytes <n>',
      'with --vendor: bytes one resource may have',
      wholeNumberOption(1, 50 * 1024 * 1024),
      defaultFetchLimits.maxBytes,
    )
    .option(
      '--vendor-timeout <seconds>',
      'with --vendor: how long one request may take',
      secondsOption(600),
      defaultFetchLimits.timeoutMs / 1000,
    )
    .option('--json', 'print {"site": …} on success, the 422 body (CheckReport) on failure')
    .action((path: string, opts: ConvertOptions) =>
      runCommand(io, async () => {
        const target = await outputTarget(opts.output);
        const paint = paintForStdout(io.env);
        const progress = await progressOn();
        try {
          const input = readInput(path, { progress });
          const options: ConvertSiteOptions = {
            ...(opts.index === undefined ? {} : { index: opts.index }),
            ...(opts.dropExternal ? { dropExternal: true } : {}),
            ...(opts.dropMissing ? { dropMissing: true } : {}),
          };
          const limits: FetchLimits = {
            maxFiles: opts.vendorMaxFiles,
            maxBytes: opts.vendorMaxBytes,
            timeoutMs: opts.vendorTimeout * 1000,
          };
          const { result, vendor } = opts.vendor
            ? await convertVendored(input.bytes, options, limits, progress)
            : {
                result: convertSiteZip(input.bytes, {
                  ...options,
                  reading: { codec: nodeZipCodec },
                }),
                vendor: undefined,
              };
          progress.phase(`converting ${path}`);
          const vendorJson = vendor ? { vendor } : {};
          const vendorText = vendor ? [vendorReportText(vendor, paint), ''] : [];
          if (!result.ok) {
            progress.done();
            io.out(
              opts.json
                ? JSON.stringify({ ...result.report, ...vendorJson })
                : [
                    ...vendorText,
                    checkReportText(result.report, paint, `${path} (not converted)`),
                  ].join('\n'),
            );
            return exitCodes.failed;
          }
          progress.phase(`writing ${opts.output}`);
          await writeFileAtomically(target, zipFolder(result.folder));
          progress.done();
          if (opts.json) io.out(JSON.stringify({ site: result.site, ...vendorJson }));
          else
            io.out(
              [
                ...vendorText,
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

/**
 * `--vendor`: fetches what the site loads from other origins (on this machine, through the
 * proxy variables), adds the copies to the site, then converts as the service would. Whatever
 * could not be fetched stays external: reported per URL, and dropped only with --drop-external.
 */
async function convertVendored(
  bytes: Uint8Array,
  options: ConvertSiteOptions,
  limits: FetchLimits,
  progress: Progress,
): Promise<{ result: SiteConversion; vendor: VendorReport }> {
  // Bytes that are no ZIP fail the `archive` check, as without --vendor.
  if (!isZip(bytes))
    return {
      result: convertSiteZip(bytes, { ...options, reading: { codec: nodeZipCodec } }),
      vendor: { fetched: [], failed: [] },
    };
  const read = readZip(bytes, { codec: nodeZipCodec });
  const detect = options.index === undefined ? {} : { index: options.index };
  const outcome = await fetchResources(externalLoads(read.folder, detect), limits, progress);
  const vendored = vendorSite(read.folder, outcome.fetched, detect);
  const fetched = [...vendored.placed].map(([url, path]) => ({
    url,
    path,
    bytes: outcome.fetched.get(url)?.bytes.length ?? 0,
  }));
  const result = convertSite(vendored.folder, { ...options, preViolations: read.violations });
  return { result, vendor: { fetched, failed: [...outcome.failures] } };
}
