import type { ZipCode } from './codes.js';

/** The upper half of code page 437, the encoding of ZIP names without the UTF-8 flag. */
const cp437High =
  'ÇüéâäàåçêëèïîìÄÅÉæÆôöòûùÿÖÜ¢£¥₧ƒáíóúñÑªº¿⌐¬½¼¡«»░▒▓│┤╡╢╖╕╣║╗╝╜╛┐└┴┬├─┼╞╟╚╔╩╦╠═╬╧╨╤╥╙╘╒╓╫╪┘┌█▄▌▐▀αßΓπΣσµτΦΘΩδ∞φε∩≡±≥≤⌠⌡÷≈°∙·√ⁿ²■\u00a0';

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

function decodeUtf8(raw: Uint8Array): string | undefined {
  try {
    return strictUtf8.decode(raw);
  } catch {
    return undefined;
  }
}

/**
 * Decodes an entry name. With the UTF-8 flag the name must be valid UTF-8 (undefined otherwise).
 * Without it, valid UTF-8 is still taken as UTF-8 (macOS and many libraries write it unflagged)
 * and anything else as code page 437, as the ZIP specification says.
 */
export function decodeName(raw: Uint8Array, utf8Flag: boolean): string | undefined {
  if (utf8Flag) return decodeUtf8(raw);
  const utf8 = decodeUtf8(raw);
  if (utf8 !== undefined) return utf8;
  let name = '';
  for (const byte of raw) name += byte < 0x80 ? String.fromCharCode(byte) : cp437High[byte - 0x80];
  return name;
}

function isControl(code: number): boolean {
  return code < 0x20 || (code >= 0x7f && code <= 0x9f);
}

export type NameCode = Extract<ZipCode, `names.${string}`>;

/** True for a directory entry's name (directories are not files and never reach the folder). */
export function isDirectoryName(name: string): boolean {
  return name.endsWith('/');
}

/** The first reason a name could escape the folder or be misread, or undefined when it is safe. */
export function hostileName(name: string): NameCode | undefined {
  for (let i = 0; i < name.length; i++) {
    if (isControl(name.charCodeAt(i))) return 'names.control_character';
  }
  if (name.includes('\\')) return 'names.backslash';
  if (/^[a-z]:/i.test(name)) return 'names.drive_letter';
  if (name.startsWith('/')) return 'names.absolute';
  const segments = (isDirectoryName(name) ? name.slice(0, -1) : name).split('/');
  if (segments.includes('..')) return 'names.traversal';
  if (segments.some((segment) => segment === '' || segment === '.')) return 'names.not_canonical';
  return undefined;
}

/**
 * The key under which two names land on the same file on some file system: Unicode NFC, then
 * full case folding (upper then lower case also folds ß to ss and ſ to s).
 */
export function collisionKey(name: string): string {
  return name.normalize('NFC').toUpperCase().toLowerCase().normalize('NFC');
}

function isInvisibleFormat(code: number): boolean {
  return (
    code === 0x061c ||
    (code >= 0x200b && code <= 0x200f) ||
    (code >= 0x202a && code <= 0x202e) ||
    (code >= 0x2066 && code <= 0x2069) ||
    code === 0xfeff
  );
}

const maxDisplayLength = 256;

/** A name safe to print: control and bidirectional characters escaped, long names cut. */
export function displayName(name: string): string {
  let shown = '';
  for (let i = 0; i < name.length; i++) {
    const code = name.charCodeAt(i);
    shown +=
      isControl(code) || isInvisibleFormat(code)
        ? `\\u${code.toString(16).padStart(4, '0')}`
        : name[i];
  }
  const points = Array.from(shown);
  return points.length > maxDisplayLength
    ? `${points.slice(0, maxDisplayLength).join('')}…`
    : shown;
}
