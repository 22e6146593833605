import { Piscina } from 'piscina';
import { problemOf } from '../http/problem.js';
import type { HttpProblem } from '../http/problem.js';
import { buffersIn, tasks } from './tasks.js';
import type { TaskInput, TaskName, TaskOutput } from './tasks.js';
import type { PoolTaskTiming } from '../metrics/metrics.js';
import type { WorkDone, WorkOrder } from './worker.js';

export interface WorkPoolOptions {
  /** Worker threads (0: everything runs on the event loop). */
  threads: number;
  /** Work on inputs smaller than this runs on the event loop: the hop would cost more. */
  inlineBytes: number;
  /** A task still running after this long is stopped (its worker ended): 503. */
  timeoutMs?: number;
  /** Heap limit of each worker, in MiB (Node's default when unset). */
  workerHeapMb?: number;
}

export interface RunOptions {
  /** The size of the work (bytes of its input), against `inlineBytes`. */
  size: number;
  /** Move the input's byte arrays to the worker (the caller no longer uses them) instead of copying. */
  move?: boolean;
}

const DEFAULT_TIMEOUT_MS = 120_000;
const fromSource = import.meta.url.endsWith('.ts');

/**
 * Worker threads for the work that would hold the event loop for long (piscina): folder intake,
 * rebuilding large drafts, inspecting large files. Small work runs inline, as the same function
 * (tasks.ts). A failure of the work (a worker that ends, runs out of memory or out of time, or
 * throws) is 503 `work_failed`, never an unanswered request.
 */
export class WorkPool {
  readonly #pool: Piscina | null;
  readonly #inlineBytes: number;
  readonly #timeoutMs: number;
  #closed = false;
  /** Told of each task a worker ran: how long it waited for a thread, how long it took. */
  onTask: (timing: PoolTaskTiming) => void = () => undefined;

  constructor(options: WorkPoolOptions) {
    this.#inlineBytes = options.inlineBytes;
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.#pool =
      options.threads < 1
        ? null
        : new Piscina({
            filename: new URL(fromSource ? './source-worker.mjs' : './worker.js', import.meta.url)
              .href,
            ...(fromSource ? { execArgv: ['--conditions=@galley/source'] } : {}),
            minThreads: 0,
            maxThreads: options.threads,
            idleTimeout: 60_000,
            ...(options.workerHeapMb
              ? { resourceLimits: { maxOldGenerationSizeMb: options.workerHeapMb } }
              : {}),
          });
  }

  /** Whether work of `size` bytes goes to a worker. */
  offloads(size: number): boolean {
    return this.#pool !== null && size >= this.#inlineBytes;
  }

  async run<T extends TaskName>(
    task: T,
    input: TaskInput<T>,
    options: RunOptions,
  ): Promise<TaskOutput<T>> {
    if (!this.offloads(options.size)) {
      try {
        return (tasks[task] as (input: TaskInput<T>) => TaskOutput<T>)(input);
      } catch (error) {
        throw workFailed(task, error);
      }
    }
    // Work that comes while the server stops (its pool closed) has no thread to run on.
    if (this.#closed) throw workFailed(task, new Error('the pool is closed'));
    const order: WorkOrder = { task, input };
    const sent = epochMs();
    let done: WorkDone;
    try {
      done = (await this.#pool!.run(order, {
        transferList: options.move ? buffersIn(input) : [],
        signal: AbortSignal.timeout(this.#timeoutMs),
      })) as WorkDone;
    } catch (error) {
      throw workFailed(task, error);
    }
    this.onTask({
      task,
      waitSeconds: Math.max(0, done.startedAt - sent) / 1000,
      runSeconds: Math.max(0, epochMs() - done.startedAt) / 1000,
    });
    return done.value as TaskOutput<T>;
  }

  /** Tasks waiting for a worker, and workers running. */
  get load(): { queued: number; threads: number } {
    return { queued: this.#pool?.queueSize ?? 0, threads: this.#pool?.threads.length ?? 0 };
  }

  async close(): Promise<void> {
    this.#closed = true;
    await this.#pool?.destroy();
  }
}

/** Now, in ms since the epoch: comparable with a worker thread's own clock. */
const epochMs = () => performance.timeOrigin + performance.now();

function workFailed(task: TaskName, error: unknown): HttpProblem {
  const cause = error instanceof Error ? error.message : String(error);
  return problemOf('work_failed', {
    detail: `The server could not finish this request's work (${task}: ${cause}). Try again later.`,
    headers: { 'Retry-After': '5' },
  });
}
