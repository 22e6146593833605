export { zipCodes, type ZipCode } from './codes.js';
export { defaultZipLimits, type ZipLimits } from './limits.js';
export { readZip, type ReadZipOptions, type ReadZipResult } from './read.js';
export type { ZipCodec } from './inflate.js';
export {
  writeZip,
  writeZipAsync,
  streamZip,
  type ZipSource,
  zipDeflateLevel,
  ZipWriteError,
  type AsyncRawDeflate,
  type RawDeflate,
  type WriteZipOptions,
} from './write.js';
export { isZip } from './sniff.js';
export { declaredSize } from './directory.js';
