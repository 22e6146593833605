// isTerminal answers pipes, files and character devices that are not terminals without a TTY;
// a real terminal is covered by check.test.ts (`script` gives the CLI a pseudo-terminal).
import { closeSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isTerminal } from '../src/lib/terminal.js';

describe('isTerminal', () => {
  const dir = mkdtempSync(join(tmpdir(), 'galley-terminal-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('says no for a file, /dev/null, and a descriptor that is not open', () => {
    const file = openSync(join(dir, 'out.txt'), 'w');
    const devNull = openSync('/dev/null', 'w');
    try {
      expect(isTerminal(file)).toBe(false);
      expect(isTerminal(devNull)).toBe(false); // a character device, but no terminal
    } finally {
      closeSync(file);
      closeSync(devNull);
    }
    expect(isTerminal(2 ** 31 - 1)).toBe(false); // never opened
  });
});
