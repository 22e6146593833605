/** Stems are cut here, so a long upload name still fits the 200-byte path rule. */
const MAX_STEM = 100;

/** Accents folded to their base letter (NFKD, marks dropped), lower case. */
const folded = (text: string) =>
  text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();

/**
 * The path an uploaded file gets, from its base name: stem and extension are cleaned apart so
 * the extension survives. Accents fold to their base letter; in the stem other characters
 * become `-` (dots inside it stay), in the extension they are dropped; a stem left empty is
 * `file`. `Café Logo.PNG` → `cafe-logo.png`, `ä.gif` → `a.gif`, `写真.png` → `file.png`.
 */
export function uploadPath(filename: string): string {
  const base = filename.split(/[/\\]/).pop() ?? '';
  const dot = base.lastIndexOf('.');
  const [rawStem, rawExtension] = dot < 0 ? [base, ''] : [base.slice(0, dot), base.slice(dot + 1)];
  const stem = folded(rawStem)
    .replace(/[^a-z0-9._-]+/g, '-')
    .slice(0, MAX_STEM)
    .replace(/^[.-]+|[.-]+$/g, '');
  const extension = folded(rawExtension).replace(/[^a-z0-9]+/g, '');
  return extension ? `${stem || 'file'}.${extension}` : stem || 'file';
}
