/** Little-endian field access for ZIP records; every read is bounds-checked by the caller. */

export const signatures = {
  local: 0x04034b50,
  central: 0x02014b50,
  end: 0x06054b50,
  zip64End: 0x06064b50,
  zip64Locator: 0x07064b50,
} as const;

/** The only compression methods Galley reads and writes. */
export const methods = { stored: 0, deflated: 8 } as const;

/** A 32-bit field holding this value (or a 16-bit one holding 0xffff) defers to ZIP64 data. */
export const zip64Marker32 = 0xffffffff;
export const zip64Marker16 = 0xffff;

export function u16(bytes: Uint8Array, at: number): number {
  return (bytes[at] ?? 0) | ((bytes[at + 1] ?? 0) << 8);
}

export function u32(bytes: Uint8Array, at: number): number {
  return (u16(bytes, at) | (u16(bytes, at + 2) << 16)) >>> 0;
}

/** 64-bit fields become plain numbers: values past 2^53 lose precision but still exceed every limit. */
export function u64(bytes: Uint8Array, at: number): number {
  return u32(bytes, at + 4) * 0x1_0000_0000 + u32(bytes, at);
}

/** Sequential little-endian writer into a buffer sized in advance. */
export class ByteWriter {
  private at = 0;
  constructor(readonly bytes: Uint8Array) {}

  get offset(): number {
    return this.at;
  }

  u16(value: number): this {
    this.bytes[this.at++] = value & 0xff;
    this.bytes[this.at++] = (value >>> 8) & 0xff;
    return this;
  }

  u32(value: number): this {
    return this.u16(value & 0xffff).u16(value >>> 16);
  }

  raw(data: Uint8Array): this {
    this.bytes.set(data, this.at);
    this.at += data.length;
    return this;
  }
}
