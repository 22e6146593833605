import { violation } from '../report/codes.js';
import type { Violation } from '../report/violation.js';
import { entryKind } from './attributes.js';
import type { CentralRecord } from './directory.js';
import { methods } from './bytes.js';
import type { ZipLimits } from './limits.js';
import type { EntryExtent } from './local.js';
import { locateEntry } from './local.js';
import { collisionKey, hostileName, isDirectoryName } from './names.js';

const { stored, deflated } = methods;
const winZipAes = 99;
const encryptionFlags = 0x0041;

/** An entry on its way into the folder; the first refusal found is the one reported. */
export interface Candidate {
  readonly record: CentralRecord;
  readonly kind: 'file' | 'directory' | 'special';
  readonly extent: EntryExtent | undefined;
  refusal: Violation | undefined;
  /**
   * The per-file size limit, when another refusal came first: a declared size over the limit
   * fails `limits` whatever else is wrong with the entry (decisions §4).
   */
  oversize: Violation | undefined;
}

function refuse(candidate: Candidate, refusal: Violation): void {
  candidate.refusal ??= refusal;
}

export function acceptedFiles(candidates: readonly Candidate[]): Candidate[] {
  return candidates.filter((c) => c.kind === 'file' && c.refusal === undefined);
}

/** Everything that can be judged from one record and its local header, in order of gravity. */
export function screenRecord(bytes: Uint8Array, record: CentralRecord): Candidate {
  const { extent, problem } = locateEntry(bytes, record);
  const candidate: Candidate = {
    record,
    kind: entryKind(record),
    extent,
    refusal: undefined,
    oversize: undefined,
  };
  const path = record.shownName;
  if (record.name === undefined) refuse(candidate, violation('names.encoding', { path }));
  const hostile = record.name === undefined ? undefined : hostileName(record.name);
  if (hostile !== undefined) refuse(candidate, violation(hostile, { path }));
  if (candidate.kind === 'special') refuse(candidate, violation('archive.special_entry', { path }));
  if (candidate.kind === 'file') {
    if ((record.flags & encryptionFlags) !== 0 || record.method === winZipAes) {
      refuse(candidate, violation('archive.encrypted', { path }));
    }
    if (record.method !== stored && record.method !== deflated) {
      refuse(
        candidate,
        violation('archive.unsupported_method', {
          path,
          expected: [stored, deflated],
          actual: record.method,
        }),
      );
    }
    if (record.method === stored && record.compressedSize !== record.uncompressedSize) {
      refuse(
        candidate,
        violation('archive.size_mismatch', {
          path,
          message: 'A stored entry declares different compressed and uncompressed sizes.',
          expected: record.uncompressedSize,
          actual: record.compressedSize,
        }),
      );
    }
  }
  if (problem !== undefined) refuse(candidate, problem);
  return candidate;
}

/**
 * Refuses entries whose bytes (local header to end of data) overlap another entry or reach the
 * central directory: the overlapping-entry bomb inflates one kernel through many entries.
 */
export function refuseOverlaps(candidates: readonly Candidate[], directoryStart: number): void {
  /** A byte range of the archive; the central directory's has no owner and no end. */
  type Span = { owner: Candidate | undefined; start: number; end: number };
  const spans: Span[] = [{ owner: undefined, start: directoryStart, end: Infinity }];
  for (const owner of candidates) {
    if (owner.extent)
      spans.push({ owner, start: owner.extent.headerStart, end: owner.extent.dataEnd });
  }
  spans.sort((a, b) => a.start - b.start);
  let reach: Span = { owner: undefined, start: 0, end: 0 };
  for (const span of spans) {
    if (span.start < reach.end) {
      for (const owner of [span.owner, reach.owner]) {
        if (owner !== undefined) {
          refuse(owner, violation('archive.overlapping_entries', { path: owner.record.shownName }));
        }
      }
    }
    if (span.end > reach.end) reach = span;
  }
}

/**
 * Refuses every file whose path another accepted entry also claims once Unicode NFC and case
 * folding are applied, or that another path uses as a folder: extracting either would overwrite.
 */
export function refuseDuplicates(candidates: readonly Candidate[]): void {
  const named = candidates.filter((c) => c.refusal === undefined && c.kind !== 'special');
  const files = new Map<string, Candidate[]>();
  const folders = new Set<string>();
  for (const candidate of named) {
    const name = candidate.record.name ?? '';
    const key = collisionKey(isDirectoryName(name) ? name.slice(0, -1) : name);
    if (candidate.kind === 'directory') {
      folders.add(key);
    } else {
      const claimants = files.get(key);
      if (claimants === undefined) files.set(key, [candidate]);
      else claimants.push(candidate);
    }
    for (let slash = key.indexOf('/'); slash !== -1; slash = key.indexOf('/', slash + 1)) {
      folders.add(key.slice(0, slash));
    }
  }
  for (const [key, claimants] of files) {
    const clash = folders.has(key);
    if (claimants.length < 2 && !clash) continue;
    for (const candidate of claimants) {
      refuse(
        candidate,
        violation('names.duplicate', {
          path: candidate.record.shownName,
          ...(claimants.length < 2
            ? { message: 'The path is used both as a file and as a folder.' }
            : {}),
        }),
      );
    }
  }
}

/**
 * Per-file limits, judged on declared sizes before anything is inflated. The size limit holds for
 * every file found in the archive, refused or not, so that `limits` does not depend on what else
 * is wrong with an entry (a stored entry declaring 60 MiB over 30 bytes is `archive.size_mismatch`
 * and `limits.file_size`). An entry whose data is not in the file (truncated, no local header)
 * declares nothing to judge; the ratio limit is only for entries that would be inflated.
 */
export function refuseOversized(candidates: readonly Candidate[], limits: ZipLimits): void {
  for (const candidate of candidates) {
    if (candidate.kind !== 'file' || candidate.extent === undefined) continue;
    const { uncompressedSize, compressedSize, shownName: path } = candidate.record;
    if (uncompressedSize > limits.maxFileBytes) {
      const oversize = violation('limits.file_size', {
        path,
        expected: limits.maxFileBytes,
        actual: uncompressedSize,
      });
      if (candidate.refusal === undefined) candidate.refusal = oversize;
      else candidate.oversize = oversize;
    } else if (
      candidate.refusal === undefined &&
      uncompressedSize > limits.ratioMinBytes &&
      uncompressedSize > limits.maxRatio * compressedSize
    ) {
      refuse(
        candidate,
        violation('limits.ratio', {
          path,
          expected: limits.maxRatio,
          actual: compressedSize === 0 ? null : Math.round(uncompressedSize / compressedSize),
        }),
      );
    }
  }
}
