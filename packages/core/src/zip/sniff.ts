import { signatures, u32 } from './bytes.js';
import { hasEndRecord } from './directory.js';

/**
 * A sniff: the bytes start like a ZIP (a local file header, or the end record of an empty
 * archive), or end like one (an end record where `readZip` finds it, after data before the
 * archive such as a self-extracting program). So, past the 22 bytes the smallest archive needs,
 * these are the bytes `readZip` reads as an archive, damaged or not, rather than answering
 * `archive.not_zip`. It proves nothing more: `readZip` judges the archive.
 */
export function isZip(bytes: Uint8Array): boolean {
  if (bytes.length < 22) return false;
  const start = u32(bytes, 0);
  return start === signatures.local || start === signatures.end || hasEndRecord(bytes);
}
