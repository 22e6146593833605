import { violation } from '../report/codes.js';
import type { Violation } from '../report/violation.js';
import { signatures, u16, u32, u64, zip64Marker16, zip64Marker32 } from './bytes.js';
import { decodeName, displayName } from './names.js';

/** One central directory record, with ZIP64 values already applied. */
export interface CentralRecord {
  /** The name exactly as stored, compared byte for byte with the local header. */
  readonly rawName: Uint8Array;
  /** The decoded name, or undefined when flagged UTF-8 but not valid UTF-8. */
  readonly name: string | undefined;
  /** The name as violations show it. */
  readonly shownName: string;
  readonly flags: number;
  readonly method: number;
  readonly crc: number;
  readonly compressedSize: number;
  readonly uncompressedSize: number;
  readonly localOffset: number;
  readonly externalAttributes: number;
}

export interface CentralDirectory {
  readonly records: readonly CentralRecord[];
  /** Where the central directory starts: entry data may not reach it or anything after it. */
  readonly start: number;
  /** Archive-level findings that do not stop reading (data after the archive). */
  readonly findings: readonly Violation[];
}

/** The directory, or the archive-level violations that make the archive unreadable. */
export type DirectoryResult =
  | { readonly ok: true; readonly directory: CentralDirectory }
  | { readonly ok: false; readonly violations: readonly Violation[] };

const endRecordBytes = 22;
const maxCommentBytes = 0xffff;
const locatorBytes = 20;
const zip64EndRecordBytes = 56;
const centralHeaderBytes = 46;
const utf8Flag = 0x0800;

type Fatal = Extract<DirectoryResult, { ok: false }>;
const fatal = (...violations: Violation[]): Fatal => ({ ok: false, violations });
const archiveLevel = { path: '' } as const;

interface EndRecordSearch {
  readonly at: number;
  readonly trailingData: boolean;
}

/**
 * Finds the end-of-central-directory record: the one whose comment ends exactly at the end of the
 * file. Two such records (a forged one hidden in a comment) make the archive ambiguous.
 */
function findEndRecord(bytes: Uint8Array): EndRecordSearch | 'ambiguous' | undefined {
  const lowest = Math.max(0, bytes.length - endRecordBytes - maxCommentBytes);
  let exact: number | undefined;
  let trailing: number | undefined;
  for (let at = bytes.length - endRecordBytes; at >= lowest; at--) {
    if (bytes[at] !== 0x50 || u32(bytes, at) !== signatures.end) continue;
    const end = at + endRecordBytes + u16(bytes, at + 20);
    if (end === bytes.length) {
      if (exact !== undefined) return 'ambiguous';
      exact = at;
    } else if (end < bytes.length) {
      trailing ??= at;
    }
  }
  if (exact !== undefined) return { at: exact, trailingData: false };
  if (trailing !== undefined) return { at: trailing, trailingData: true };
  return undefined;
}

interface EndValues {
  disk: number;
  directoryDisk: number;
  entriesOnDisk: number;
  entries: number;
  size: number;
  offset: number;
  /** Where the central directory must end: the ZIP64 end record if any, else the end record. */
  end: number;
}

function readEndValues(bytes: Uint8Array, at: number): EndValues | Violation {
  const values: EndValues = {
    disk: u16(bytes, at + 4),
    directoryDisk: u16(bytes, at + 6),
    entriesOnDisk: u16(bytes, at + 8),
    entries: u16(bytes, at + 10),
    size: u32(bytes, at + 12),
    offset: u32(bytes, at + 16),
    end: at,
  };
  const locator = at - locatorBytes;
  if (locator < 0 || u32(bytes, locator) !== signatures.zip64Locator) return values;
  const recordDisk = u32(bytes, locator + 4);
  const record = u64(bytes, locator + 8);
  const disks = u32(bytes, locator + 16);
  if (recordDisk !== 0 || disks > 1) return violation('archive.multi_disk', archiveLevel);
  if (record + zip64EndRecordBytes > locator || u32(bytes, record) !== signatures.zip64End) {
    return violation('archive.corrupt', {
      ...archiveLevel,
      message: 'The ZIP64 end of central directory record is missing or damaged.',
    });
  }
  return {
    disk: u32(bytes, record + 16),
    directoryDisk: u32(bytes, record + 20),
    entriesOnDisk: u64(bytes, record + 24),
    entries: u64(bytes, record + 32),
    size: u64(bytes, record + 40),
    offset: u64(bytes, record + 48),
    end: record,
  };
}

/** The ZIP64 extended information extra field (id 1), if present; undefined when malformed. */
function findZip64Field(extra: Uint8Array): Uint8Array | null | undefined {
  let found: Uint8Array | null = null;
  // Fewer than four trailing bytes cannot hold a field; writers pad with them, readers skip them.
  for (let at = 0; at + 4 <= extra.length;) {
    const id = u16(extra, at);
    const size = u16(extra, at + 2);
    const start = at + 4;
    if (start + size > extra.length) return undefined;
    if (id === 1) found = extra.subarray(start, start + size);
    at = start + size;
  }
  return found;
}

interface RecordNumbers {
  uncompressedSize: number;
  compressedSize: number;
  localOffset: number;
  diskStart: number;
}

/** Replaces the marked 32/16-bit values by their ZIP64 values, in the order the format fixes. */
function applyZip64(numbers: RecordNumbers, field: Uint8Array): RecordNumbers | string {
  const result = { ...numbers };
  let at = 0;
  const take = (bytes: number, what: string): number | string => {
    if (at + bytes > field.length) return `The ZIP64 extra field lacks the ${what}.`;
    const value = bytes === 8 ? u64(field, at) : u32(field, at);
    at += bytes;
    return value;
  };
  const wanted = [
    ['uncompressedSize', 8, zip64Marker32, 'uncompressed size'],
    ['compressedSize', 8, zip64Marker32, 'compressed size'],
    ['localOffset', 8, zip64Marker32, 'local header offset'],
    ['diskStart', 4, zip64Marker16, 'disk number'],
  ] as const;
  for (const [key, bytes, marker, what] of wanted) {
    if (numbers[key] !== marker) continue;
    const value = take(bytes, what);
    if (typeof value === 'string') return value;
    result[key] = value;
  }
  return result;
}

/** The part of a record that says what the archive holds: the name, readable or not. */
interface RecordHead {
  readonly rawName: Uint8Array;
  readonly name: string | undefined;
  readonly shownName: string;
  readonly flags: number;
  readonly extra: Uint8Array;
}

/** A record's fixed part and name, or why the directory cannot be walked past it. */
function readRecordHead(bytes: Uint8Array, at: number, end: number): RecordHead | Violation {
  if (at + centralHeaderBytes > end || u32(bytes, at) !== signatures.central) {
    return violation('archive.corrupt', {
      ...archiveLevel,
      message: 'A central directory record is missing or damaged.',
    });
  }
  const nameLength = u16(bytes, at + 28);
  const extraLength = u16(bytes, at + 30);
  const commentLength = u16(bytes, at + 32);
  const nameStart = at + centralHeaderBytes;
  const extraStart = nameStart + nameLength;
  if (extraStart + extraLength + commentLength > end) {
    return violation('archive.corrupt', {
      ...archiveLevel,
      message: 'A central directory record runs past the end of the directory.',
    });
  }
  const flags = u16(bytes, at + 8);
  const rawName = bytes.subarray(nameStart, extraStart);
  const name = decodeName(rawName, (flags & utf8Flag) !== 0);
  const shownName = displayName(name ?? decodeName(rawName, false) ?? '');
  const extra = bytes.subarray(extraStart, extraStart + extraLength);
  return { rawName, name, shownName, flags, extra };
}

function readRecord(bytes: Uint8Array, at: number, end: number): CentralRecord | Violation {
  const head = readRecordHead(bytes, at, end);
  if ('code' in head) return head;
  const { rawName, name, shownName, flags } = head;
  const zip64 = findZip64Field(head.extra);
  if (zip64 === undefined) {
    return violation('archive.corrupt', {
      path: shownName,
      message: 'An extra field is longer than the space the record gives it.',
    });
  }
  let numbers: RecordNumbers | string = {
    compressedSize: u32(bytes, at + 20),
    uncompressedSize: u32(bytes, at + 24),
    diskStart: u16(bytes, at + 34),
    localOffset: u32(bytes, at + 42),
  };
  if (zip64 !== null) numbers = applyZip64(numbers, zip64);
  if (typeof numbers === 'string') {
    return violation('archive.corrupt', { path: shownName, message: numbers });
  }
  if (numbers.diskStart !== 0) return violation('archive.multi_disk', { path: shownName });
  return {
    rawName,
    name,
    shownName,
    flags,
    method: u16(bytes, at + 10),
    crc: u32(bytes, at + 16),
    compressedSize: numbers.compressedSize,
    uncompressedSize: numbers.uncompressedSize,
    localOffset: numbers.localOffset,
    externalAttributes: u32(bytes, at + 38),
  };
}

/** Where a central directory record ends (its three variable fields follow the fixed part). */
function recordEnd(bytes: Uint8Array, at: number): number {
  return at + centralHeaderBytes + u16(bytes, at + 28) + u16(bytes, at + 30) + u16(bytes, at + 32);
}

function startsWithLocalHeader(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && u32(bytes, 0) === signatures.local;
}

/** Where the central directory lies, before any record is parsed. */
interface DirectoryPlace {
  readonly end: EndValues;
  readonly start: number;
  readonly findings: readonly Violation[];
}

/**
 * Finds the central directory from the end records, refusing an archive that claims more than
 * `maxEntries` records before a single one is parsed.
 */
function locateDirectory(
  bytes: Uint8Array,
  maxEntries: number,
): { readonly ok: true; readonly place: DirectoryPlace } | Fatal {
  const search = findEndRecord(bytes);
  if (search === undefined) {
    return fatal(
      startsWithLocalHeader(bytes)
        ? violation('archive.truncated', archiveLevel)
        : violation('archive.not_zip', archiveLevel),
    );
  }
  if (search === 'ambiguous') {
    return fatal(
      violation('archive.corrupt', {
        ...archiveLevel,
        message: 'The archive has two end-of-directory records; tools would disagree on it.',
      }),
    );
  }
  const findings = search.trailingData
    ? [violation('archive.data_after_archive', archiveLevel)]
    : [];
  const end = readEndValues(bytes, search.at);
  if ('code' in end) return fatal(end);
  if (end.disk !== 0 || end.directoryDisk !== 0 || end.entriesOnDisk !== end.entries) {
    return fatal(violation('archive.multi_disk', archiveLevel));
  }
  if (end.entries > maxEntries) {
    return fatal(
      violation('limits.entries', { ...archiveLevel, expected: maxEntries, actual: end.entries }),
    );
  }
  const start = end.end - end.size;
  if (start < 0) {
    return fatal(
      violation('archive.truncated', {
        ...archiveLevel,
        message: 'The central directory is larger than the file.',
      }),
    );
  }
  if (end.offset !== start) {
    // Offsets counted from a prefix the file does not have: a program glued before the archive.
    const prefixed =
      end.offset < start && (end.size === 0 || u32(bytes, start) === signatures.central);
    return fatal(
      prefixed
        ? violation('archive.data_before_archive', archiveLevel)
        : violation('archive.corrupt', {
            ...archiveLevel,
            message: 'The central directory is not where the end record says.',
          }),
    );
  }
  return { ok: true, place: { end, start, findings } };
}

/**
 * Reads the end records and the whole central directory without touching entry data. Anything
 * that makes the directory untrustworthy ends reading here; `maxEntries` is enforced before a
 * single record is parsed.
 */
export function readCentralDirectory(bytes: Uint8Array, maxEntries: number): DirectoryResult {
  const located = locateDirectory(bytes, maxEntries);
  if (!located.ok) return located;
  const { end, start, findings } = located.place;
  const records: CentralRecord[] = [];
  let at = start;
  for (let index = 0; index < end.entries; index++) {
    const record = readRecord(bytes, at, end.end);
    if ('code' in record) return fatal(record);
    records.push(record);
    at = recordEnd(bytes, at);
  }
  if (at !== end.end) {
    return fatal(
      violation('archive.corrupt', {
        ...archiveLevel,
        message: 'The central directory holds more bytes than its records.',
      }),
    );
  }
  return { ok: true, directory: { records, start, findings } };
}

/**
 * Where the directory's bytes lie by the end record alone (it ends where the end records start
 * and is as long as they say), whatever they say of its offset or of disks. Undefined when no
 * single end record can be read.
 */
function directoryBounds(
  bytes: Uint8Array,
): { start: number; end: number; entries: number } | undefined {
  const search = findEndRecord(bytes);
  if (search === undefined || search === 'ambiguous') return undefined;
  const values = readEndValues(bytes, search.at);
  if ('code' in values) return undefined;
  const start = values.end - values.size;
  return start < 0 ? undefined : { start, end: values.end, entries: values.entries };
}

/**
 * Whether the bytes hold an end-of-central-directory record where `readZip` looks for one: bytes
 * it will read as an archive, however damaged, and never answer with `archive.not_zip`.
 */
export function hasEndRecord(bytes: Uint8Array): boolean {
  return findEndRecord(bytes) !== undefined;
}

/**
 * The uncompressed bytes of every entry together, as the central directory declares them (without
 * touching entry data); undefined when the directory cannot be read. What reading the archive
 * will take: a folder of text is often a tenth of that size zipped.
 */
export function declaredSize(bytes: Uint8Array, maxEntries: number): number | undefined {
  const read = readCentralDirectory(bytes, maxEntries);
  if (!read.ok) return undefined;
  let total = 0;
  for (const record of read.directory.records) total += record.uncompressedSize;
  return total;
}

/**
 * The names the central directory declares, one record at a time and none kept: what an archive
 * says it holds, whether or not an entry can be read (a damaged `project.json` is still listed),
 * and even when reading stopped before any entry was judged: at a limit (too many entries), at a
 * record that is unreadable in its numbers (a disk other than the first, a bad ZIP64 field) or
 * at a directory whose offset or disks are wrong (data before the archive, a split archive).
 * Bounded by the archive's bytes, not by its entry count; ends quietly where the records
 * themselves are damaged (readCentralDirectory reports all of this). Names that do not decode
 * are skipped.
 */
export function* declaredNames(bytes: Uint8Array): Generator<string, void, undefined> {
  const bounds = directoryBounds(bytes);
  if (bounds === undefined) return;
  let at = bounds.start;
  for (let index = 0; index < bounds.entries; index++) {
    const head = readRecordHead(bytes, at, bounds.end);
    if ('code' in head) return;
    if (head.name !== undefined) yield head.name;
    at = recordEnd(bytes, at);
  }
}
