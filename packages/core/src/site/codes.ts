/**
 * Violations of plain-site conversion (decisions §5; the API's closed list of `site.*` codes).
 * Any one of them fails the conversion: the answer is the 422 body with `checks.site = "failed"`.
 */
export const siteCodes = {
  'site.external': {
    message: 'A page loads a resource from another origin.',
    suggestion:
      'Fetch it into the site with `galley convert --vendor`, or remove the element with ' +
      '`galley convert --drop-external` (when uploading: the "drop external resources" choice, ' +
      'field `drop_external`).',
  },
  'site.missing': {
    message: 'A page loads a local file that is absent.',
    suggestion:
      'Add the file to the site, or remove the element with `galley convert --drop-missing` ' +
      '(when uploading: the "drop missing files" choice, field `drop_missing`).',
  },
  'site.file_type': {
    message: 'A referenced file is of a type the web medium does not allow.',
    suggestion:
      'Convert the file to an allowed format, or remove what loads it with ' +
      '`galley convert --drop-missing` (field `drop_missing` when uploading).',
  },
  'site.page_url': {
    message: 'A page path cannot become a public URL, or two pages share one URL.',
    suggestion: 'Rename the page with letters, digits, ".", "_" or "-".',
  },
  'site.read': {
    message: 'An entry cannot be read or decoded.',
    suggestion: 'Re-create the archive; save pages and style sheets as UTF-8.',
  },
  'site.limit': {
    message: 'The site exceeds a size or count limit.',
    suggestion: 'Remove large or unused files.',
  },
} as const;

/**
 * Warnings of a successful conversion (the report's `site.warnings`): what was changed so the
 * result passes the folder checks. They never fail a conversion.
 */
export const siteWarningCodes = {
  'site.link_removed': {
    message: 'A link to a missing local file was removed; its text was kept.',
    suggestion: 'Add the missing file to the site, or remove the link yourself.',
  },
  'site.renamed': {
    message: 'A file was renamed to satisfy the naming rules; every reference to it was rewritten.',
    suggestion: 'Name files in lower case with a-z, 0-9, ".", "_" and "-" to keep their names.',
  },
  'site.title_missing': {
    message: 'A page had no <title>; one was added.',
    suggestion: 'Add <title>…</title> inside <head> to choose the title yourself.',
  },
  'site.external_dropped': {
    message:
      'An element that loads a resource from another origin was removed (in a style sheet: ' +
      'its URL emptied), as asked by "drop external resources".',
    suggestion: 'Copy the resource into the site (`galley convert --vendor`) to keep it.',
  },
  'site.embed_linked': {
    message:
      'An embedded page from another origin (an iframe, object or embed) was replaced by a link to it.',
    suggestion: 'Keep the link, or remove it yourself.',
  },
  'site.missing_dropped': {
    message:
      'An element that loads a local file that is absent, or of a type the web medium does not ' +
      'allow, was removed (in a style sheet: its URL emptied), as asked by "drop missing files".',
    suggestion: 'Add the file to the site (in an allowed format) to keep it.',
  },
  'site.id_renamed': {
    message: 'An element id repeated in its page was renamed so that ids are unique.',
    suggestion: 'Give every element of the page its own id; links to #id lead to the first one.',
  },
} as const;
export type SiteWarningCode = keyof typeof siteWarningCodes;
