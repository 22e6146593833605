const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** The bytes as UTF-8 text (a leading BOM dropped), or undefined when they are not UTF-8. */
export function decodeUtf8(bytes: Uint8Array): string | undefined {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return undefined;
  }
}

/** Text files never hold NUL bytes; binary ones almost always do near the start. */
export function looksBinary(bytes: Uint8Array): boolean {
  return bytes.subarray(0, 8192).includes(0);
}

/**
 * The first control character of `text` (C0, DEL or C1: what `\p{Cc}` matches) as `U+XXXX`, or
 * undefined. Titles are kept by the stores as text: PostgreSQL refuses U+0000 outright, and no
 * title needs a tab, a line break or any other control.
 */
export function controlCharacterOf(text: string): string | undefined {
  const code = /\p{Cc}/u.exec(text)?.[0].codePointAt(0);
  return code === undefined ? undefined : `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
}
