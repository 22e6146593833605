// A worker thread of the pool (see work-pool.ts): runs one task and moves the byte arrays of its
// result back to the event loop's thread instead of copying them.
import { move, transferableSymbol, valueSymbol } from 'piscina';
import { buffersIn, tasks } from './tasks.js';
import type { TaskName } from './tasks.js';

export interface WorkOrder {
  task: TaskName;
  input: unknown;
}

export default function run({ task, input }: WorkOrder): unknown {
  const work = tasks[task] as ((input: unknown) => unknown) | undefined;
  if (!work) throw new Error(`no task ${String(task)}`);
  const value = work(input);
  return move({ [transferableSymbol]: buffersIn(value), [valueSymbol]: value as object });
}
