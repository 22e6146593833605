import { AggregatorRegistry } from 'prom-client';
import type { ServiceMetrics } from '../metrics/metrics.js';
import type { PrimaryMessage, WorkerMessage } from './messages.js';
import { ours } from './messages.js';

/** How long a worker waits for the primary to sum the metrics (prom-client waits 5 s per worker). */
const GATHER_TIMEOUT_MS = 10_000;

/** A worker's side of the conversation with the primary (see primary.ts). */
export interface WorkerLink {
  /** Says the server listens (the primary prints where once every first worker does). */
  listening(url: string): void;
  /** Says the start failed; the primary stops the others and exits with the reason. */
  failed(error: unknown): void;
  /** Calls `stop` when the primary asks for a graceful stop, or is gone (its channel closed). */
  onStop(stop: () => void): void;
  /** `GET /metrics` of this worker answers for the whole service, summed by the primary. */
  shareMetrics(metrics: ServiceMetrics): void;
}

export function workerLink(): WorkerLink {
  const tell = (message: WorkerMessage) => {
    if (process.connected) process.send?.(message, undefined, undefined, () => undefined);
  };
  const answers = new Map<number, (reply: { text?: string; error?: string }) => void>();
  let nextId = 0;
  process.on('message', (raw: unknown) => {
    const message = ours<PrimaryMessage>(raw);
    if (message?.galley === 'metrics') answers.get(message.id)?.(message);
  });
  return {
    listening: (url) => tell({ galley: 'listening', url }),
    failed: (error) => {
      const { code, syscall } = error as { code?: unknown; syscall?: unknown };
      tell({
        galley: 'failed',
        message: error instanceof Error ? error.message : String(error),
        ...(typeof code === 'string' ? { code } : {}),
        ...(typeof syscall === 'string' ? { syscall } : {}),
      });
    },
    onStop: (stop) => {
      process.on('message', (raw: unknown) => {
        if (ours<PrimaryMessage>(raw)?.galley === 'stop') stop();
      });
      // A primary that ended while this worker started left no one to stop it: stop now.
      if (process.connected) process.once('disconnect', stop);
      else stop();
    },
    shareMetrics: (metrics) => {
      // Answers the primary's requests for this worker's metrics (prom-client's listener).
      AggregatorRegistry.setRegistries([metrics.registry]);
      new AggregatorRegistry();
      metrics.gatherWith(
        () =>
          new Promise<string>((resolve, reject) => {
            const id = nextId++;
            const timer = setTimeout(
              () => settle({ error: 'the primary did not answer' }),
              GATHER_TIMEOUT_MS,
            );
            const settle = (reply: { text?: string; error?: string }) => {
              clearTimeout(timer);
              answers.delete(id);
              if (reply.text !== undefined) resolve(reply.text);
              else reject(new Error(`metrics could not be gathered: ${reply.error}`));
            };
            answers.set(id, settle);
            tell({ galley: 'gather', id });
          }),
      );
    },
  };
}
