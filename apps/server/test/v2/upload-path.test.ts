// The path a multipart upload's file name becomes (POST /assets, field `file`).
import { describe, expect, it } from 'vitest';
import { uploadPath } from '../../src/assets/service/upload-path.js';

describe('uploadPath', () => {
  it.each([
    ['ä.gif', 'a.gif'],
    ['Café Logo.PNG', 'cafe-logo.png'],
    ['写真.png', 'file.png'],
    ['My Photo.PNG', 'my-photo.png'],
    ['Ｌｏｇｏ.ｐｎｇ', 'logo.png'],
    ['résumé.v2.final.JPEG', 'resume.v2.final.jpeg'],
    ['C:\\Users\\me\\Naïve Art.webp', 'naive-art.webp'],
    ['folder/sub/icon.svg', 'icon.svg'],
    ['.png', 'file.png'],
    ['..hidden-.png', 'hidden.png'],
    ['image.pn g', 'image.png'],
    ['image.写真', 'image'],
    ['README', 'readme'],
    ['trailing.', 'trailing'],
    ['', 'file'],
    ['写真', 'file'],
  ])('%j → %j', (name, path) => {
    expect(uploadPath(name)).toBe(path);
  });

  it('cuts a long stem so the path keeps to the naming rules', () => {
    const path = uploadPath(`${'x'.repeat(500)}.png`);
    expect(path).toBe(`${'x'.repeat(100)}.png`);
  });
});
