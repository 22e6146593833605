/**
 * Codes found only by asset inspection (decisions §6, §8), namespaced by standard. Inspection
 * also reports the folder checks' codes for the same defects (`names.*`, `formats.*`,
 * `canvas.size`), so a file judged in a folder and in an asset gets one code.
 */
export const inspectCodes = {
  'names.layout': {
    message: 'A production holds production.json plus files under canvas/ and references/ only.',
    suggestion: 'Move the file under canvas/ (the work) or references/ (material it uses).',
  },
  'formats.kind': {
    message: 'This kind of asset does not accept this type of file.',
    suggestion:
      'Images are png, jpeg, gif, webp, svg or avif; fonts woff2, woff, ttf or otf; data is JSON.',
  },
  'formats.file_count': {
    message: 'This kind of asset holds exactly one file.',
    suggestion: 'Send one file; make a production to group several.',
  },
  'schema.missing': {
    message: 'The JSON file names no schema.',
    suggestion:
      'Give the file a schema (svc://schemas/<kind>/<version>): GET /api/v2/schemas lists them, /api/v1/schemas/<kind>/<version> shows one.',
  },
  'schema.unknown': {
    message: 'The schema URI names no schema of the service.',
    suggestion: 'Use a URI listed by GET /api/v2/schemas, such as svc://schemas/palette/1.',
  },
  'schema.invalid': {
    message: 'The JSON does not match its schema.',
    suggestion: 'Correct the value the message points to (a JSON Pointer into the file).',
  },
  'canvas.medium_unknown': {
    message: 'The medium is not in the media catalog.',
    suggestion: 'Use one of web, banner, leaderboard, signage, social or print-a4 (version 1).',
  },
} as const;
