import { violation } from '../report/codes.js';
import type { Folder, MutableFolder } from '../report/folder.js';
import { contracts, orderViolations } from '../report/contract.js';
import type { CheckReport, Violation } from '../report/violation.js';
import { detectSite, type DetectSiteOptions } from './detect.js';
import { defaultFolderLimits, type FolderLimits } from '../files/limits.js';
import { isWrongType, readSiteFile, SiteIndex, type SiteFile } from './files.js';
import { compare, planNames, publicUrl, type PageUrlProblem } from './names.js';
import { dropWarning } from './drop.js';
import { pageFixes, siteWarning } from './page.js';
import { judgeReferences, type DropOptions, type ReferenceFindings } from './references.js';
import type { SiteReport, SiteWarning } from './report.js';
import { applyEdits } from './edits.js';
import { urlEdits } from './rewrite.js';

/**
 * Plain data only (no functions), so that a worker can be handed them as they are. Without
 * `index`, `dropExternal` and `dropMissing` the conversion is the one decisions §5 describes.
 */
export interface ConvertSiteOptions extends DropOptions, DetectSiteOptions {
  /** What the reader already found (a ZIP's hostile entries, its limits): folded into `site.*`. */
  readonly preViolations?: readonly Violation[];
  /** The folder limits the result must meet (`project.json` counted); decisions §4 by default. */
  readonly limits?: Partial<FolderLimits>;
}

export type SiteConversion =
  | {
      readonly ok: true;
      readonly folder: MutableFolder;
      readonly site: SiteReport;
      readonly title: string;
    }
  | { readonly ok: false; readonly report: CheckReport };

/**
 * Converts a plain site into a project folder of the web medium (decisions §5). Pure: the
 * folder in, the project folder and its `site` report out, or the 422 body when it cannot be.
 */
export function convertSite(input: Folder, options: ConvertSiteOptions = {}): SiteConversion {
  const violations = (options.preViolations ?? []).map(asSiteViolation);
  const detection = detectSite(input, options);
  // A reader that refused entries may be why no site is found: its findings say it better.
  if (!detection.ok)
    return failed(violations.length > 0 ? violations : [notASite(detection.reason, options.index)]);
  const { root, files: inputs, ignored: ignoredByName } = detection.layout;

  const files = inputs.map((path) =>
    readSiteFile(path, path.slice(root.length), input.get(path) ?? new Uint8Array()),
  );
  const judged = judgeReferences(files, new SiteIndex(files.map((f) => f.path)), options);
  violations.push(...judged.violations);
  const kept: SiteFile[] = [];
  const ignoredByType: string[] = [];
  for (const file of files) {
    if (file.unfit === undefined) kept.push(file);
    else if (file.kind !== 'page' && !judged.referenced.has(file.path))
      ignoredByType.push(file.input);
    else {
      kept.push(file);
      const problem = unfitViolation(file);
      if (problem) violations.push(problem);
    }
  }
  const entryFile = files.find((f) => f.path === options.index);
  if (entryFile !== undefined && entryFile.kind !== 'page')
    violations.push(
      violation('site.read', {
        path: entryFile.input,
        message: `The entry page ${entryFile.input} is not an HTML page (.html or .htm).`,
        suggestion: 'Name an HTML page of the site as its entry page.',
      }),
    );
  violations.push(...limitViolations(kept, { ...defaultFolderLimits, ...options.limits }));
  const entry = options.index;
  const plan = planNames(
    kept.map((f) => ({ path: f.path, page: f.kind === 'page', entry: f.path === entry })),
  );
  const inputOf = new Map(kept.map((f) => [f.path, f.input]));
  violations.push(...plan.problems.map((p) => pageUrlViolation(p, inputOf)));
  if (violations.length > 0) return failed(violations);

  const output = buildProject(kept, plan.names, judged, root);
  return {
    ok: true,
    folder: output.folder,
    title: output.title,
    site: {
      pages: output.pages.map(({ file, public_url }) => ({ file, public_url })),
      ignored: [...ignoredByName, ...ignoredByType].sort(compare),
      warnings: output.warnings.sort(
        (a, b) =>
          compare(a.path, b.path) ||
          compare(a.code, b.code) ||
          compare(a.target ?? '', b.target ?? ''),
      ),
    },
  };
}

interface ProjectPage {
  readonly file: string;
  readonly title: string;
  readonly public_url: string;
}

function buildProject(
  kept: readonly SiteFile[],
  names: ReadonlyMap<string, string>,
  judged: ReferenceFindings,
  root: string,
) {
  const files = new Map<string, Uint8Array>();
  const pages: ProjectPage[] = [];
  const warnings: SiteWarning[] = [];
  for (const file of kept) {
    const at = names.get(file.path) ?? file.path;
    if (at !== file.path) warnings.push(siteWarning('site.renamed', file.input, at));
    if (file.text === undefined) {
      files.set(at, file.bytes);
      continue;
    }
    const fates = judged.fates.get(file.path) ?? [];
    fates.forEach((fate, i) => {
      const url = file.urls[i];
      if (fate?.kind === 'remove' && url)
        warnings.push(siteWarning('site.link_removed', file.input, url.url));
      else if (fate?.kind === 'drop' && url)
        warnings.push(dropWarning(file.input, url, fate.reason));
    });
    const rebased = judged.rebased.has(file.path);
    const edits = urlEdits(file.urls, fates, names, { from: file.path, at, rebased });
    // Its URLs now resolve from the page itself: the base goes (a `target` it holds stays).
    if (rebased) for (const span of file.page?.baseHrefs ?? []) edits.push({ ...span, text: '' });
    if (file.kind === 'page') {
      const fixes = pageFixes(file, fallbackTitle(file.path, root));
      edits.push(...fixes.edits);
      warnings.push(...fixes.warnings);
      pages.push({ file: at, title: fixes.title, public_url: publicUrl(at) });
    }
    files.set(at, edits.length === 0 ? file.bytes : encoder.encode(applyEdits(file.text, edits)));
  }
  pages.sort(
    (a, b) =>
      Number(b.file === 'index.html') - Number(a.file === 'index.html') || compare(a.file, b.file),
  );
  const title =
    pages.find((p) => p.file === 'index.html')?.title ?? fallbackTitle('index.html', root);
  const project = { format: 1, title, media: { id: 'web', version: 1 }, pages };
  const folder: MutableFolder = new Map();
  folder.set('project.json', encoder.encode(`${JSON.stringify(project, null, 2)}\n`));
  for (const path of [...files.keys()].sort(compare))
    folder.set(path, files.get(path) ?? new Uint8Array());
  return { folder, pages, warnings, title };
}

const encoder = new TextEncoder();

/** A page without a title or heading is named after its file (the site's root after its folder). */
function fallbackTitle(path: string, root: string): string {
  const segments = path.split('/');
  const name = segments.pop() ?? '';
  if (name.toLowerCase() !== 'index.html') return name.replace(/\.html?$/i, '');
  return segments.pop() ?? (root === '' ? 'Home' : root.slice(0, -1));
}

function limitViolations(kept: readonly SiteFile[], limits: FolderLimits): Violation[] {
  const found: Violation[] = [];
  let total = 0;
  for (const file of kept) {
    total += file.bytes.length;
    if (file.bytes.length > limits.maxFileBytes) {
      found.push(
        violation('site.limit', {
          path: file.input,
          expected: limits.maxFileBytes,
          actual: file.bytes.length,
          message: `${file.input} is larger than ${limits.maxFileBytes} bytes.`,
        }),
      );
    }
  }
  if (kept.length + 1 > limits.maxEntries) {
    found.push(
      violation('site.limit', {
        path: '',
        expected: limits.maxEntries,
        actual: kept.length + 1,
        message: `The project would hold ${kept.length + 1} files; at most ${limits.maxEntries} are allowed.`,
      }),
    );
  }
  if (total > limits.maxTotalBytes) {
    found.push(
      violation('site.limit', {
        path: '',
        expected: limits.maxTotalBytes,
        actual: total,
        message: `The site holds ${total} bytes; at most ${limits.maxTotalBytes} are allowed.`,
      }),
    );
  }
  return found;
}

function pageUrlViolation(
  problem: PageUrlProblem,
  inputOf: ReadonlyMap<string, string>,
): Violation {
  const path = inputOf.get(problem.path) ?? problem.path;
  const message =
    problem.reason === 'same_url'
      ? `${path} and ${inputOf.get(problem.other) ?? problem.other} would both be ${publicUrl(problem.target)}.`
      : problem.reason === 'too_long'
        ? `${path} would need the path ${problem.target}, longer than 200 bytes.`
        : `${path} has no letter or digit left to make a URL of.`;
  return violation('site.page_url', { path, actual: problem.target, message });
}

/**
 * A file the `formats` check would refuse, that the site needs (a page, or a referenced file):
 * unreadable is `site.read`, too large an image `site.limit`. A wrong type is `site.file_type`,
 * found where it is referenced.
 */
function unfitViolation(file: SiteFile): Violation | undefined {
  const unfit = file.unfit;
  if (unfit === undefined || (file.kind !== 'page' && isWrongType(file))) return undefined;
  const code = unfit.code === 'formats.dimensions' ? 'site.limit' : 'site.read';
  return violation(code, {
    path: file.input,
    message: `${file.input}: ${unfit.message}`,
    ...(unfit.expected === undefined ? {} : { expected: unfit.expected }),
    ...(unfit.actual === undefined ? {} : { actual: unfit.actual }),
  });
}

/** A reader's finding about the input, in the conversion's terms (decisions §8). */
function asSiteViolation(found: Violation): Violation {
  if (found.check === 'site') return found;
  const code = found.check === 'limits' ? 'site.limit' : 'site.read';
  return violation(code, {
    path: found.path,
    message: `${found.message} (${found.code})`,
    ...(found.expected === undefined ? {} : { expected: found.expected }),
    ...(found.actual === undefined ? {} : { actual: found.actual }),
  });
}

/** Why an archive is no plain site, where, and what to do about it (all `site.read`). */
const notASiteReasons = {
  project_folder: {
    path: 'project.json',
    message: 'This is a project folder (it has project.json), not a plain site.',
    suggestion: 'Open it as it is: a project folder needs no conversion.',
  },
  no_index: {
    path: 'index.html',
    message: 'Not a plain site: no index.html at the root or inside one single top-level folder.',
    suggestion:
      'Put index.html at the root of the site, or inside its one top-level folder; or name the ' +
      'page to open first: `galley convert --index FILE` (when uploading: field `index`).',
  },
};

function notASite(reason: keyof typeof notASiteReasons, index: string | undefined): Violation {
  if (reason === 'no_index' && index !== undefined)
    return violation('site.read', {
      path: index,
      message: `The entry page ${index} is not in the site (at its root, or inside its one top-level folder).`,
      suggestion: 'Name the entry page by its path in the site, e.g. `about.html`.',
    });
  return violation('site.read', notASiteReasons[reason]);
}

function failed(violations: readonly Violation[]): SiteConversion {
  return {
    ok: false,
    report: {
      checks: { site: 'failed' },
      violations: orderViolations(violations),
      contracts: { ...contracts },
    },
  };
}
