import { isTerminal } from './terminal.js';
import type { SingleBar } from 'cli-progress';

/** What a long run reports as it goes; commands call it whether or not anything is shown. */
export interface Progress {
  /** Starts a step: with a total, a bar counts up to it; without one, the label alone shows. */
  phase(label: string, total?: number): void;
  advance(by?: number): void;
  /** Clears the line, so what follows starts on a clean terminal line. */
  done(): void;
}

const silent: Progress = { phase() {}, advance() {}, done() {} };

/** The stream progress is drawn on: stderr, so stdout stays the command's answer. */
export interface ProgressStream extends NodeJS.WritableStream {
  readonly isTTY?: boolean;
}

/**
 * A progress line on `stream` only when it is a terminal: never when piped or redirected, so
 * logs and `--json` consumers see nothing of it. The bar redraws at most every 100 ms, also
 * between the synchronous steps of the core (cli-progress renders inside `update`). cli-progress
 * is loaded only then: a piped or redirected run starts without it.
 */
export async function progressOn(given?: ProgressStream): Promise<Progress> {
  // Asked of the descriptor first: process.stderr is created only to draw on (see io.ts).
  if (given === undefined && !isTerminal(2)) return silent;
  const stream = given ?? process.stderr;
  if (stream.isTTY !== true) return silent;
  const { SingleBar } = await import('cli-progress');
  let bar: SingleBar | undefined;
  let label = '';
  let counted = false;
  const ensure = () => {
    if (bar) return bar;
    bar = new SingleBar({
      stream,
      clearOnComplete: true,
      hideCursor: true,
      linewrap: false,
      format: (options, params) => {
        if (!counted) return `${label}…`;
        const width = options.barsize ?? 30;
        const filled = Math.round(Math.min(1, params.progress) * width);
        const cells = `${'█'.repeat(filled)}${'░'.repeat(width - filled)}`;
        return `${label} ${cells} ${params.value}/${params.total}`;
      },
    });
    bar.start(1, 0);
    return bar;
  };
  return {
    phase(next, total) {
      label = next;
      counted = total !== undefined;
      const b = ensure();
      b.setTotal(total ?? 1);
      b.update(0);
      b.render();
    },
    advance(by = 1) {
      bar?.increment(by);
    },
    done() {
      bar?.stop();
      bar = undefined;
    },
  };
}
