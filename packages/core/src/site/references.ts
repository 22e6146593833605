import { violation } from '../report/codes.js';
import type { Violation } from '../report/violation.js';
import { isWrongType, type SiteFile, type SiteIndex } from './files.js';
import { lineOf, type PageUrl } from './html.js';
import { resolveUrl } from './urls.js';

/** What becomes of one URL once the files are renamed. */
export type UrlFate =
  /** Points at this site file: rewritten if the file or the referrer moves. */
  | {
      readonly kind: 'file';
      readonly path: string;
      readonly folder: boolean;
      readonly absolute: boolean;
      readonly suffix: string;
    }
  /** A link to a missing local file: unwrapped (`site.link_removed`). */
  | { readonly kind: 'remove' };

export interface ReferenceFindings {
  readonly violations: readonly Violation[];
  /** Per file (by site path), the fate of each of its URLs that needs one. */
  readonly fates: ReadonlyMap<string, ReadonlyMap<PageUrl, UrlFate>>;
  /** Site paths some page or style sheet refers to. */
  readonly referenced: ReadonlySet<string>;
}

/**
 * Judges every URL of every page and style sheet (decisions §5): a load from another origin is
 * `site.external`, a missing local load `site.missing`, a reference (a link included) to a
 * file the medium does not allow `site.file_type`; a link to a missing local file is removed.
 */
export function judgeReferences(files: readonly SiteFile[], index: SiteIndex): ReferenceFindings {
  const violations: Violation[] = [];
  const fates = new Map<string, Map<PageUrl, UrlFate>>();
  const referenced = new Set<string>();
  const byPath = new Map(files.map((file) => [file.path, file]));
  for (const file of files) {
    const fileFates = new Map<PageUrl, UrlFate>();
    fates.set(file.path, fileFates);
    for (const url of file.urls) {
      const target = resolveUrl(url.url, file.path);
      if (target.kind === 'none') continue;
      const place = { path: file.input, line: lineOf(file.text ?? '', url.index), actual: url.url };
      if (target.kind === 'external') {
        if (url.role === 'load') {
          violations.push(violation('site.external', { ...place, message: externalMessage(url) }));
        }
        continue;
      }
      const found = target.path === undefined ? undefined : index.find(target.path, target.folder);
      if (found === undefined) {
        if (url.role === 'link') fileFates.set(url, { kind: 'remove' });
        else violations.push(violation('site.missing', { ...place, message: missingMessage(url) }));
        continue;
      }
      referenced.add(found.path);
      const targetFile = byPath.get(found.path);
      if (targetFile && isWrongType(targetFile)) {
        const reason = targetFile.unfit?.message ?? '';
        violations.push(
          violation('site.file_type', {
            ...place,
            message: `${loader(url)} refers to ${targetFile.input}: ${reason}`,
          }),
        );
        continue;
      }
      fileFates.set(url, {
        kind: 'file',
        path: found.path,
        folder: found.folder,
        absolute: target.absolute,
        suffix: target.suffix,
      });
    }
  }
  return { violations, fates, referenced };
}

function externalMessage(url: PageUrl): string {
  return `${loader(url)} loads ${url.url} from another origin.`;
}

function missingMessage(url: PageUrl): string {
  return `${loader(url)} loads ${url.url}, which is not in the site.`;
}

function loader(url: PageUrl): string {
  return url.element === 'css' ? 'The style sheet' : `<${url.element}>`;
}
