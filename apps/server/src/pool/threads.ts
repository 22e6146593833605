import { availableParallelism } from 'node:os';

/**
 * Worker threads per server process: the cores shared among the processes (`GALLEY_WORKERS`, as
 * written; one per core when unset or unreadable), at least one.
 */
export function defaultPoolThreads(workers: string | undefined): number {
  const cores = availableParallelism();
  const processes = Number(workers);
  const shares = Number.isInteger(processes) && processes >= 1 ? processes : cores;
  return Math.max(1, Math.floor(cores / shares));
}
