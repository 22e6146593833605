import { fstatSync, ftruncateSync, writeSync } from 'node:fs';
import type { DestinationStream } from 'pino';

/** How long one line may wait for a full pipe (a slow log reader) before it is dropped. */
const PIPE_WAIT_MS = 1_000;
const PIPE_PAUSE_MS = 10;

/**
 * Log lines to a file descriptor (standard output), each written at once and whole, or dropped
 * when it cannot be (a full disk under a redirected log, a reader gone): logging then costs its
 * lines, never the service. pino's own destination ended the process on such an error; told to
 * hold lines instead, it stopped writing for good once its buffer was full, and its exit hook
 * retried a full disk for ever. The first drop is said on standard error, and so is the return.
 */
export class LogOutput implements DestinationStream {
  readonly #fd: number;
  readonly #tell: (text: string) => void;
  #dropped = 0;
  /** A line was cut short where it could not be taken back: the next one starts a new line. */
  #torn = false;

  constructor(fd: number, tell: (text: string) => void = tellStandardError) {
    this.#fd = fd;
    this.#tell = tell;
  }

  write(line: string): void {
    const bytes = Buffer.from(this.#torn ? `\n${line}` : line, 'utf8');
    const { written, failure } = this.#writeAll(bytes);
    if (failure === null) {
      this.#torn = false;
      if (this.#dropped > 0) {
        this.#tell(`galley: the log is written again (${this.#dropped} lines were lost)`);
        this.#dropped = 0;
      }
      return;
    }
    if (written > 0) this.#takeBack(written);
    if (this.#dropped === 0) {
      this.#tell(`galley: the log cannot be written (${failure}); requests go on without it`);
    }
    this.#dropped += 1;
  }

  /** Removes the start of a line that did not fit from a file, so no line is left cut short. */
  #takeBack(written: number): void {
    try {
      const file = fstatSync(this.#fd);
      if (file.isFile()) {
        ftruncateSync(this.#fd, file.size - written);
        return;
      }
    } catch {
      // Not to be taken back: the next line starts on a line of its own.
    }
    this.#torn = true;
  }

  /** How many bytes went out, and null when that was all of them, else why not (an errno code). */
  #writeAll(bytes: Buffer): { written: number; failure: string | null } {
    let written = 0;
    let waited = 0;
    while (written < bytes.length) {
      try {
        written += writeSync(this.#fd, bytes, written);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code ?? 'EIO';
        // A pipe whose reader is behind: wait for it a little, as pino did.
        if (code !== 'EAGAIN' || waited >= PIPE_WAIT_MS) return { written, failure: code };
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, PIPE_PAUSE_MS);
        waited += PIPE_PAUSE_MS;
      }
    }
    return { written, failure: null };
  }
}

function tellStandardError(text: string): void {
  try {
    writeSync(2, `${text}\n`);
  } catch {
    // Standard error is gone as well: nothing left to tell.
  }
}
