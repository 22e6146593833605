// What the primary process and its workers say to each other over the cluster's IPC channel.
// Every message carries `galley` (its kind), so other users of the channel (prom-client's
// aggregation, rate-limiter-flexible's counting) pass by them.

/** Worker → primary: its server listens at `url` (the primary waits for every first worker). */
export interface ListeningMessage {
  galley: 'listening';
  url: string;
}

/** Worker → primary: it could not start; the failure's message and its code, if any. */
export interface FailedMessage {
  galley: 'failed';
  message: string;
  code?: string;
  syscall?: string;
}

/** Worker → primary: the metrics of the whole service, please (answered by MetricsMessage). */
export interface GatherMessage {
  galley: 'gather';
  id: number;
}

/** Primary → worker: stop gracefully (finish open requests, then exit). */
export interface StopMessage {
  galley: 'stop';
}

/** Primary → worker: the metrics of every worker, summed (or why they could not be). */
export interface MetricsMessage {
  galley: 'metrics';
  id: number;
  text?: string;
  error?: string;
}

export type WorkerMessage = ListeningMessage | FailedMessage | GatherMessage;
export type PrimaryMessage = StopMessage | MetricsMessage;

/** `message` as one of ours, or undefined (another user of the channel). */
export function ours<M extends { galley: string }>(message: unknown): M | undefined {
  return typeof message === 'object' && message !== null && 'galley' in message
    ? (message as M)
    : undefined;
}
