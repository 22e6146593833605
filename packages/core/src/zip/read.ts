import { violation } from '../report/codes.js';
import type { Violation } from '../report/violation.js';
import { compareViolations } from '../report/contract.js';
import { methods } from './bytes.js';
import { crc32 } from './crc32.js';
import { readCentralDirectory } from './directory.js';
import { inflateExactly, type ZipCodec } from './inflate.js';
import type { ZipLimits } from './limits.js';
import { defaultZipLimits } from './limits.js';
import type { Candidate } from './screen.js';
import {
  acceptedFiles,
  refuseDuplicates,
  refuseOverlaps,
  refuseOversized,
  screenRecord,
} from './screen.js';

export interface ReadZipOptions {
  limits?: Partial<ZipLimits>;
  /** Faster inflate and CRC-32 of the platform (Node's zlib); core's own by default. */
  codec?: ZipCodec;
  /**
   * Stored (uncompressed) files as views into `bytes` instead of copies, for a caller that keeps
   * the archive as long as the folder and hands neither on (the CLI's check): a copy costs as much
   * fresh memory as the files hold, the largest part of reading a folder of images.
   */
  storedAsViews?: boolean;
}

/** The files that passed every check, and the violations of `archive`, `names` and `limits`. */
export interface ReadZipResult {
  folder: Map<string, Uint8Array>;
  violations: Violation[];
}

const archiveLevel = { path: '' } as const;

function result(folder: Map<string, Uint8Array>, violations: Violation[]): ReadZipResult {
  return { folder, violations: violations.sort(compareViolations) };
}

const hex = (crc: number): string => crc.toString(16).padStart(8, '0');

type Extracted = { data: Uint8Array } | { refusal: Violation; stop: boolean };

/** Unpacks one screened file, checking the bytes it actually produces against its record. */
function extract(bytes: Uint8Array, candidate: Candidate, options: ReadZipOptions): Extracted {
  const { codec } = options;
  const { record, extent } = candidate;
  const path = record.shownName;
  const raw = bytes.subarray(extent!.dataStart, extent!.dataEnd);
  let data: Uint8Array;
  if (record.method === methods.stored) {
    // Unless views were asked for, a copy in a plain Uint8Array: `slice` on a Node Buffer would
    // share the archive's memory.
    data = options.storedAsViews ? raw : new Uint8Array(raw);
  } else {
    const inflated = inflateExactly(raw, record.uncompressedSize, codec);
    if (!inflated.ok) {
      if (inflated.problem === 'corrupt') {
        const refusal = violation('archive.corrupt', {
          path,
          message: 'The compressed data of the entry is not valid DEFLATE.',
        });
        return { refusal, stop: false };
      }
      const overflow = inflated.problem === 'overflow';
      const refusal = violation('archive.size_mismatch', {
        path,
        ...(overflow
          ? { message: 'The entry unpacks to more bytes than it declares; reading was stopped.' }
          : {}),
        expected: record.uncompressedSize,
        actual: inflated.produced,
      });
      return { refusal, stop: overflow };
    }
    data = inflated.data;
  }
  const crc = codec ? codec.crc32(data) : crc32(data);
  if (crc !== record.crc) {
    const refusal = violation('archive.crc_mismatch', {
      path,
      expected: hex(record.crc),
      actual: hex(crc),
    });
    return { refusal, stop: false };
  }
  return { data };
}

function readArchive(bytes: Uint8Array, limits: ZipLimits, options: ReadZipOptions): ReadZipResult {
  if (bytes.length > limits.maxArchiveBytes) {
    const tooLarge = violation('limits.archive_size', {
      ...archiveLevel,
      expected: limits.maxArchiveBytes,
      actual: bytes.length,
    });
    return result(new Map(), [tooLarge]);
  }
  const read = readCentralDirectory(bytes, limits.maxEntries);
  if (!read.ok) return result(new Map(), [...read.violations]);
  const { records, start, findings } = read.directory;
  const violations = [...findings];
  // Offsets at or past the directory are wrong in themselves and reported on their entry.
  const first = records.reduce(
    (low, r) => (r.localOffset < start ? Math.min(low, r.localOffset) : low),
    start,
  );
  if (first > 0) {
    violations.push(violation('archive.data_before_archive', archiveLevel));
  }

  const candidates = records.map((record) => screenRecord(bytes, record));
  refuseOverlaps(candidates, start);
  refuseDuplicates(candidates);
  refuseOversized(candidates, limits);
  for (const candidate of candidates) {
    if (candidate.refusal !== undefined) violations.push(candidate.refusal);
    if (candidate.oversize !== undefined) violations.push(candidate.oversize);
  }

  const files = acceptedFiles(candidates);
  const total = files.reduce((sum, c) => sum + c.record.uncompressedSize, 0);
  if (total > limits.maxTotalBytes) {
    violations.push(
      violation('limits.total_size', {
        ...archiveLevel,
        expected: limits.maxTotalBytes,
        actual: total,
      }),
    );
    return result(new Map(), violations);
  }

  const folder = new Map<string, Uint8Array>();
  files.sort((a, b) => (a.record.name! < b.record.name! ? -1 : 1));
  for (const candidate of files) {
    const extracted = extract(bytes, candidate, options);
    if ('data' in extracted) {
      folder.set(candidate.record.name!, extracted.data);
      continue;
    }
    violations.push(extracted.refusal);
    // An entry that lies about its size is a bomb: nothing more of this archive is unpacked.
    if (extracted.stop) return result(new Map(), violations);
  }
  return result(folder, violations);
}

/**
 * Reads a ZIP into an in-memory folder without trusting anything it declares. The central
 * directory is read and judged first; declared sizes are summed against the limits before any
 * byte is inflated; inflation counts the bytes actually produced and stops at the declared
 * size. Never throws: an unreadable archive is an `archive.*` violation with an empty folder.
 */
export function readZip(bytes: Uint8Array, options: ReadZipOptions = {}): ReadZipResult {
  // A limit given as undefined keeps its default rather than switching the check off.
  const given = Object.entries(options.limits ?? {}).filter(([, value]) => value !== undefined);
  const limits: ZipLimits = { ...defaultZipLimits, ...Object.fromEntries(given) };
  try {
    return readArchive(bytes, limits, options);
  } catch {
    // Every known defect is reported above; this keeps an unforeseen one from becoming a crash.
    return result(new Map(), [
      violation('archive.corrupt', { ...archiveLevel, message: 'The archive cannot be read.' }),
    ]);
  }
}
