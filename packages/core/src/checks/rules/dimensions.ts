import { imageSize } from 'image-size';

/** Formats whose pixel size the checks read (decisions §4 bounds apply to each). */
export const imageFormats: ReadonlySet<string> = new Set([
  'png',
  'jpeg',
  'gif',
  'webp',
  'avif',
  'svg',
  'ico',
]);

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
 * Reads an image's size with image-size, guarded: a malformed file is a typed result, never a
 * throw. Only the format the extension names is accepted (image-size guesses the type itself).
 */
export function readDimensions(format: string, bytes: Uint8Array): DimensionResult {
  // image-size reads through the view's whole ArrayBuffer, past its end: a file that is a view
  // into a larger buffer (an unpacked ZIP) would borrow its neighbour's bytes. Give it its own.
  const own = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
  let result: ReturnType<typeof imageSize>;
  try {
    result = imageSize(own ? bytes : bytes.slice());
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
