/** The `names` rules of decisions §4 for one segment: lower-case `[a-z0-9._-]`, no leading dot. */
const validSegment = /^[a-z0-9_-][a-z0-9._-]*$/;
export const maxPathBytes = 200;

export interface NamedFile {
  /** Path inside the site (wrapping folder stripped). */
  readonly path: string;
  readonly page: boolean;
  /** The site's named entry page (`index` of the conversion): it becomes `index.html`. */
  readonly entry?: boolean;
}

export type PageUrlProblem =
  | { readonly path: string; readonly reason: 'unnamable' | 'too_long'; readonly target: string }
  | {
      readonly path: string;
      readonly reason: 'same_url';
      readonly target: string;
      readonly other: string;
    };

export interface NamePlan {
  /** Site path → project path, for every file that could be named. */
  readonly names: ReadonlyMap<string, string>;
  readonly problems: readonly PageUrlProblem[];
}

/**
 * Gives every file a project path that satisfies `names`: valid paths stay as they are (and are
 * placed first, so they keep their name), others are cleaned; `.htm` pages become `.html`. Two
 * pages on one path, or a page whose name has nothing left to keep, cannot get a public URL.
 * Other files get a numbered or generated name instead, since nobody sees their URL.
 */
export function planNames(files: readonly NamedFile[]): NamePlan {
  const wanted = files.map((file) => ({
    file,
    target: file.entry ? 'index.html' : cleanPath(file),
  }));
  wanted.sort(
    (a, b) =>
      Number(a.target !== a.file.path) - Number(b.target !== b.file.path) ||
      compare(a.file.path, b.file.path),
  );
  const names = new Map<string, string>();
  // The conversion writes project.json itself: a site's `Project.json` must not become it.
  const owners = new Map<string, string>([['project.json', '']]);
  const problems: PageUrlProblem[] = [];
  for (const { file, target } of wanted) {
    if (file.page) {
      const problem = pageProblem(file.path, target, owners);
      if (problem !== undefined || target === undefined) {
        if (problem) problems.push(problem);
        continue;
      }
      owners.set(target, file.path);
      names.set(file.path, target);
      continue;
    }
    const free = freePath(shortened(target ?? generatedPath(file.path)), owners);
    owners.set(free, file.path);
    names.set(file.path, free);
  }
  problems.sort((a, b) => compare(a.path, b.path));
  return { names, problems };
}

function pageProblem(
  path: string,
  target: string | undefined,
  owners: ReadonlyMap<string, string>,
): PageUrlProblem | undefined {
  if (target === undefined) return { path, reason: 'unnamable', target: path };
  if (utf8Length(target) > maxPathBytes) return { path, reason: 'too_long', target };
  const other = owners.get(target);
  return other === undefined ? undefined : { path, reason: 'same_url', target, other };
}

/** The cleaned project path, or undefined when a segment has no letter or digit left. */
function cleanPath(file: NamedFile): string | undefined {
  const segments = file.path.split('/');
  const last = segments.pop() ?? '';
  const folders = segments.map((segment) => cleanSegment(segment));
  const name = cleanFileName(last, file.page);
  if (name === undefined || folders.some((segment) => segment === undefined)) return undefined;
  return [...folders, name].join('/');
}

function cleanFileName(name: string, page: boolean): string | undefined {
  const dot = name.lastIndexOf('.');
  const base = dot > 0 ? name.slice(0, dot) : name;
  const extension = dot > 0 ? name.slice(dot + 1) : undefined;
  const wanted = page ? 'html' : extension;
  if (validSegment.test(name) && wanted === extension) return name;
  const cleanBase = cleanSegment(base);
  if (cleanBase === undefined) return undefined;
  const cleanExtension = wanted === undefined ? undefined : cleanSegment(wanted);
  return cleanExtension === undefined ? cleanBase : `${cleanBase}.${cleanExtension}`;
}

/** Latin letters that no Unicode decomposition takes to ASCII. */
const transliterations: Readonly<Record<string, string>> = {
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  đ: 'd',
  ð: 'd',
  ł: 'l',
  þ: 'th',
  ı: 'i',
};

/** Accents dropped, lower-cased, every other run of characters one `-`. */
export function cleanSegment(segment: string): string | undefined {
  if (validSegment.test(segment)) return segment;
  const clean = segment
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[ßæœøđðłþı]/g, (letter) => transliterations[letter] ?? '-')
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '');
  return /[a-z0-9]/.test(clean) ? clean : undefined;
}

/** A file whose name keeps nothing readable is named after a hash of its path. */
function generatedPath(path: string): string {
  const slash = path.lastIndexOf('/');
  const folders = path
    .slice(0, Math.max(slash, 0))
    .split('/')
    .filter((segment) => segment !== '')
    .map((segment) => cleanSegment(segment) ?? `f-${hash(segment)}`);
  const name = path.slice(slash + 1);
  const dot = name.lastIndexOf('.');
  const extension = dot > 0 ? cleanSegment(name.slice(dot + 1)) : undefined;
  const file = `f-${hash(name)}${extension === undefined ? '' : `.${extension}`}`;
  return [...folders, file].join('/');
}

/** Over-long paths of files (not pages) are flattened to a hashed name beside the root. */
function shortened(path: string): string {
  if (utf8Length(path) <= maxPathBytes) return path;
  const dot = path.lastIndexOf('.');
  const extension = dot > path.lastIndexOf('/') ? path.slice(dot, dot + 12) : '';
  return `f-${hash(path)}${extension}`;
}

/** `path`, or the first `path-2`, `path-3`… (before its extension) that `owners` lacks. */
export function freePath(path: string, owners: { has(path: string): boolean }): string {
  if (!owners.has(path)) return path;
  const slash = path.lastIndexOf('/');
  const dot = path.lastIndexOf('.');
  const cut = dot > slash + 1 ? dot : path.length;
  for (let n = 2; ; n++) {
    const candidate = `${path.slice(0, cut)}-${n}${path.slice(cut)}`;
    if (!owners.has(candidate)) return candidate;
  }
}

/** `index.html` maps to its folder: `about/index.html` → `/about/`, `a.html` → `/a.html`. */
export function publicUrl(file: string): string {
  if (file === 'index.html') return '/';
  return file.endsWith('/index.html') ? `/${file.slice(0, -'index.html'.length)}` : `/${file}`;
}

/** FNV-1a, enough to make generated names stable and distinct. */
export function hash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16).padStart(8, '0');
}

const encoder = new TextEncoder();
export function utf8Length(text: string): number {
  return encoder.encode(text).length;
}

export function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
