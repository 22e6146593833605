// A worker thread of the loop benchmark (loop-fixtures.ts, `probeUntil`): sends one GET at a
// time to the service until told to stop, then answers how long each took. On a thread of its
// own, so the benchmark's own work (sending a 50 MB upload, reading a 3.5 MB draft, running 50
// connections of operations) never delays a probe's timing on the benchmark's event loop.
// workerData: { url, headers, pauseMs, fresh } (fresh: a new connection for each request).
import { Agent, get } from 'node:http';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { parentPort, workerData } from 'node:worker_threads';

const { url, headers, pauseMs, fresh } = workerData;
const agent = fresh ? false : new Agent({ keepAlive: true, maxSockets: 1 });
let running = true;
parentPort.once('message', () => (running = false));

/** Whether the GET answered 200 (its body read whole). */
function once() {
  return new Promise((resolve) => {
    get(url, { agent, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode === 200));
      res.on('error', () => resolve(false));
    }).on('error', () => resolve(false));
  });
}

const times = [];
while (running) {
  const start = performance.now();
  // A refused or cut request counts as one that never came back in time.
  times.push((await once()) ? performance.now() - start : Infinity);
  if (pauseMs > 0) await sleep(pauseMs);
}
if (agent) agent.destroy();
parentPort.postMessage(times);
