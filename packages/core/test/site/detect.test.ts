import { describe, expect, it } from 'vitest';
import { convertSite, detectSite, isPlainSite } from '@galley/core';
import { converted, folderOf, page, refused } from './helpers.js';

describe('plain-site detection (decisions §5)', () => {
  it('takes index.html at the root', () => {
    const folder = folderOf({ 'index.html': page('Home'), 'about.html': page('About') });
    expect(isPlainSite(folder)).toBe(true);
    expect(detectSite(folder)).toMatchObject({ ok: true, layout: { root: '' } });
  });

  it('strips one single top-level folder holding index.html', () => {
    const folder = folderOf({ 'my-site/index.html': page('Home'), 'my-site/a/b.html': page('B') });
    expect(detectSite(folder)).toMatchObject({ ok: true, layout: { root: 'my-site/' } });
    const result = converted(convertSite(folder));
    expect([...result.folder.keys()]).toEqual(['project.json', 'a/b.html', 'index.html']);
    expect(result.site.pages).toEqual([
      { file: 'index.html', public_url: '/' },
      { file: 'a/b.html', public_url: '/a/b.html' },
    ]);
  });

  it('looks past files ignored by name beside the wrapping folder (__MACOSX, .DS_Store)', () => {
    const folder = folderOf({
      'site/index.html': page('Home'),
      '__MACOSX/site/._index.html': 'junk',
      '.DS_Store': 'junk',
    });
    expect(isPlainSite(folder)).toBe(true);
    expect(converted(convertSite(folder)).site.ignored).toEqual([
      '.DS_Store',
      '__MACOSX/site/._index.html',
    ]);
  });

  it('refuses two top-level folders, a wrapped folder without index.html, and a nested one', () => {
    expect(isPlainSite(folderOf({ 'a/index.html': page('A'), 'b/index.html': page('B') }))).toBe(
      false,
    );
    expect(isPlainSite(folderOf({ 'a/home.html': page('A') }))).toBe(false);
    expect(isPlainSite(folderOf({ 'a/b/index.html': page('A') }))).toBe(false);
    expect(isPlainSite(folderOf({ 'a/index.html': page('A'), 'readme.txt': 'x' }))).toBe(false);
  });

  it('takes index.html by that exact name only', () => {
    expect(isPlainSite(folderOf({ 'index.htm': page('A') }))).toBe(false);
    expect(isPlainSite(folderOf({ 'Index.html': page('A') }))).toBe(false);
  });

  it('is not a site when project.json is there, at the root or in the wrapping folder', () => {
    const json = '{"format":1}';
    expect(detectSite(folderOf({ 'project.json': json, 'index.html': page('A') }))).toEqual({
      ok: false,
      reason: 'project_folder',
    });
    expect(detectSite(folderOf({ 'w/project.json': json, 'w/index.html': page('A') }))).toEqual({
      ok: false,
      reason: 'project_folder',
    });
  });

  it('answers a folder that is no plain site with site.read and a reason', () => {
    const [none] = refused(convertSite(folderOf({ 'home.html': page('A') })));
    expect(none).toMatchObject({ check: 'site', code: 'site.read', path: 'index.html' });
    const [project] = refused(
      convertSite(folderOf({ 'project.json': '{}', 'index.html': page('A') })),
    );
    expect(project).toMatchObject({ code: 'site.read', path: 'project.json' });
    expect(project?.message).toContain('project folder');
  });
});
