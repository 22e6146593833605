export {
  checkFolder,
  orderViolations,
  folderChecks,
  type CheckFolderOptions,
} from './check-folder.js';
export {
  createPageMemo,
  defaultFolderLimits,
  type FolderLimits,
  type PageMemo,
  type Project,
} from './context.js';
export { viewportSize } from './canvas.js';
export { checkZip, type CheckZipOptions } from './check-zip.js';
export { checkSave, folderWithPage, blocksSave, type SaveCheckInput } from './check-save.js';
