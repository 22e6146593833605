// Builds ZIP archives field by field, so that tests can make every defect a reader must refuse.
// Deliberately independent of src/zip: a bug in the writer must not hide a bug in the reader.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { crc32 as zlibCrc32, deflateRawSync } from 'node:zlib';

export const te = new TextEncoder();

/** CRC-32 computed by zlib, an implementation the reader under test does not share. */
export function crc(data: Uint8Array): number {
  return zlibCrc32(data) >>> 0;
}

export function deflate(data: Uint8Array): Uint8Array {
  return new Uint8Array(deflateRawSync(data, { level: 9 }));
}

export function concat(...parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

class Fields {
  private readonly bytes: number[] = [];
  u16(v: number): this {
    this.bytes.push(v & 0xff, (v >>> 8) & 0xff);
    return this;
  }
  u32(v: number): this {
    return this.u16(v & 0xffff).u16(v >>> 16);
  }
  u64(v: number): this {
    return this.u32(v % 0x1_0000_0000).u32(Math.floor(v / 0x1_0000_0000));
  }
  raw(data: Uint8Array): this {
    for (const b of data) this.bytes.push(b);
    return this;
  }
  done(): Uint8Array {
    return Uint8Array.from(this.bytes);
  }
}

/** The fields both headers carry; each header may be given its own values. */
export interface HeaderFields {
  name: Uint8Array;
  flags: number;
  method: number;
  crc: number;
  compressedSize: number;
  uncompressedSize: number;
  extra: Uint8Array;
}

export interface CentralFields extends HeaderFields {
  madeBy: number;
  externalAttributes: number;
  diskStart: number;
  localOffset: number;
}

export function localHeader(f: HeaderFields): Uint8Array {
  return new Fields()
    .u32(0x04034b50)
    .u16(20)
    .u16(f.flags)
    .u16(f.method)
    .u16(0)
    .u16(0x21)
    .u32(f.crc)
    .u32(f.compressedSize)
    .u32(f.uncompressedSize)
    .u16(f.name.length)
    .u16(f.extra.length)
    .raw(f.name)
    .raw(f.extra)
    .done();
}

export function centralHeader(f: CentralFields): Uint8Array {
  return new Fields()
    .u32(0x02014b50)
    .u16(f.madeBy)
    .u16(20)
    .u16(f.flags)
    .u16(f.method)
    .u16(0)
    .u16(0x21)
    .u32(f.crc)
    .u32(f.compressedSize)
    .u32(f.uncompressedSize)
    .u16(f.name.length)
    .u16(f.extra.length)
    .u16(0)
    .u16(f.diskStart)
    .u16(0)
    .u32(f.externalAttributes)
    .u32(f.localOffset)
    .raw(f.name)
    .raw(f.extra)
    .done();
}

export interface EndFields {
  disk: number;
  directoryDisk: number;
  entriesOnDisk: number;
  entries: number;
  directorySize: number;
  directoryOffset: number;
  comment: Uint8Array;
}

export function endRecord(f: EndFields): Uint8Array {
  return new Fields()
    .u32(0x06054b50)
    .u16(f.disk)
    .u16(f.directoryDisk)
    .u16(f.entriesOnDisk)
    .u16(f.entries)
    .u32(f.directorySize)
    .u32(f.directoryOffset)
    .u16(f.comment.length)
    .raw(f.comment)
    .done();
}

/** ZIP64 end record and locator, written before the classic end record. */
export function zip64End(entries: number, size: number, offset: number, at: number): Uint8Array {
  const record = new Fields()
    .u32(0x06064b50)
    .u64(44)
    .u16(45)
    .u16(45)
    .u32(0)
    .u32(0)
    .u64(entries)
    .u64(entries)
    .u64(size)
    .u64(offset)
    .done();
  const locator = new Fields().u32(0x07064b50).u32(0).u64(at).u32(1).done();
  return concat(record, locator);
}

/** One entry: content, how it is stored, and the defects to plant in either header. */
export interface Crafted {
  name: string | Uint8Array;
  content?: Uint8Array;
  /** 0 (stored, default) or 8 (deflated with zlib), or any other number, stored as is. */
  method?: number;
  /** The bytes written as entry data; defaults to the content, deflated for method 8. */
  data?: Uint8Array;
  flags?: number;
  /** Unix mode in the high half, DOS attributes in the low half. Default: a 0644 regular file. */
  externalAttributes?: number;
  madeBy?: number;
  central?: Partial<CentralFields>;
  local?: Partial<HeaderFields>;
}

export interface ArchiveOptions {
  /** Bytes before the archive; offsets count from the start of the file unless `unadjusted`. */
  prefix?: Uint8Array;
  unadjusted?: boolean;
  suffix?: Uint8Array;
  end?: Partial<EndFields>;
  zip64?: boolean;
}

export function craftZip(entries: readonly Crafted[], options: ArchiveOptions = {}): Uint8Array {
  const prefix = options.prefix ?? new Uint8Array(0);
  const base = options.unadjusted ? 0 : prefix.length;
  const locals: Uint8Array[] = [];
  const centrals: Uint8Array[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = typeof entry.name === 'string' ? te.encode(entry.name) : entry.name;
    const content = entry.content ?? new Uint8Array(0);
    const method = entry.method ?? 0;
    const data = entry.data ?? (method === 8 ? deflate(content) : content);
    const shared: HeaderFields = {
      name,
      flags: entry.flags ?? 0x0800,
      method,
      crc: crc(content),
      compressedSize: data.length,
      uncompressedSize: content.length,
      extra: new Uint8Array(0),
    };
    const local = concat(localHeader({ ...shared, ...entry.local }), data);
    centrals.push(
      centralHeader({
        ...shared,
        madeBy: entry.madeBy ?? 0x0314,
        externalAttributes: entry.externalAttributes ?? (0o100644 << 16) >>> 0,
        diskStart: 0,
        localOffset: base + offset,
        ...entry.central,
      }),
    );
    locals.push(local);
    offset += local.length;
  }
  const directory = concat(...centrals);
  const directoryOffset = base + offset;
  const zip64 = options.zip64
    ? zip64End(
        entries.length,
        directory.length,
        directoryOffset,
        directoryOffset + directory.length,
      )
    : new Uint8Array(0);
  const end = endRecord({
    disk: 0,
    directoryDisk: 0,
    entriesOnDisk: options.zip64 ? 0xffff : entries.length,
    entries: options.zip64 ? 0xffff : entries.length,
    directorySize: options.zip64 ? 0xffffffff : directory.length,
    directoryOffset: options.zip64 ? 0xffffffff : directoryOffset,
    comment: new Uint8Array(0),
    ...options.end,
  });
  return concat(prefix, ...locals, directory, zip64, end, options.suffix ?? new Uint8Array(0));
}

setFlagsFromString('--expose_gc');
const collectGarbage = runInNewContext('gc') as () => void;

/**
 * Runs `work` and reports how far the resident set grew at its peak. The process's peak RSS
 * also counts anything earlier in the process, so this is an upper bound, never an underestimate.
 */
export function peakGrowth<T>(work: () => T): { result: T; bytes: number } {
  collectGarbage();
  const before = process.memoryUsage().rss;
  const result = work();
  const peak = Math.max(process.resourceUsage().maxRSS * 1024, process.memoryUsage().rss);
  return { result, bytes: peak - before };
}
