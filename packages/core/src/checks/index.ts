export { checkFolder, folderChecks, type CheckFolderOptions } from './check-folder.js';
export type { Project } from './context.js';
// The options of checkFolder, exported with it.
export { createReadMemo, type ReadMemo } from '../files/readers.js';
export { defaultFolderLimits, type FolderLimits } from '../files/limits.js';
export { viewportSize } from './canvas.js';
export {
  checkZip,
  checkReadZip,
  type CheckZipOptions,
  type CheckReadZipOptions,
} from './check-zip.js';
export { checkSave, folderWithPage, blocksSave, type SaveCheckInput } from './check-save.js';
