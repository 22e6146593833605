import { fstatSync } from 'node:fs';

/**
 * Whether file descriptor `fd` is a terminal. A terminal is a character device, and pipes and
 * files (how short commands mostly run, under scripts and tests) are not, so an fstat answers
 * them; node:tty is loaded only for a character device (a terminal, or /dev/null), as it loads
 * node:net and the stream modules: about 5 ms of `galley --help` or a small `galley check`.
 */
export function isTerminal(fd: number): boolean {
  try {
    if (!fstatSync(fd).isCharacterDevice()) return false;
  } catch {
    return false; // closed or never opened: nothing to draw on
  }
  return process.getBuiltinModule('node:tty').isatty(fd);
}
