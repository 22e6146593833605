/**
 * Codes found by the folder checks (decisions §4), namespaced by check. Path defects that a ZIP
 * entry can also have (`names.traversal`, `names.absolute`, `names.backslash`,
 * `names.drive_letter`, `names.control_character`, `names.not_canonical`, `names.duplicate`) and
 * the size limits (`limits.entries`, `limits.file_size`, `limits.total_size`) are zip/codes.ts's:
 * one defect, one code, whoever finds it.
 */
export const checksCodes = {
  'project.missing': {
    message: 'The folder has no project.json at its root.',
    suggestion:
      'Add a project.json naming the medium and pages: see docs/folder.md, or its JSON Schema at /api/v1/schemas/project/1 on the service.',
  },
  'project.json': {
    message: 'project.json is not valid JSON in UTF-8.',
    suggestion: 'Fix the JSON syntax (quotes, commas, brackets) and save it as UTF-8.',
  },
  'project.schema': {
    message: 'project.json does not match its schema (svc://schemas/project/1).',
    suggestion:
      'Give format 1, a title, media {id, version} and pages [{file, title, public_url}]: see docs/folder.md, or the JSON Schema at /api/v1/schemas/project/1 on the service.',
  },
  'project.title_control': {
    message: 'The title in project.json contains a control character.',
    suggestion:
      'Remove control characters (U+0000 to U+001F, U+007F to U+009F: NUL, tab, line breaks…) from the title.',
  },
  'project.medium_unknown': {
    message: 'project.json names a medium that is not in the media catalog.',
    suggestion: 'Use one of web, banner, leaderboard, signage, social or print-a4 (version 1).',
  },
  'names.not_nfc': {
    message: 'The path is not in Unicode normalization form C (NFC).',
    suggestion: 'Rename the file; better, use only a-z, 0-9, ".", "_" and "-".',
  },
  'names.hidden': {
    message: 'A segment of the path starts with "." (a hidden file or folder).',
    suggestion: 'Remove the file, or rename it without the leading dot.',
  },
  'names.characters': {
    message: 'The path has characters other than a-z, 0-9, ".", "_", "-" and "/".',
    suggestion: 'Rename the file in lower case, with "-" instead of spaces.',
  },
  'names.too_long': {
    message: 'The path is longer than 200 bytes.',
    suggestion: 'Use shorter file and folder names.',
  },
  'formats.not_allowed': {
    message: 'The medium does not allow this type of file.',
    suggestion: 'Remove the file or convert it to a type the medium allows.',
  },
  'formats.mismatch': {
    message: 'The content of the file is not the format its extension says.',
    suggestion: 'Give the file the extension of its real format, or export it again.',
  },
  'formats.encoding': {
    message: 'The file is not valid UTF-8 text.',
    suggestion: 'Save the file with UTF-8 encoding.',
  },
  'formats.unreadable': {
    message: 'The image is damaged: its dimensions cannot be read.',
    suggestion: 'Export the image again.',
  },
  'formats.dimensions': {
    message: 'The image must be 1 to 16,384 pixels on each side and at most 50 megapixels.',
    suggestion: 'Scale the image down.',
  },
  'formats.svg_active': {
    message:
      'The SVG holds active content: script, event handlers, foreignObject, external references or a DOCTYPE.',
    suggestion: 'Export the SVG as a plain drawing, or use a PNG.',
  },
  'pages.missing': {
    message: 'A page listed in project.json is not in the folder.',
    suggestion: 'Add the file or remove its entry from project.json.',
  },
  'pages.parse': {
    message: 'The page cannot be read as HTML (it is not UTF-8 text).',
    suggestion: 'Save the page with UTF-8 encoding.',
  },
  'pages.nesting': {
    message: 'Elements are nested more than 512 deep; the rest of the page was not read.',
    suggestion: 'Close elements where they end (browsers stop nesting at 512 too).',
  },
  'pages.title_missing': {
    message: 'The page has no <title>, or an empty one.',
    suggestion: 'Add <title>…</title> inside <head>.',
  },
  'pages.duplicate_id': {
    message: 'Another element of the page has the same id.',
    suggestion: 'Give every element its own id.',
  },
  'pages.unlisted': {
    message: 'The HTML file is not listed as a page in project.json.',
    suggestion: 'List it under pages in project.json, or remove it.',
  },
  'pages.listed_twice': {
    message: 'The page is listed more than once in project.json.',
    suggestion: 'Keep one entry per file.',
  },
  'pages.url_conflict': {
    message: 'Another page has the same public_url.',
    suggestion: 'Give every page its own public_url.',
  },
  'links.missing': {
    message: 'The reference names a file that is not in the folder.',
    suggestion: 'Add the file, or correct the reference (paths are case-sensitive).',
  },
  'links.outside': {
    message: 'The reference climbs above the folder root.',
    suggestion: 'Keep referenced files inside the folder and use paths within it.',
  },
  'links.external': {
    message: 'The page loads a resource from another origin.',
    suggestion: 'Copy the file into the folder and reference it by a relative path.',
  },
  'canvas.size': {
    message: 'The image size differs from the canvas of the medium.',
    suggestion: 'Export the image at exactly the canvas size.',
  },
  'canvas.size_unknown': {
    message: 'The image has no intrinsic size to compare with the canvas.',
    suggestion: 'Give the SVG width and height (or a viewBox).',
  },
  'canvas.viewport': {
    message: 'The page viewport differs from the canvas of the medium.',
    suggestion: 'Declare <meta name="viewport" content="width=W, height=H"> with the canvas size.',
  },
  'canvas.viewport_missing': {
    message: 'The page declares no viewport; a canvas medium needs one of the canvas size.',
    suggestion: 'Add <meta name="viewport" content="width=W, height=H"> with the canvas size.',
  },
} as const;
