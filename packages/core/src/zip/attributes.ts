import type { CentralRecord } from './directory.js';
import { isDirectoryName } from './names.js';

/** What an entry is, from its name and the Unix mode in the high half of its attributes. */
export type EntryKind = 'file' | 'directory' | 'special';

const fileTypeMask = 0o170000;
const regularFile = 0o100000;
const directory = 0o040000;
const dosDirectory = 0x10;

/**
 * Unix and 7-Zip put the Unix mode (with its file type) in the high 16 bits, whatever host they
 * name; a type other than regular file or directory is a symlink, device, FIFO or socket. A
 * directory is a name ending in "/"; attributes that say "directory" on another name would
 * make tools disagree, so such an entry is special too.
 */
export function entryKind(record: CentralRecord): EntryKind {
  const type = (record.externalAttributes >>> 16) & fileTypeMask;
  const named = record.name !== undefined && isDirectoryName(record.name);
  if (type !== 0 && type !== regularFile && type !== directory) return 'special';
  const attributed = type === directory || (record.externalAttributes & dosDirectory) !== 0;
  if (named) return 'directory';
  return attributed ? 'special' : 'file';
}
