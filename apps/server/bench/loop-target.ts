// The server for loop.bench.ts, in its own process with --expose-gc: the whole service (see
// bench-server.ts) with its pool threads from argv, and what the benchmark asks of the process
// itself over IPC: its event loop's delays (perf_hooks.monitorEventLoopDelay) and its heap after
// a full collection. Prints one JSON line ({url, token}) once listening; stops on 'stop', or when
// the benchmark that forked it is gone (its IPC channel closed).
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { startBenchServer } from './bench-server.js';

const [dataDir, threads] = process.argv.slice(2);
if (!dataDir || threads === undefined || !process.send) {
  console.error('usage (forked, with IPC): loop-target.ts <data-dir> <pool threads>');
  process.exit(2);
}
const server = await startBenchServer(dataDir, { poolThreads: Number(threads) });
const delay = monitorEventLoopDelay({ resolution: 5 });
delay.enable();

export type TargetMessage = 'reset' | 'loop' | 'heap' | 'stop';
export interface LoopStats {
  maxMs: number;
  p99Ms: number;
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
    process.send!({ reset: true });
  } else if (message === 'loop') {
    const stats: LoopStats = { maxMs: delay.max / 1e6, p99Ms: delay.percentile(99) / 1e6 };
    process.send!(stats);
  } else if (message === 'heap') {
    (globalThis as { gc?: () => void }).gc?.();
    process.send!({ heapUsed: process.memoryUsage().heapUsed });
  } else {
    stop();
  }
});
console.log(JSON.stringify({ url: server.url, token: server.token }));
