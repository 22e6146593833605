// The worker thread of parallel-pages.ts: reads each batch of pages it is sent (packed into one
// buffer, end offsets beside it) as the core reads them for the checks, and answers their data
// on the port it was given, in order.
import { parentPort, workerData } from 'node:worker_threads';
import type { MessagePort } from 'node:worker_threads';
import { decodeUtf8, readPageData } from '@galley/core/folder';
import type { PageData } from '@galley/core/folder';

export interface PageBatch {
  readonly id: number;
  readonly bytes: Uint8Array<ArrayBuffer>;
  readonly ends: readonly number[];
}
export interface PagesRead {
  readonly id: number;
  /** Each page's data, or undefined where it is not UTF-8 (the core's reader says the same). */
  readonly pages: readonly (PageData | undefined)[];
}

const { answers } = workerData as { answers: MessagePort };
parentPort?.on('message', ({ id, bytes, ends }: PageBatch) => {
  const pages: (PageData | undefined)[] = [];
  let start = 0;
  for (const end of ends) {
    const text = decodeUtf8(bytes.subarray(start, end));
    pages.push(text === undefined ? undefined : readPageData(text));
    start = end;
  }
  const read: PagesRead = { id, pages };
  answers.postMessage(read);
});
