// A worker thread of the pool (see work-pool.ts): runs one task and moves the byte arrays of its
// result back to the event loop's thread instead of copying them.
import { move, transferableSymbol, valueSymbol } from 'piscina';
import { buffersIn, tasks } from './tasks.js';
import type { TaskName } from './tasks.js';

export interface WorkOrder {
  task: TaskName;
  input: unknown;
}

/** A task's result, with when its thread took it (ms since the epoch, as every thread counts). */
export interface WorkDone {
  value: unknown;
  startedAt: number;
}

export default function run({ task, input }: WorkOrder): unknown {
  const startedAt = performance.timeOrigin + performance.now();
  const work = tasks[task] as ((input: unknown) => unknown) | undefined;
  if (!work) throw new Error(`no task ${String(task)}`);
  const value = work(input);
  const done: WorkDone = { value, startedAt };
  return move({ [transferableSymbol]: buffersIn(value), [valueSymbol]: done });
}
