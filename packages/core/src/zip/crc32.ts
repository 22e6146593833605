/**
 * CRC-32 (ISO 3309, the ZIP and gzip polynomial), slice-by-8: fflate keeps its CRC private and
 * computes it a byte at a time, which would dominate the cost of writing stored images.
 */

const tables: Int32Array[] = (() => {
  const base = new Int32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    base[n] = c;
  }
  const all = [base];
  for (let t = 1; t < 8; t++) {
    const previous = all[t - 1] as Int32Array;
    const next = new Int32Array(256);
    for (let n = 0; n < 256; n++) {
      const p = previous[n] as number;
      next[n] = (base[p & 0xff] as number) ^ (p >>> 8);
    }
    all.push(next);
  }
  return all;
})();

/** The CRC-32 of `data` as an unsigned 32-bit integer. */
export function crc32(data: Uint8Array): number {
  const [t0, t1, t2, t3, t4, t5, t6, t7] = tables as [
    Int32Array,
    Int32Array,
    Int32Array,
    Int32Array,
    Int32Array,
    Int32Array,
    Int32Array,
    Int32Array,
  ];
  let crc = -1;
  let i = 0;
  const end8 = data.length - (data.length % 8);
  for (; i < end8; i += 8) {
    const a = crc ^ (data[i]! | (data[i + 1]! << 8) | (data[i + 2]! << 16) | (data[i + 3]! << 24));
    crc =
      t7[a & 0xff]! ^
      t6[(a >>> 8) & 0xff]! ^
      t5[(a >>> 16) & 0xff]! ^
      t4[a >>> 24]! ^
      t3[data[i + 4]!]! ^
      t2[data[i + 5]!]! ^
      t1[data[i + 6]!]! ^
      t0[data[i + 7]!]!;
  }
  for (; i < data.length; i++) crc = t0[(crc ^ data[i]!) & 0xff]! ^ (crc >>> 8);
  return ~crc >>> 0;
}
