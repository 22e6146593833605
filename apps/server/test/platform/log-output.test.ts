// The log on a disk that fills up and then has room again (a tmpfs of 64 KiB, where this machine
// lets the test mount one): lines are dropped while it is full, said once, and logging resumes.
import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LogOutput } from '../../src/http/log-output.js';

const dir = mkdtempSync(join(tmpdir(), 'galley-log-'));
const mounted = (() => {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', dir], { stdio: 'ignore' });
    return null;
  } catch {
    return 'a tmpfs cannot be mounted here (not root, or no mount)';
  }
})();
if (mounted) console.warn(`skipped: a log on a disk that fills up: ${mounted}`);

afterAll(() => {
  if (!mounted) execFileSync('umount', [dir]);
  rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!!mounted)('a log on a disk that fills up', () => {
  it('drops lines while it is full, says so once, and writes again once there is room', () => {
    const told: string[] = [];
    const fd = openSync(join(dir, 'log'), 'a');
    const output = new LogOutput(fd, (text) => told.push(text));
    output.write('{"n":1}\n');
    const filler = join(dir, 'filler');
    try {
      writeFileSync(filler, Buffer.alloc(128 * 1024)); // more than there is room for
    } catch {
      // Full, as intended: the part written stays.
    }
    for (let n = 2; n <= 50; n++) output.write(`{"n":${n},"pad":"${'x'.repeat(200)}"}\n`);
    rmSync(filler);
    output.write('{"n":51}\n');
    closeSync(fd);
    expect(told).toHaveLength(2);
    expect(told[0]).toBe('galley: the log cannot be written (ENOSPC); requests go on without it');
    expect(told[1]).toMatch(/^galley: the log is written again \(\d+ lines were lost\)$/);
    // Whole lines only (what fitted in the file's last block, then nothing), and the log goes on.
    const lines = readFileSync(join(dir, 'log'), 'utf8').trimEnd().split('\n');
    const numbers = lines.map((line) => (JSON.parse(line) as { n: number }).n);
    expect(numbers[0]).toBe(1);
    expect(numbers.at(-1)).toBe(51);
    expect(numbers.length + Number(/\((\d+) lines/.exec(told[1]!)![1])).toBe(51);
  });
});
