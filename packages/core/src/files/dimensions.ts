import { imageSize } from 'image-size';
import { svgRootAttributes } from './svg.js';
import { decodeUtf8 } from './text.js';

export interface Size {
  readonly width: number;
  readonly height: number;
}
export const maxSide = 16_384;
export const maxPixels = 50_000_000;

export type DimensionResult =
  | { readonly status: 'read'; readonly size: Size }
  /** The file is damaged: a raster image whose header cannot be read. */
  | { readonly status: 'unreadable' }
  /** A well-formed image with no intrinsic size (an SVG without width/height or viewBox). */
  | { readonly status: 'unsized' };

/** image-size names some formats differently from the media catalog. */
const imageSizeType: Readonly<Record<string, string>> = { jpeg: 'jpg', avif: 'avif' };

/**
 * Formats whose size image-size reads from a header of at most this many bytes (PNG's IHDR, after
 * an Apple "CgBI" chunk at most; GIF's screen descriptor; WebP's VP8/VP8L/VP8X header).
 */
const headerBytes: Readonly<Record<string, number>> = { png: 40, gif: 10, webp: 30 };

/** image-size's reading, guarded; an SVG's fractional size rounded. */
function readWithImageSize(format: string, bytes: Uint8Array): DimensionResult {
  // image-size reads through the view's whole ArrayBuffer, past its end: a file that is a view
  // into a larger buffer (an unpacked ZIP) would borrow its neighbour's bytes. Give it its own:
  // its header alone where that is all image-size reads (copying a folder's every image cost a
  // large check tens of milliseconds), else all of it.
  const own = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
  let result: ReturnType<typeof imageSize>;
  try {
    result = imageSize(own ? bytes : bytes.slice(0, headerBytes[format] ?? bytes.length));
  } catch {
    return { status: format === 'svg' ? 'unsized' : 'unreadable' };
  }
  const { width, height, type } = result;
  if (type !== (imageSizeType[format] ?? format)) return { status: 'unreadable' };
  if (!Number.isFinite(width) || !Number.isFinite(height)) return { status: 'unreadable' };
  // SVG lengths may be fractional; a vector image has no half pixels to refuse.
  if (format === 'svg')
    return { status: 'read', size: { width: Math.round(width), height: Math.round(height) } };
  return { status: 'read', size: { width, height } };
}

/** Pixels per unit, as image-size counts them, so a length judged here is the one it reads. */
const pixelsPerUnit: Readonly<Record<string, number>> = {
  '': 1,
  px: 1,
  in: 96,
  cm: 96 / 2.54,
  mm: 96 / 2.54 / 10,
  m: (96 / 2.54) * 100,
  pt: 96 / 72,
  pc: 96 / 72 / 12,
  em: 16,
  ex: 8,
};
// Unambiguous, so linear on a hostile value (no two ways to split a run of digits).
const svgLengthPattern = /^([+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?)([a-z]*)$/i;

/**
 * An explicit SVG length in whole pixels, any sign; undefined for a percentage, a keyword, an
 * unknown unit or a number too large to hold (those keep image-size's reading).
 */
function svgLength(value: string | undefined): number | undefined {
  const match = value === undefined ? null : svgLengthPattern.exec(value.trim());
  const perUnit = match ? pixelsPerUnit[match[2]!.toLowerCase()] : undefined;
  if (!match || perUnit === undefined) return undefined;
  const pixels = Math.round(Number(match[1]) * perUnit);
  return Number.isFinite(pixels) ? pixels + 0 : undefined; // + 0: no -0 in reports
}

/**
 * image-size skips an SVG width or height of 0 or below (and one given alone, without a
 * viewBox), so the image would pass as unsized or take its viewBox size. A side the root
 * `<svg>` declares outside 1–16,384 pixels is read as declared, for the bounds to refuse it
 * (decisions §4, like a raster header); the other side keeps what image-size read, or 0 when it
 * read nothing. Sizes within the bounds, percentages and unknown units keep image-size's reading.
 */
function withDeclaredSvgSize(bytes: Uint8Array, read: DimensionResult): DimensionResult {
  const text = decodeUtf8(bytes);
  if (text === undefined) return read;
  const attributes = svgRootAttributes(text);
  const width = svgLength(attributes.get('width'));
  const height = svgLength(attributes.get('height'));
  const outside = (side: number | undefined) => side !== undefined && (side < 1 || side > maxSide);
  if (!outside(width) && !outside(height)) return read;
  const other = read.status === 'read' ? read.size : { width: 0, height: 0 };
  return { status: 'read', size: { width: width ?? other.width, height: height ?? other.height } };
}

/**
 * Reads an image's size with image-size, guarded: a malformed file is a typed result, never a
 * throw. Only the format the extension names is accepted (image-size guesses the type itself).
 * An SVG's declared width and height are judged as written (`withDeclaredSvgSize`).
 */
export function readDimensions(format: string, bytes: Uint8Array): DimensionResult {
  const read = readWithImageSize(format, bytes);
  return format === 'svg' ? withDeclaredSvgSize(bytes, read) : read;
}

/** Integer sides of 1–16,384 pixels and at most 50 megapixels (decisions §4). */
export function withinBounds({ width, height }: Size): boolean {
  return (
    Number.isInteger(width) &&
    Number.isInteger(height) &&
    width >= 1 &&
    height >= 1 &&
    width <= maxSide &&
    height <= maxSide &&
    width * height <= maxPixels
  );
}
