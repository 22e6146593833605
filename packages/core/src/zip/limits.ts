/** Size and count limits for reading an archive (decisions §4); configuration may change them. */
export interface ZipLimits {
  /** Bytes of the archive file itself. */
  maxArchiveBytes: number;
  /** Uncompressed bytes of all files together. */
  maxTotalBytes: number;
  /** Central directory records, directories included. */
  maxEntries: number;
  /** Uncompressed bytes of one file. */
  maxFileBytes: number;
  /** Largest uncompressed : compressed ratio… */
  maxRatio: number;
  /** …enforced on entries whose uncompressed size exceeds this many bytes. */
  ratioMinBytes: number;
}

const MiB = 1024 * 1024;

export const defaultZipLimits: ZipLimits = Object.freeze({
  maxArchiveBytes: 100 * MiB,
  maxTotalBytes: 500 * MiB,
  maxEntries: 5000,
  maxFileBytes: 50 * MiB,
  maxRatio: 100,
  ratioMinBytes: 100 * 1024,
});
