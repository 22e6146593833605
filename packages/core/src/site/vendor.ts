import { cleanUrl } from '../html/resolve.js';
import { formatOfPath } from '../media/catalog.js';
import type { Folder, MutableFolder } from '../report/folder.js';
import { cssUrlText, scanCss } from './css.js';
import { detectSite, type DetectSiteOptions } from './detect.js';
import { isEmbedLoad } from './drop.js';
import { readSiteFile, type SiteFile } from './files.js';
import { cleanSegment, freePath, hash } from './names.js';
import { applyEdits, type Edit } from './edits.js';
import { rewriteEdits, type UrlRewrite } from './rewrite.js';
import { resolveUrl, urlBetween } from './urls.js';

// Vendoring (`galley convert --vendor`): what a site loads from other origins is fetched by the
// caller (the CLI, on the user's machine; the server never fetches) and placed in the site under
// `vendor/<host>/…`, with the references rewritten. Here only the pure part: which URLs to fetch
// and how the fetched files and the references to them are written.

/** One fetched resource: its bytes, and the `Content-Type` it came with (it may name the format). */
export interface FetchedResource {
  readonly bytes: Uint8Array;
  readonly contentType?: string | undefined;
  /** Where it came from after redirects: what a style sheet's relative URLs resolve against. */
  readonly base?: string | undefined;
}

/** The folder of vendored files inside the site. */
export const vendorFolder = 'vendor/';

/**
 * The absolute `http(s)` URL a load written as `raw` fetches, without its fragment (a fragment
 * never reaches the server); undefined for anything that is not a load from another origin over
 * HTTP (a local file, `data:`, `ftp:`). `//host/x` is read as `https://host/x`.
 */
export function fetchableUrl(raw: string, base = 'https://invalid/'): string | undefined {
  let url: URL;
  try {
    url = new URL(cleanUrl(raw), base);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  url.hash = '';
  return url.href;
}

/** The fragment as written (`#id` of an SVG font), kept when the reference is rewritten. */
function fragmentOf(raw: string): string {
  const url = cleanUrl(raw);
  const at = url.indexOf('#');
  return at < 0 ? '' : url.slice(at);
}

/**
 * Every URL the site's pages and style sheets load from another origin, that a fetch could
 * bring into the site: embeds (an iframe's page) are left out, as no file replaces them. Sorted.
 */
export function externalLoads(input: Folder, options: DetectSiteOptions = {}): string[] {
  const found = new Set<string>();
  for (const file of siteFiles(input, options).files) {
    for (const url of file.urls) {
      if (url.role !== 'load' || isEmbedLoad(url)) continue;
      if (resolveUrl(url.url, file.path).kind !== 'external') continue;
      const fetchable = fetchableUrl(url.url);
      if (fetchable !== undefined) found.add(fetchable);
    }
  }
  return [...found].sort();
}

/** What a fetched style sheet loads in turn (`@import`, `url()`), resolved against its URL. */
export function styleSheetLoads(css: string, from: string): string[] {
  const found = new Set<string>();
  for (const { url } of scanCss(css)) {
    const fetchable = fetchableUrl(url, from);
    if (fetchable !== undefined) found.add(fetchable);
  }
  return [...found];
}

/** Formats named by a `Content-Type`, for a URL whose path names none (`/css?family=…`). */
const formatOfType: Readonly<Record<string, string>> = {
  'text/css': 'css',
  'text/javascript': 'js',
  'application/javascript': 'js',
  'application/x-javascript': 'js',
  'application/json': 'json',
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'image/avif': 'avif',
  'image/svg+xml': 'svg',
  'image/x-icon': 'ico',
  'image/vnd.microsoft.icon': 'ico',
  'font/woff': 'woff',
  'font/woff2': 'woff2',
  'font/ttf': 'ttf',
  'font/otf': 'otf',
  'application/font-woff': 'woff',
  'application/font-woff2': 'woff2',
};

/**
 * Where a fetched URL is kept in the site: `vendor/<host>/<path>`, every segment cleaned to the
 * `names` rules; a query (one path, many answers: Google Fonts' `css?family=…`) adds a hash of
 * itself; the extension is the path's, or else the one its `Content-Type` names.
 */
export function vendoredPath(href: string, contentType?: string): string {
  const url = new URL(href);
  const segments = url.pathname
    .split('/')
    .filter((segment) => segment !== '')
    .map((segment) => {
      let decoded = segment;
      try {
        decoded = decodeURIComponent(segment);
      } catch {
        // Kept as written: cleaning makes a name of it all the same.
      }
      return cleanSegment(decoded) ?? `f-${hash(segment)}`;
    });
  let name = segments.pop() ?? 'index';
  const type = contentType?.split(';')[0]?.trim().toLowerCase() ?? '';
  const typed = formatOfType[type];
  const dot = name.lastIndexOf('.');
  const stem = dot > 0 ? name.slice(0, dot) : name;
  const extension = formatOfPath(name) === undefined ? typed : name.slice(dot + 1);
  if (url.search !== '') name = `${stem}-${hash(url.search)}${extension ? `.${extension}` : ''}`;
  else if (formatOfPath(name) === undefined && typed !== undefined) name = `${name}.${typed}`;
  const host = cleanSegment(url.host.replace(':', '-')) ?? `f-${hash(url.host)}`;
  return `${vendorFolder}${[host, ...segments, name].join('/')}`;
}

export interface VendoredSite {
  /** The input with the fetched files added and every reference to them rewritten. */
  readonly folder: MutableFolder;
  /** Fetched URL → its path in the input (wrapping folder included). */
  readonly placed: ReadonlyMap<string, string>;
}

/**
 * Adds the fetched resources to the site and points every load of them at the copies: in the
 * site's pages and style sheets, and in fetched style sheets (whose URLs are resolved against
 * where they came from; one that was not fetched is written absolute, so the conversion judges
 * it as the external load it is). A site that is no plain site is given back as it is.
 */
export function vendorSite(
  input: Folder,
  fetched: ReadonlyMap<string, FetchedResource>,
  options: DetectSiteOptions = {},
): VendoredSite {
  const folder: MutableFolder = new Map(input);
  const { root, files } = siteFiles(input, options);
  const placed = new Map<string, string>();
  const taken = new Set(input.keys());
  for (const [href, resource] of [...fetched].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const path = freePath(`${root}${vendoredPath(href, resource.contentType)}`, taken);
    taken.add(path);
    placed.set(href, path);
  }
  for (const file of files) {
    const rewrites: UrlRewrite[] = [];
    for (const url of file.urls) {
      if (url.role !== 'load' || resolveUrl(url.url, file.path).kind !== 'external') continue;
      const target = placed.get(fetchableUrl(url.url) ?? '');
      if (target === undefined) continue;
      rewrites.push({ url, written: relative(file.input, target, url.url) });
    }
    if (rewrites.length > 0 && file.text !== undefined)
      folder.set(file.input, encoder.encode(applyEdits(file.text, rewriteEdits(rewrites))));
  }
  for (const [href, path] of placed) {
    const resource = fetched.get(href);
    if (resource === undefined || formatOfPath(path) !== 'css') {
      if (resource) folder.set(path, resource.bytes);
      continue;
    }
    const css = new TextDecoder().decode(resource.bytes);
    const edits: Edit[] = [];
    for (const found of scanCss(css)) {
      const fetchable = fetchableUrl(found.url, resource.base ?? href);
      if (fetchable === undefined) continue;
      const target = placed.get(fetchable);
      const written =
        target === undefined
          ? `${fetchable}${fragmentOf(found.url)}`
          : relative(path, target, found.url);
      edits.push({ start: found.start, end: found.end, text: cssUrlText(written) });
    }
    folder.set(path, edits.length === 0 ? resource.bytes : encoder.encode(applyEdits(css, edits)));
  }
  return { folder, placed };
}

const encoder = new TextEncoder();

/** `to` as written from the file at `from` (both input paths), with the fragment of `raw`. */
function relative(from: string, to: string, raw: string): string {
  return urlBetween(from, to, { absolute: false, folder: false, suffix: fragmentOf(raw) });
}

/** The site's pages and style sheets as read (its root stripped from `path`). */
function siteFiles(input: Folder, options: DetectSiteOptions) {
  const detection = detectSite(input, options);
  if (!detection.ok) return { root: '', files: [] as SiteFile[] };
  const { root, files } = detection.layout;
  const read = files
    .filter((path) => /\.(?:html?|css)$/i.test(path))
    .map((path) =>
      readSiteFile(path, path.slice(root.length), input.get(path) ?? new Uint8Array()),
    );
  return { root, files: read };
}
