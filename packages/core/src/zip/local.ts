import { violation } from '../report/codes.js';
import type { Violation } from '../report/violation.js';
import { signatures, u16, u32, u64, zip64Marker32 } from './bytes.js';
import type { CentralRecord } from './directory.js';

/** Where an entry lies in the archive: its local header starts the extent, its data ends it. */
export interface EntryExtent {
  readonly headerStart: number;
  readonly dataStart: number;
  readonly dataEnd: number;
}

const localHeaderBytes = 30;
const dataDescriptorFlag = 0x0008;
/** Encryption (bit 0) and strong encryption (bit 6): a reader must see them the same everywhere. */
const encryptionFlags = 0x0041;

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** The local sizes, from the local ZIP64 field where the header defers to it. */
function localSizes(
  bytes: Uint8Array,
  at: number,
  extra: Uint8Array,
): { compressed: number; uncompressed: number } {
  const compressed = u32(bytes, at + 18);
  const uncompressed = u32(bytes, at + 22);
  if (compressed !== zip64Marker32 && uncompressed !== zip64Marker32) {
    return { compressed, uncompressed };
  }
  for (let i = 0; i + 4 <= extra.length; i += 4 + u16(extra, i + 2)) {
    if (u16(extra, i) === 1 && u16(extra, i + 2) >= 16 && i + 20 <= extra.length) {
      return { uncompressed: u64(extra, i + 4), compressed: u64(extra, i + 12) };
    }
  }
  return { compressed, uncompressed };
}

/** Where the entry lies (when its local header can be found), and what is wrong with it. */
export interface Located {
  readonly extent: EntryExtent | undefined;
  readonly problem: Violation | undefined;
}

/**
 * Reads the local header of a record and checks that it tells the same story as the central
 * directory (name, method, encryption, and CRC and sizes unless a data descriptor follows):
 * tools that read local headers would otherwise see a different archive than we check.
 */
export function locateEntry(bytes: Uint8Array, record: CentralRecord): Located {
  const at = record.localOffset;
  const path = record.shownName;
  const unlocated = (problem: Violation): Located => ({ extent: undefined, problem });
  if (at + localHeaderBytes > bytes.length) {
    return unlocated(
      violation('archive.truncated', {
        path,
        message: 'The local header lies beyond the end of the file.',
      }),
    );
  }
  if (u32(bytes, at) !== signatures.local) {
    return unlocated(
      violation('archive.corrupt', {
        path,
        message: 'There is no local header where the central directory points.',
      }),
    );
  }
  const nameLength = u16(bytes, at + 26);
  const extraLength = u16(bytes, at + 28);
  const nameStart = at + localHeaderBytes;
  const dataStart = nameStart + nameLength + extraLength;
  const dataEnd = dataStart + record.compressedSize;
  if (dataEnd > bytes.length) {
    return unlocated(
      violation('archive.truncated', {
        path,
        message: 'The entry data runs past the end of the file.',
      }),
    );
  }
  const extent = { headerStart: at, dataStart, dataEnd };
  const problem = compareHeaders(bytes, record, nameStart, nameLength, dataStart);
  return { extent, problem };
}

function compareHeaders(
  bytes: Uint8Array,
  record: CentralRecord,
  nameStart: number,
  nameLength: number,
  dataStart: number,
): Violation | undefined {
  const at = record.localOffset;
  const path = record.shownName;
  const flags = u16(bytes, at + 6);
  const disagrees = (what: string, expected?: unknown, actual?: unknown): Violation =>
    violation('archive.header_mismatch', {
      path,
      message: `The local header and the central directory disagree on the ${what}.`,
      ...(expected === undefined ? {} : { expected, actual }),
    });
  if (!sameBytes(bytes.subarray(nameStart, nameStart + nameLength), record.rawName)) {
    return disagrees('name');
  }
  const method = u16(bytes, at + 8);
  if (method !== record.method) return disagrees('compression method', record.method, method);
  if ((flags & encryptionFlags) !== (record.flags & encryptionFlags)) {
    return disagrees('encryption');
  }
  if ((record.flags & dataDescriptorFlag) === 0) {
    const crc = u32(bytes, at + 14);
    if (crc !== record.crc) return disagrees('CRC-32', record.crc, crc);
    const sizes = localSizes(bytes, at, bytes.subarray(nameStart + nameLength, dataStart));
    if (sizes.compressed !== record.compressedSize) {
      return disagrees('compressed size', record.compressedSize, sizes.compressed);
    }
    if (sizes.uncompressed !== record.uncompressedSize) {
      return disagrees('uncompressed size', record.uncompressedSize, sizes.uncompressed);
    }
  }
  return undefined;
}
