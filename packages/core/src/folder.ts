// `@galley/core/folder`: the folder contract without the API's schemas. Checking, reading and
// writing a project folder, its codes and the media catalog, and nothing that loads zod: the
// CLI's folder commands import this, so `galley check` starts with a fraction of the core.
export {
  checkZip,
  checkReadZip,
  type CheckZipOptions,
  type CheckReadZipOptions,
} from './checks/check-zip.js';
export { readZip, type ReadZipResult } from './zip/read.js';
export type { ZipCodec } from './zip/inflate.js';
export { crc32 } from './zip/crc32.js';
export { defaultZipLimits, type ZipLimits } from './zip/limits.js';
export { writeZip, zipDeflateLevel } from './zip/write.js';
export { isPlainSiteZip } from './site/zip.js';
export { violationCodes } from './codes.js';
export type { CodeCatalog } from './codes.js';
export { shownValues } from './report/shown-values.js';
export type { Folder } from './report/folder.js';
export type { CheckReport, Violation } from './report/violation.js';
export { findMedium, formatOfPath, mediaCatalog } from './media/catalog.js';
export type { Medium, MediumRef } from './media/schema.js';
