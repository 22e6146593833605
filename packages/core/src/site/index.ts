export { siteCodes, siteWarningCodes, type SiteWarningCode } from './codes.js';
export { detectSite, isPlainSite, type SiteDetection, type SiteLayout } from './detect.js';
export {
  convertSite,
  defaultSiteLimits,
  type ConvertSiteOptions,
  type SiteConversion,
  type SiteLimits,
} from './convert.js';
export type { SiteWarning } from './page.js';
