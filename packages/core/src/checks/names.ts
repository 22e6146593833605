import type { FolderCheck } from './context.js';
import { nameViolations } from '../files/names.js';

/** `names`: relative, NFC, `[a-z0-9._-]` segments, no dot segments or dot-files, ≤ 200 bytes. */
export const namesCheck: FolderCheck = {
  name: 'names',
  run: (context) => ({ violations: nameViolations(context.paths) }),
};
