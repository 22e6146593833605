import { signatures, u32 } from './bytes.js';

/**
 * A cheap sniff: the bytes start like a ZIP (a local file header, or the end record of an empty
 * archive). It reads four bytes and proves nothing; `readZip` judges the archive.
 */
export function isZip(bytes: Uint8Array): boolean {
  if (bytes.length < 22) return false;
  const start = u32(bytes, 0);
  return start === signatures.local || start === signatures.end;
}
