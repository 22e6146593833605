// The work the pool runs: pure functions of their input, the same whether they run on the event
// loop (small inputs) or in a worker thread (see work-pool.ts), so both give the same bytes.
import { deflateRawSync } from 'node:zlib';
import { Draft, inspectContents, zipDeflateLevel } from '@galley/core';
import type { DraftLog, InspectInput, Inspection, KnownFacts } from '@galley/core';
import { intakeZip } from '../editing/service/folder-state.js';
import type { Intake, SiteOptions } from '../editing/service/folder-state.js';

/** A stored page and the events after it, as the draft engine's log: a draft to rebuild. */
export interface StoredDraft {
  html: string;
  log: DraftLog;
}

const encoder = new TextEncoder();

/**
 * The members of a GET draft answer that grow with the page, as UTF-8 JSON text:
 * `"html":…,"outline":[…]` (the answer's own order), ready to be sent between its other members.
 */
export function draftPageJson(draft: Draft): Uint8Array {
  const html = JSON.stringify(draft.html());
  return encoder.encode(`"html":${html},"outline":${JSON.stringify(draft.outline())}`);
}

/** The page text when reading it back gives the very draft (see DraftService.reopen); else null. */
export function readsBack(html: string): boolean {
  const again = Draft.open(html);
  return again.ok && again.draft.html() === html;
}

function rebuilt({ html, log }: StoredDraft): Draft {
  const result = Draft.rebuild(html, log);
  if (!result.ok) throw new Error(`the draft cannot be rebuilt: ${result.errors[0]?.code}`);
  return result.draft;
}

export const tasks = {
  /**
   * Raw DEFLATE of a file of a ZIP at the fixed level. Synchronous on its thread: node:zlib's
   * own thread pool took three to four times the CPU for the same bytes (a stream per file, its
   * work handed between threads), which a two-core machine cannot spare.
   */
  deflate: (data: Uint8Array): Uint8Array => deflateRawSync(data, { level: zipDeflateLevel }),
  /** Folder intake: ZIP read, folder checks, plain-site conversion. */
  intake: ({ zip, site }: { zip: Uint8Array; site: SiteOptions }): Intake => intakeZip(zip, site),
  /** A v2 revision's inspection, and the facts of the contents it read (see inspectContents). */
  inspect: (input: InspectInput): { inspection: Inspection; learned: KnownFacts } =>
    inspectContents(input),
  /** The page members of a GET draft answer (`draftPageJson`) of a stored draft. */
  draftPage: (stored: StoredDraft): Uint8Array => draftPageJson(rebuilt(stored)),
  /** A stored draft's page as text to snapshot, or null when that text reads back otherwise. */
  snapshot: (stored: StoredDraft): string | null => {
    const html = rebuilt(stored).html();
    return readsBack(html) ? html : null;
  },
};

export type Tasks = typeof tasks;
export type TaskName = keyof Tasks;
export type TaskInput<T extends TaskName> = Parameters<Tasks[T]>[0];
export type TaskOutput<T extends TaskName> = ReturnType<Tasks[T]>;

/**
 * The ArrayBuffers under the byte arrays in `value` (each once), to move instead of copy: the
 * sender gives them up, and the views are made again on them on the other side (the files of a
 * folder read from a ZIP are views of the ZIP's one buffer: moved once, never copied).
 */
export function buffersIn(value: unknown, into = new Set<ArrayBuffer>()): ArrayBuffer[] {
  if (value instanceof Uint8Array) {
    // Not a slab of Node's pool of small Buffers, which a view shares with its neighbours: the
    // array covers the buffer whole, or the buffer is larger than a slab.
    const { buffer } = value;
    const own = value.byteLength === buffer.byteLength || buffer.byteLength > Buffer.poolSize;
    if (buffer instanceof ArrayBuffer && own) into.add(buffer);
  } else if (value instanceof Map) {
    for (const item of value.values()) buffersIn(item, into);
  } else if (Array.isArray(value)) {
    for (const item of value) buffersIn(item, into);
  } else if (value !== null && typeof value === 'object') {
    for (const item of Object.values(value)) buffersIn(item, into);
  }
  return [...into];
}
