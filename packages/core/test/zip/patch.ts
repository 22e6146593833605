// Damages one entry of a well-formed ZIP (made by writeZip or fflate) in place, header by header.
// Reads the archive with its own few lines, apart from src/zip, like craft.ts.

const decoder = new TextDecoder();
const endRecordBytes = 22;
const centralHeaderBytes = 46;

/** Where an entry's local and central headers start. */
export interface EntryHeaders {
  readonly local: number;
  readonly central: number;
}

/** Finds an entry by name through the central directory (no archive comment, no ZIP64). */
export function headersOf(zip: Uint8Array, name: string): EntryHeaders {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  const end = zip.length - endRecordBytes;
  if (view.getUint32(end, true) !== 0x06054b50) throw new Error('no end record where expected');
  for (let at = view.getUint32(end + 16, true); at < end;) {
    const nameLength = view.getUint16(at + 28, true);
    const variable = nameLength + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
    const start = at + centralHeaderBytes;
    if (decoder.decode(zip.subarray(start, start + nameLength)) === name) {
      return { local: view.getUint32(at + 42, true), central: at };
    }
    at = start + variable;
  }
  throw new Error(`no entry ${name}`);
}

/** Offsets of the fields both headers carry, from the start of each header. */
const fields = {
  flags: { local: 6, central: 8 },
  crc: { local: 14, central: 16 },
  uncompressedSize: { local: 22, central: 24 },
} as const;

type Field = keyof typeof fields;
type Header = keyof EntryHeaders;

/**
 * A copy of `zip` with one field of `name` changed by `change`, in the headers listed (both by
 * default: the archive stays self-consistent, only the entry's data disagrees with it).
 */
export function patchEntry(
  zip: Uint8Array,
  name: string,
  field: Field,
  change: (value: number) => number,
  headers: readonly Header[] = ['local', 'central'],
): Uint8Array {
  const patched = zip.slice();
  const view = new DataView(patched.buffer, patched.byteOffset, patched.byteLength);
  const found = headersOf(patched, name);
  for (const header of headers) {
    const at = found[header] + fields[field][header];
    if (field === 'flags') view.setUint16(at, change(view.getUint16(at, true)), true);
    else view.setUint32(at, change(view.getUint32(at, true)) >>> 0, true);
  }
  return patched;
}
