import { createReadMemo, decodeUtf8, formatOfPath, pageFacts, readInto } from '@galley/core/folder';
import type { Folder, ReadMemo } from '@galley/core/folder';
import type { PageBatch, PagesRead } from './page-worker.js';

/** An archive this large may hold pages enough to share: the worker starts while it is read. */
const workerArchiveBytes = 1024 * 1024;
/** Pages (bytes of HTML) from which a second thread reads some; below, it costs more than it saves. */
const sharedPageBytes = 2 * 1024 * 1024;
/** Bytes of pages the worker is sent at a time; it has at most two batches to do. */
const batchBytes = 256 * 1024;

const fromSource = import.meta.url.endsWith('.ts');

/** Reads the pages of a folder for the checks on two threads; see `pagesInParallel`. */
export interface ParallelPages {
  /**
   * The folder's pages read into a memo for `checkReadZip`, undefined when they are too few to
   * share. The worker takes batches from the front; this thread first reads the style sheets
   * and image sizes (while the worker starts), then pages from the back; once none is left, it
   * also reads the pages the worker has not answered yet, so it never waits for it (a worker
   * that is slow to start, or fails, costs nothing but its thread). Ends it.
   */
  read(folder: Folder): ReadMemo | undefined;
}

/**
 * A worker thread for reading pages, started when an archive of `archiveBytes` may hold enough
 * of them and there is a second core: it loads while this thread reads the ZIP. Parsing pages is
 * the largest part of checking a large folder, and a page's data (PageData) is all the checks
 * need of it; its text is decoded here only to place a finding in it.
 */
export function pagesInParallel(archiveBytes: number): ParallelPages | undefined {
  if (archiveBytes < workerArchiveBytes) return undefined;
  // Loaded here, not imported: a small folder's check starts without them.
  const { availableParallelism } = process.getBuiltinModule('node:os');
  if (availableParallelism() < 2) return undefined;
  const { MessageChannel, receiveMessageOnPort, Worker } =
    process.getBuiltinModule('node:worker_threads');
  const script = fromSource ? './page-worker-source.mjs' : './page-worker.js';
  const { port1: answers, port2 } = new MessageChannel();
  const worker = new Worker(new URL(script, import.meta.url), {
    workerData: { answers: port2 },
    transferList: [port2],
  });
  worker.unref(); // this thread never waits for it: nothing of it may keep the process alive
  answers.unref();
  worker.on('error', () => undefined); // its pages are read here instead

  return {
    read(folder) {
      try {
        const files = [...folder.entries()];
        const pages = files.filter(([path]) => formatOfPath(path) === 'html');
        const total = pages.reduce((sum, [, bytes]) => sum + bytes.length, 0);
        if (total < sharedPageBytes) return undefined;
        const memo = createReadMemo();
        const batches: Uint8Array[][] = [];
        let front = 0; // pages before it were sent to the worker
        let back = pages.length; // pages from it on were read here
        const send = () => {
          const batch: Uint8Array[] = [];
          for (let size = 0; front < back && size < batchBytes; front++) {
            batch.push(pages[front]![1]);
            size += pages[front]![1].length;
          }
          if (batch.length === 0) return;
          const message = packed(batches.push(batch) - 1, batch);
          worker.postMessage(message, [message.bytes.buffer]);
        };
        const receive = () => {
          for (let m = receiveMessageOnPort(answers); m; m = receiveMessageOnPort(answers)) {
            const { id, pages: read } = m.message as PagesRead;
            batches[id]!.forEach((bytes, i) => {
              const data = read[i];
              if (!memo.pages.has(bytes))
                memo.pages.set(bytes, data && pageFacts(data, () => decodeUtf8(bytes)!));
            });
            send();
          }
        };
        send();
        send();
        for (const [path, bytes] of files) {
          if (formatOfPath(path) === 'html') continue;
          receive();
          readInto(memo, path, bytes);
        }
        for (let next = pages.length - 1; next >= 0; next--) {
          receive();
          const [path, bytes] = pages[next]!;
          if (memo.pages.has(bytes)) continue;
          back = Math.min(back, next);
          readInto(memo, path, bytes);
        }
        return memo;
      } finally {
        void worker.terminate();
      }
    },
  };
}

/** A batch of pages as one buffer (moved to the worker, not copied) and their end offsets. */
function packed(id: number, pages: readonly Uint8Array[]): PageBatch {
  const ends: number[] = [];
  let size = 0;
  for (const page of pages) ends.push((size += page.length));
  const bytes = new Uint8Array(size);
  pages.forEach((page, i) => bytes.set(page, ends[i]! - page.length));
  return { id, bytes, ends };
}
