import { textFormats } from '../media/catalog.js';
import { looksBinary } from './text.js';

const ascii = (bytes: Uint8Array, start: number, text: string): boolean => {
  if (bytes.length < start + text.length) return false;
  for (let i = 0; i < text.length; i++) if (bytes[start + i] !== text.charCodeAt(i)) return false;
  return true;
};
const startsWith = (bytes: Uint8Array, magic: readonly number[]): boolean =>
  bytes.length >= magic.length && magic.every((b, i) => bytes[i] === b);

/** ISO base media (`ftyp` box): avif when its brands say so, else mp4. */
function sniffIsoMedia(bytes: Uint8Array): string | undefined {
  if (!ascii(bytes, 4, 'ftyp')) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const boxEnd = Math.min(bytes.length >= 4 ? view.getUint32(0) : 0, bytes.length, 256);
  for (let at = 8; at + 4 <= boxEnd; at += 4) {
    if (at === 12) continue; // minor version, not a brand
    if (ascii(bytes, at, 'avif') || ascii(bytes, at, 'avis')) return 'avif';
  }
  for (const image of ['heic', 'heix', 'mif1', 'msf1']) if (ascii(bytes, 8, image)) return 'heif';
  return 'mp4';
}

/** The binary format the content's signature names (format names of the media catalog). */
function sniffBinary(bytes: Uint8Array): string | undefined {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'jpeg';
  if (ascii(bytes, 0, 'GIF87a') || ascii(bytes, 0, 'GIF89a')) return 'gif';
  if (ascii(bytes, 0, 'RIFF') && ascii(bytes, 8, 'WEBP')) return 'webp';
  if (ascii(bytes, 0, 'wOFF')) return 'woff';
  if (ascii(bytes, 0, 'wOF2')) return 'woff2';
  if (ascii(bytes, 0, 'OTTO')) return 'otf';
  if (startsWith(bytes, [0, 1, 0, 0]) || ascii(bytes, 0, 'true') || ascii(bytes, 0, 'ttcf'))
    return 'ttf';
  if (startsWith(bytes, [0, 0, 1, 0])) return 'ico';
  if (startsWith(bytes, [0x1a, 0x45, 0xdf, 0xa3])) return 'webm';
  if (ascii(bytes, 0, 'OggS')) return 'ogg';
  if (ascii(bytes, 0, '%PDF-')) return 'pdf';
  if (ascii(bytes, 0, 'ID3')) return 'mp3';
  if (bytes.length >= 2 && bytes[0] === 0xff && ((bytes[1] ?? 0) & 0xe0) === 0xe0) return 'mp3';
  if (ascii(bytes, 0, 'PK\x03\x04')) return 'zip';
  return sniffIsoMedia(bytes);
}

/** Formats that share one container: a `.otf` may hold TrueType outlines and the reverse. */
const sameFamily = (a: string, b: string): boolean =>
  a === b || (['ttf', 'otf'].includes(a) && ['ttf', 'otf'].includes(b));

export type SniffResult = { ok: true } | { ok: false; actual: string };

/**
 * Whether the content is what its format name says. Binary formats must carry their signature;
 * text formats must not look binary (their encoding and syntax are judged elsewhere).
 */
export function sniffMatches(format: string, bytes: Uint8Array): SniffResult {
  // Text behind a UTF-16 byte-order mark is text, for `formats.encoding` to judge; FF FE would
  // otherwise read as an MP3 frame sync, and the NUL bytes as binary.
  if (
    textFormats.has(format) &&
    (startsWith(bytes, [0xff, 0xfe]) || startsWith(bytes, [0xfe, 0xff]))
  )
    return { ok: true };
  const sniffed = sniffBinary(bytes);
  if (textFormats.has(format)) {
    if (sniffed === undefined && !looksBinary(bytes)) return { ok: true };
    return { ok: false, actual: sniffed ?? 'binary' };
  }
  if (sniffed !== undefined && sameFamily(sniffed, format)) return { ok: true };
  return { ok: false, actual: sniffed ?? (looksBinary(bytes) ? 'unknown' : 'text') };
}
