// The server for loop.bench.ts, in its own process with --expose-gc: the whole service (see
// bench-server.ts) with its pool threads from argv, and what the benchmark asks of the process
// itself over IPC: its event loop's delays (perf_hooks.monitorEventLoopDelay) and its heap after
// a full collection. Prints one JSON line ({url, token}) once listening; stops on 'stop', or when
// the benchmark that forked it is gone (its IPC channel closed).
import { PerformanceObserver, monitorEventLoopDelay } from 'node:perf_hooks';
import { startBenchServer } from './bench-server.js';

const [dataDir, threads] = process.argv.slice(2);
if (!dataDir || threads === undefined || !process.send) {
  console.error('usage (forked, with IPC): loop-target.ts <data-dir> <pool threads>');
  process.exit(2);
}
const server = await startBenchServer(dataDir, { poolThreads: Number(threads) });
const delay = monitorEventLoopDelay({ resolution: 5 });
delay.enable();
/** The longest garbage-collection pause since the last reset: what a stall may be made of. */
let gcMaxMs = 0;
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) gcMaxMs = Math.max(gcMaxMs, entry.duration);
}).observe({ entryTypes: ['gc'] });

export type TargetMessage = 'reset' | 'loop' | 'heap' | 'stop';
export interface LoopStats {
  maxMs: number;
  p99Ms: number;
  gcMaxMs: number;
}

let stopping = false;
const stop = () => {
  if (stopping) return;
  stopping = true;
  void server.stop().then(() => process.exit(0));
};
process.on('disconnect', stop);
process.on('message', (message: TargetMessage) => {
  if (message === 'reset') {
    delay.reset();
    gcMaxMs = 0;
    process.send!({ reset: true });
  } else if (message === 'loop') {
    const stats: LoopStats = {
      maxMs: delay.max / 1e6,
      p99Ms: delay.percentile(99) / 1e6,
      gcMaxMs,
    };
    process.send!(stats);
  } else if (message === 'heap') {
    (globalThis as { gc?: () => void }).gc?.();
    process.send!({ heapUsed: process.memoryUsage().heapUsed });
  } else {
    stop();
  }
});
console.log(JSON.stringify({ url: server.url, token: server.token }));
// LOOP_BENCH_STALLS=1 (with LOOP_BENCH_PROFILE, see loop-fixtures.ts): each stall over 25 ms is
// printed with its end on the monotonic clock, in µs, as the CPU profile's sample times are.
if (process.env['LOOP_BENCH_STALLS']) {
  const tickMs = 5;
  let last = process.hrtime.bigint();
  setInterval(() => {
    const now = process.hrtime.bigint();
    const lateMs = Number(now - last) / 1e6 - tickMs;
    if (lateMs > 25) console.error(`stall: ${lateMs.toFixed(1)} ms, ending at ${now / 1000n} µs`);
    last = now;
  }, tickMs).unref();
}
