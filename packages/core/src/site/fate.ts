// Its own module: references.ts decides the fates and imports drop.ts, which acts on them.
/** What becomes of one URL once the files are renamed. */
export type UrlFate =
  /** Points at this site file: rewritten if the file or the referrer moves. */
  | {
      readonly kind: 'file';
      readonly path: string;
      readonly folder: boolean;
      readonly absolute: boolean;
      readonly suffix: string;
      /** Written exactly as the file is named (not found by case, Unicode form or folder). */
      readonly exact: boolean;
    }
  /** A link to a missing local file: unwrapped (`site.link_removed`). */
  | { readonly kind: 'remove' }
  /** A load the site cannot have, removed as the options ask (`dropEdits`). */
  | { readonly kind: 'drop'; readonly reason: 'external' | 'missing' };
