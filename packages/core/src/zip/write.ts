import { deflateSync } from 'fflate';
import type { Folder } from '../report/folder.js';
import { ByteWriter, methods, signatures } from './bytes.js';
import { crc32 } from './crc32.js';

/** Raw DEFLATE (no zlib header), e.g. fflate's `deflateSync` or node:zlib's `deflateRawSync`. */
export type RawDeflate = (data: Uint8Array) => Uint8Array;
/** Raw DEFLATE that answers later, e.g. node:zlib's `deflateRaw`. */
export type AsyncRawDeflate = (data: Uint8Array) => Promise<Uint8Array>;
/** The CRC-32 of the bytes (ISO 3309), e.g. node:zlib's `crc32`. */
export type Crc32 = (data: Uint8Array) => number;

export interface WriteZipOptions {
  /** Defaults to fflate at `zipDeflateLevel`; the server passes node:zlib at the same level. */
  deflate?: RawDeflate;
  /**
   * Defaults to this package's own (JavaScript, about 2 GB/s on a quiet core); Node's native one
   * is several times faster, which counts where every byte of a large folder goes through it.
   */
  crc32?: Crc32;
}

/** `writeZipAsync`'s and `streamZip`'s options: the deflate answers later. */
export interface AsyncZipOptions {
  deflate: AsyncRawDeflate;
  /** As in `WriteZipOptions`. */
  crc32?: Crc32;
}

/** Thrown only for folders no limit allows: more than 65,535 files or 4 GiB (ZIP64 needed). */
export class ZipWriteError extends Error {
  constructor(readonly code: 'too_many_entries' | 'too_large') {
    super(`writeZip: ${code.replaceAll('_', ' ')}`);
    this.name = 'ZipWriteError';
  }
}

/**
 * The one fixed compression level of exported folders. Level 2 keeps text within ~3% of level 6's
 * size at about twice its speed (measured on the corpus sites' HTML and CSS with node:zlib).
 */
export const zipDeflateLevel = 2;

const fflateDefault: RawDeflate = (data) => deflateSync(data, { level: zipDeflateLevel });

/** Formats that are compressed already: deflating them again costs time and saves nothing. */
const storedExtensions = new Set([
  'png',
  'jpg',
  'jpeg',
  'webp',
  'gif',
  'avif',
  'woff',
  'woff2',
  'zip',
  'mp4',
  'webm',
  'mp3',
  'ogg',
  'pdf',
]);

function isCompressedFormat(path: string): boolean {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  return dot > 0 && storedExtensions.has(name.slice(dot + 1).toLowerCase());
}

// Everything below is fixed so that equal folders give equal bytes.
const versionMadeBy = (3 << 8) | 20; // Unix host, so that the mode below is honoured; ZIP 2.0
const versionNeeded = 20;
const utf8NameFlag = 0x0800;
const dosTime = 0; // 00:00:00
const dosDate = (1 << 5) | 1; // 1980-01-01
const regularFileMode = 0o100644 << 16;
const localHeaderBytes = 30;
const centralHeaderBytes = 46;
const endRecordBytes = 22;
const maxEntries = 0xffff;
const maxOffset = 0xffffffff;

/** What the headers say of an entry. */
interface EntryHeader {
  readonly name: Uint8Array;
  readonly method: number;
  readonly crc: number;
  readonly size: number;
  readonly compressedSize: number;
}

interface Packed extends EntryHeader {
  readonly data: Uint8Array;
}

/** The entry with `data` stored as given; `deflated` when deflating is worth trying. */
function entryOf(
  path: string,
  content: Uint8Array,
  crc: Crc32 = crc32,
): { entry: Packed; deflated: boolean } {
  const name = new TextEncoder().encode(path);
  const size = content.length;
  const entry = { name, crc: crc(content), size, compressedSize: size, method: methods.stored };
  return {
    entry: { ...entry, data: content },
    deflated: content.length > 0 && !isCompressedFormat(path),
  };
}

/** Data that deflate cannot shrink is stored: the choice depends only on the bytes. */
function withCompressed(entry: Packed, compressed: Uint8Array): Packed {
  return compressed.length < entry.size
    ? { ...entry, method: methods.deflated, data: compressed, compressedSize: compressed.length }
    : entry;
}

function pack(path: string, content: Uint8Array, options: WriteZipOptions): Packed {
  const { entry, deflated } = entryOf(path, content, options.crc32);
  return deflated ? withCompressed(entry, (options.deflate ?? fflateDefault)(content)) : entry;
}

async function packAsync(
  path: string,
  content: Uint8Array,
  options: AsyncZipOptions,
): Promise<Packed> {
  const { entry, deflated } = entryOf(path, content, options.crc32);
  return deflated ? withCompressed(entry, await options.deflate(content)) : entry;
}

function writeHeader(out: ByteWriter, entry: EntryHeader): ByteWriter {
  return out
    .u16(versionNeeded)
    .u16(utf8NameFlag)
    .u16(entry.method)
    .u16(dosTime)
    .u16(dosDate)
    .u32(entry.crc)
    .u32(entry.compressedSize)
    .u32(entry.size)
    .u16(entry.name.length)
    .u16(0); // no extra fields
}

/**
 * Writes a deterministic ZIP: entries sorted by path, fixed 1980-01-01 timestamps and attributes,
 * UTF-8 names, no extra fields, compressed formats stored and everything else deflated by
 * `deflate` (stored where that does not shrink it). Equal folders and the same deflate give
 * equal bytes; another deflate changes only the compressed data, never the layout rules.
 */
export function writeZip(folder: Folder, options: WriteZipOptions = {}): Uint8Array {
  return assemble(sortedPaths(folder).map((path) => pack(path, folder.get(path)!, options)));
}

/**
 * `writeZip` with a deflate that runs elsewhere (node:zlib's thread pool): the same bytes as
 * `writeZip` with the same deflate, while the caller's thread is free between entries.
 */
export async function writeZipAsync(folder: Folder, options: AsyncZipOptions): Promise<Uint8Array> {
  const entries: Packed[] = [];
  for (const path of sortedPaths(folder)) {
    entries.push(await packAsync(path, folder.get(path)!, options));
  }
  return assemble(entries);
}

/** A file of a ZIP written by `streamZip`: its path, and its content when asked for. */
export interface ZipSource {
  path: string;
  content: () => Promise<Uint8Array>;
}

/**
 * `writeZipAsync`'s bytes, in pieces as they are ready: each entry is read and deflated when its
 * turn nears (`ahead` entries at once, so several deflate at the same time), and written out
 * before the next; the central directory follows the last. The first piece comes after the first
 * entry whatever the folder's size, and only the entries in flight are held in memory.
 */
export async function* streamZip(
  sources: readonly ZipSource[],
  options: AsyncZipOptions & { ahead?: number },
): AsyncGenerator<Uint8Array, void, undefined> {
  const sorted = sortedSources(sources);
  const ahead = Math.max(1, options.ahead ?? 4);
  const pack = async ({ path, content }: ZipSource) => packAsync(path, await content(), options);
  const pending: Array<Promise<Packed>> = [];
  const written: EntryHeader[] = [];
  const offsets: number[] = [];
  let offset = 0;
  for (let next = 0; written.length < sorted.length;) {
    while (next < sorted.length && pending.length < ahead) pending.push(pack(sorted[next++]!));
    const entry = await pending.shift()!;
    offsets.push(offset);
    offset += localHeaderBytes + entry.name.length + entry.data.length;
    if (offset > maxOffset) throw new ZipWriteError('too_large');
    yield localHeader(entry);
    yield entry.data;
    const { data: _written, ...header } = entry;
    written.push(header);
  }
  yield centralDirectory(written, offsets, offset);
}

function sortedSources(sources: readonly ZipSource[]): ZipSource[] {
  const sorted = [...sources].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  if (sorted.length > maxEntries) throw new ZipWriteError('too_many_entries');
  return sorted;
}

function sortedPaths(folder: Folder): string[] {
  const paths = [...folder.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  if (paths.length > maxEntries) throw new ZipWriteError('too_many_entries');
  return paths;
}

/** The local header of `entry` with its name; its data follows it. */
function localHeader(entry: EntryHeader): Uint8Array {
  const out = new ByteWriter(new Uint8Array(localHeaderBytes + entry.name.length));
  return writeHeader(out.u32(signatures.local), entry).raw(entry.name).bytes;
}

/** The central directory of `entries` (at `offsets`) and the end record; it starts at `start`. */
function centralDirectory(
  entries: readonly EntryHeader[],
  offsets: readonly number[],
  start: number,
): Uint8Array {
  const centralBytes = entries.reduce((n, e) => n + centralHeaderBytes + e.name.length, 0);
  if (start + centralBytes > maxOffset) throw new ZipWriteError('too_large');
  const out = new ByteWriter(new Uint8Array(centralBytes + endRecordBytes));
  entries.forEach((entry, i) => {
    writeHeader(out.u32(signatures.central).u16(versionMadeBy), entry)
      .u16(0) // comment length
      .u16(0) // disk number
      .u16(0) // internal attributes
      .u32(regularFileMode)
      .u32(offsets[i]!)
      .raw(entry.name);
  });
  out
    .u32(signatures.end)
    .u16(0)
    .u16(0)
    .u16(entries.length)
    .u16(entries.length)
    .u32(centralBytes)
    .u32(start)
    .u16(0); // comment length
  return out.bytes;
}

function assemble(entries: readonly Packed[]): Uint8Array {
  const offsets: number[] = [];
  let offset = 0;
  const parts: Uint8Array[] = [];
  for (const entry of entries) {
    offsets.push(offset);
    offset += localHeaderBytes + entry.name.length + entry.data.length;
    if (offset > maxOffset) throw new ZipWriteError('too_large');
    parts.push(localHeader(entry), entry.data);
  }
  parts.push(centralDirectory(entries, offsets, offset));
  const out = new Uint8Array(parts.reduce((n, part) => n + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
