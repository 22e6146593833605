import { describe, expect, it } from 'vitest';
import { checkFolder, violationCodes, type Folder } from '@galley/core';
import { checksCodes } from '../../src/checks/codes.js';
import { folderOf, gif, html, png, projectJson, svg, utf8, webFolder } from './fixtures.js';

const banner = (extra: Record<string, string | Uint8Array>) =>
  folderOf({
    'project.json': projectJson(['index.html'], 'banner'),
    'index.html': html({ head: '<meta name="viewport" content="width=300, height=250">' }),
    ...extra,
  });
const latin1 = new Uint8Array([...utf8('<!doctype html><title>Caf'), 0xe9, ...utf8('</title>')]);

/** One folder per code the folder checks can report, in which that code must appear. */
const fixtures: Record<string, Folder> = {
  'project.missing': folderOf({ 'index.html': html() }),
  'project.json': folderOf({ 'project.json': '{"format": 1,', 'index.html': html() }),
  'project.schema': folderOf({ 'project.json': '{"format": 1}', 'index.html': html() }),
  'project.medium_unknown': folderOf({
    'project.json': projectJson(['index.html'], 'billboard'),
    'index.html': html(),
  }),
  'project.title_control': folderOf({
    'project.json': projectJson(['index.html']).replace('"title":"Test"', '"title":"T\\u0000x"'),
    'index.html': html(),
  }),
  'names.absolute': webFolder({ '/etc/passwd': 'x' }),
  'names.drive_letter': webFolder({ 'c:/x.txt': 'x' }),
  'names.backslash': webFolder({ 'a\\b.txt': 'x' }),
  'names.control_character': webFolder({ 'a\u0001.txt': 'x' }),
  'names.traversal': webFolder({ 'a/../b.txt': 'x' }),
  'names.not_canonical': webFolder({ 'a//b.txt': 'x' }),
  'names.not_nfc': webFolder({ 'cafe\u0301.txt': 'x' }),
  'names.hidden': webFolder({ '.env': 'x' }),
  'names.characters': webFolder({ 'My File.txt': 'x' }),
  'names.too_long': webFolder({ [`${'a'.repeat(197)}.txt`]: 'x' }),
  'names.duplicate': webFolder({ 'a.txt': 'x', 'A.txt': 'x' }),
  'formats.not_allowed': webFolder({ 'tool.exe': 'x' }),
  'formats.mismatch': webFolder({ 'photo.jpg': png(10, 10) }),
  'formats.encoding': webFolder({ 'style.css': new Uint8Array([0x61, 0xff, 0x7b, 0x7d]) }),
  'formats.unreadable': webFolder({ 'broken.png': png(10, 10).subarray(0, 20) }),
  'formats.dimensions': webFolder({ 'huge.png': png(16_385, 10) }),
  'formats.svg_active': webFolder({ 'icon.svg': svg(10, 10, '<script>alert(1)</script>') }),
  'pages.missing': folderOf({ 'project.json': projectJson(['index.html']) }),
  'pages.parse': folderOf({ 'project.json': projectJson(['index.html']), 'index.html': latin1 }),
  'pages.nesting': webFolder({ 'index.html': html({ body: '<b>'.repeat(600) }) }),
  'pages.title_missing': webFolder({ 'index.html': '<!doctype html><p>Hello</p>' }),
  'pages.duplicate_id': webFolder({ 'index.html': html({ body: '<p id="a"></p><p id="a"></p>' }) }),
  'pages.unlisted': webFolder({ 'extra.html': html() }),
  'pages.listed_twice': webFolder({}, ['index.html', 'index.html']),
  'pages.url_conflict': webFolder({ 'a.html': html() }, [
    'index.html',
    { file: 'a.html', public_url: '/' },
  ]),
  'links.missing': webFolder({ 'index.html': html({ body: '<img src="nope.png" alt="">' }) }),
  'links.outside': webFolder({ 'index.html': html({ body: '<a href="../up.html">up</a>' }) }),
  'links.external': webFolder({
    'index.html': html({ head: '<script src="https://cdn.example/x.js"></script>' }),
  }),
  'limits.entries': webFolder(
    Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`f/${i}.txt`, ''])),
  ),
  'limits.file_size': webFolder({ 'big.txt': new Uint8Array(50 * 1024 * 1024 + 1) }),
  'limits.total_size': webFolder(
    Object.fromEntries(
      Array.from({ length: 11 }, (_, i) => [`big${i}.txt`, new Uint8Array(48 * 1024 * 1024)]),
    ),
  ),
  'canvas.size': banner({ 'canvas/bg.png': png(300, 251) }),
  'canvas.size_unknown': banner({ 'canvas/logo.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>' }),
  'canvas.viewport': banner({
    'index.html': html({ head: '<meta name="viewport" content="width=device-width">' }),
  }),
  'canvas.viewport_missing': banner({ 'index.html': html() }),
};

describe('every folder-check code', () => {
  it('has a fixture for each code of the checks catalog', () => {
    for (const code of Object.keys(checksCodes)) expect(fixtures).toHaveProperty([code]);
  });

  for (const [code, folder] of Object.entries(fixtures)) {
    it(`reports ${code} from the catalog, with its check's outcome`, () => {
      const report = checkFolder(folder);
      const found = report.violations.find((v) => v.code === code);
      expect(found, JSON.stringify(report.violations.map((v) => v.code))).toBeDefined();
      const entry = violationCodes[code as keyof typeof violationCodes];
      expect(found!.check).toBe(code.split('.')[0]);
      expect(found!.suggestion).toBe(entry.suggestion);
      expect(found!.message.length).toBeGreaterThan(0);
      const outcome = report.checks[found!.check];
      expect(outcome).toBe(found!.severity === 'error' ? 'failed' : 'unchecked');
    });
  }

  it('passes a small valid folder of each medium', () => {
    const all = (report: ReturnType<typeof checkFolder>) => Object.values(report.checks);
    expect(all(checkFolder(webFolder({ 'logo.gif': gif(4, 4) })))).toEqual(Array(8).fill('passed'));
    expect(all(checkFolder(banner({ 'canvas/bg.png': png(300, 250) })))).toEqual(
      Array(8).fill('passed'),
    );
  });
});
