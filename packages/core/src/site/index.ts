export { siteCodes, siteWarningCodes, type SiteWarningCode } from './codes.js';
export {
  detectSite,
  isPlainSite,
  type DetectSiteOptions,
  type SiteDetection,
  type SiteLayout,
} from './detect.js';
export type { DropOptions } from './references.js';
export { convertSite, type ConvertSiteOptions, type SiteConversion } from './convert.js';
export type { SiteWarning } from './report.js';
export { convertSiteZip, isPlainSiteZip, type ConvertSiteZipOptions } from './zip.js';
export {
  externalLoads,
  fetchableUrl,
  styleSheetLoads,
  vendoredPath,
  vendorSite,
  type FetchedResource,
  type VendoredSite,
} from './vendor.js';
