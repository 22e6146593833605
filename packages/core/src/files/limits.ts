import { defaultZipLimits, type ZipLimits } from '../zip/limits.js';

/** The limits a folder itself can break (the ZIP's own, such as its ratio, are readZip's). */
export type FolderLimits = Pick<ZipLimits, 'maxEntries' | 'maxFileBytes' | 'maxTotalBytes'>;
/** Decisions §4 defaults, the same numbers readZip enforces (configuration may change them). */
export const defaultFolderLimits: FolderLimits = {
  maxEntries: defaultZipLimits.maxEntries,
  maxFileBytes: defaultZipLimits.maxFileBytes,
  maxTotalBytes: defaultZipLimits.maxTotalBytes,
};
