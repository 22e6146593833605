import { describe, expect, it } from 'vitest';
import { decodeManifest, encodeManifest } from '../src/projects/state.js';

describe('folder manifests', () => {
  it('round-trip every path, including ones named like inherited object properties', () => {
    const manifest = new Map(
      ['index.html', '__proto__', 'constructor', 'assets/a.png'].map((path, i) => [
        path,
        { sha256: String(i).repeat(64), size: i * 10, revision: i + 1 },
      ]),
    );
    const decoded = decodeManifest(encodeManifest(manifest));
    expect([...decoded.entries()].sort()).toEqual([...manifest.entries()].sort());
  });
});
