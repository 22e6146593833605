// What requests cost in CPU on this machine (Linux /proc): every core's busy time and one
// process's, over a stretch of load. From it, the ceiling of a scaling benchmark: the most the
// machine's cores could serve if every one of them were busy at that cost per request.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { median } from './bench-child.js';

const ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' })) || 100;

/** Whether CPU times can be read here (Linux). */
export const cpuKnown = existsSync('/proc/stat');

/** Seconds every core has been busy since boot (not idle, not waiting for I/O). */
function machineBusySeconds(): number {
  const [, ...fields] = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!.trim().split(/\s+/);
  const ticks = fields.slice(0, 8).map(Number);
  const idle = ticks[3]! + ticks[4]!;
  return (ticks.reduce((a, b) => a + b, 0) - idle) / ticksPerSecond;
}

/** Seconds of CPU `pid` has used: utime and stime, the 12th and 13th fields after its name. */
function processSeconds(pid: number): number {
  const after = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(after[11]) + Number(after[12])) / ticksPerSecond;
}

/** CPU seconds per request: the whole machine's, and the server process's own. */
export interface CpuPerRequest {
  machine: number;
  server: number;
}

/** Starts counting the CPU of the machine and of `pid`; `end` divides it by the requests. */
export function meterCpu(pid: number): { end(requests: number): CpuPerRequest } {
  const machine = machineBusySeconds();
  const server = processSeconds(pid);
  return {
    end: (requests) => ({
      machine: (machineBusySeconds() - machine) / requests,
      server: (processSeconds(pid) - server) / requests,
    }),
  };
}

/**
 * A reference row: the CPU one server process's requests cost in all (the server, the database,
 * the load generator, the rest) and in the server's process, and the most every core could serve
 * at that cost, as a ratio to what the one process served.
 */
export function ceilingRow(what: string, costs: CpuPerRequest[], oneRps: number) {
  const machine = median(costs.map((c) => c.machine));
  const server = median(costs.map((c) => c.server));
  const cores = availableParallelism();
  const most = cores / machine;
  const micros = (seconds: number) => `${Math.round(seconds * 1e6)} µs`;
  return {
    name: `${what}: the ceiling on these ${cores} cores: CPU per request of one process (in all · in the server's process), and the most all ${cores} cores could serve at that cost`,
    value: `${micros(machine)} · ${micros(server)}; ${Math.round(most)} req/s = ${(most / oneRps).toFixed(2)}× one process`,
    goal: 'reference',
    ok: true,
  };
}
