import type { Violation } from '../report/violation.js';
import { violation } from '../report/codes.js';
import { formatOfPath, webFormats } from '../media/catalog.js';
import { maxPixels, maxSide, withinBounds, type DimensionResult } from './dimensions.js';
import { sniffMatches } from './sniff.js';
import { maxNesting } from '../html/page.js';
import { looksLikeSvg, svgActiveContent, svgXmlDefect } from './svg.js';

/** The message of `formats.svg_active` when nesting alone kept the SVG from being read through. */
const SVG_TOO_DEEP = `The SVG nests elements deeper than ${maxNesting} levels, so it cannot be read to its end and shown to hold no active content.`;

/** Formats the checks must be able to decode as UTF-8 (they parse them or browsers require it). */
const utf8Formats = new Set(['html', 'css', 'svg', 'json', 'webmanifest']);
const jsonFormats = new Set(['json', 'webmanifest']);
const knownFormats: ReadonlySet<string> = new Set(webFormats);

/** Reads one file, lazily and once (the folder context caches these). */
export interface FileReader {
  readonly bytes: Uint8Array;
  text(): string | undefined;
  dimensions(): DimensionResult | undefined;
}

function textViolation(path: string, format: string, text: string): Violation | undefined {
  if (jsonFormats.has(format)) {
    try {
      JSON.parse(text);
    } catch {
      return violation('formats.mismatch', {
        path,
        message: 'The file is not valid JSON.',
        expected: format,
        actual: 'text',
      });
    }
  }
  if (format !== 'svg') return undefined;
  if (!looksLikeSvg(text))
    return violation('formats.mismatch', { path, expected: format, actual: 'text' });
  const reasons = svgActiveContent(text);
  if (reasons.length === 0) return svgXmlViolation(path, text);
  // Nesting alone: nothing active was seen, the drawing is too deep to be read to its end.
  const nestedOnly = reasons.length === 1 && reasons[0] === 'nesting';
  return violation('formats.svg_active', {
    path,
    actual: reasons,
    ...(nestedOnly ? { message: SVG_TOO_DEEP } : {}),
  });
}

/** An SVG that is not well-formed XML is no picture at all, so it is not the format it names. */
function svgXmlViolation(path: string, text: string): Violation | undefined {
  const defect = svgXmlDefect(text);
  if (defect === undefined) return undefined;
  return violation('formats.mismatch', {
    path,
    line: defect.line,
    column: defect.column,
    message: `The SVG is not well-formed XML (${defect.reason}), so no browser shows it.`,
    expected: 'svg',
    actual: 'text',
  });
}

/**
 * The `formats` rules for one file: its type allowed (when `allowed` is known), its content
 * what the extension says, text in UTF-8, images readable and within bounds, SVG inert.
 * At most one violation: each rule needs the previous ones to hold.
 */
export function fileFormatViolation(
  path: string,
  file: FileReader,
  allowed: ReadonlySet<string> | undefined,
): Violation | undefined {
  const format = formatOfPath(path);
  if (format === undefined || (allowed ? !allowed.has(format) : !knownFormats.has(format)))
    return violation('formats.not_allowed', {
      path,
      ...(allowed ? { expected: [...allowed].sort() } : {}),
      actual: format ?? null,
    });
  const sniffed = sniffMatches(format, file.bytes);
  if (!sniffed.ok)
    return violation('formats.mismatch', { path, expected: format, actual: sniffed.actual });
  if (utf8Formats.has(format)) {
    const text = file.text();
    if (text === undefined) return violation('formats.encoding', { path, expected: 'utf-8' });
    const problem = textViolation(path, format, text);
    if (problem) return problem;
  }
  const dimensions = file.dimensions();
  if (dimensions?.status === 'unreadable') return violation('formats.unreadable', { path });
  if (dimensions?.status === 'read' && !withinBounds(dimensions.size))
    return violation('formats.dimensions', {
      path,
      expected: { max_side: maxSide, max_pixels: maxPixels },
      actual: dimensions.size,
    });
  return undefined;
}
