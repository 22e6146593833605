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
