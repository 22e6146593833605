import type { Request } from 'express';
import busboy from 'busboy';
import type { Readable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { NUL_REASON, validationFailed } from './parse.js';
import type { FieldError } from './parse.js';
import { problemOf } from './problem.js';
import { declaredLength } from './json-body.js';
import { refuseContentEncoding } from './raw-body.js';

export interface MultipartFileInfo {
  field: string;
  filename: string;
  mimeType: string;
}

export interface MultipartOptions {
  /** The one file field read (e.g. `zip`, `file`); any other file part is a 422. */
  fileField: string;
  /** Largest file accepted: 413 `body_too_large` beyond, counted while streaming. */
  maxFileBytes: number;
  maxFields?: number;
  maxFieldBytes?: number;
}

export interface StreamedMultipart<T> {
  file: { info: MultipartFileInfo; result: T } | null;
  /** Text fields by name (without prototype: names come from the request). */
  fields: Record<string, string>;
}

class TooLarge extends Error {}

/** Room for one part's boundary and headers when bounding a whole form's size. */
const PART_HEAD_BYTES = 1024;

const NOT_UTF8_REASON = 'must be UTF-8 text (U+FFFD stands for bytes that are not)';

/**
 * Streams a multipart/form-data body: the file part goes through `onFile` as an async iterable
 * that throws once it passes `maxFileBytes` (so a consumer such as `ByteStore.put` keeps
 * nothing), and text fields are collected. Not multipart or malformed: 400 `invalid_multipart`;
 * a text field given twice, or whose name or value holds U+0000, or an unexpected file: 422.
 */
export async function streamMultipart<T>(
  req: Request,
  options: MultipartOptions,
  onFile: (chunks: AsyncIterable<Uint8Array>, info: MultipartFileInfo) => Promise<T>,
): Promise<StreamedMultipart<T>> {
  refuseContentEncoding(req);
  const maxFields = options.maxFields ?? 32;
  const maxFieldBytes = options.maxFieldBytes ?? 64 * 1024;
  // A declared length no form within the limits can reach is 413 before a byte is read.
  if (
    declaredLength(req) >
    options.maxFileBytes + (maxFields + 8) * (maxFieldBytes + PART_HEAD_BYTES)
  ) {
    throw problemOf('body_too_large', {
      detail: `The file is larger than ${options.maxFileBytes} bytes.`,
    });
  }
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: req.headers,
      // Browsers and fetch send file names as raw UTF-8 (busboy's default reads them as Latin-1).
      defParamCharset: 'utf8',
      limits: {
        fileSize: options.maxFileBytes + 1, // one byte past the limit tells "too large" from "exactly"
        fields: maxFields,
        fieldSize: maxFieldBytes,
        parts: maxFields + 8,
      },
    });
  } catch {
    throw problemOf('invalid_multipart', { detail: 'The body must be multipart/form-data.' });
  }

  const fields = Object.create(null) as Record<string, string>;
  const refusals: FieldError[] = [];
  let file: StreamedMultipart<T>['file'] = null;
  let fileSeen = false;
  let consuming: Promise<void> = Promise.resolve();
  const state: { failure: Error | null } = { failure: null };

  parser.on('field', (name, value, info) => {
    if (info.valueTruncated)
      state.failure ??= problemOf('body_too_large', { detail: `The field ${name} is too long.` });
    if (name === options.fileField) refusals.push([name, 'must be a file part, not text']);
    // busboy decodes bytes that are not UTF-8 (or the part's charset) as U+FFFD: refused, not
    // kept as a changed text. No title needs the replacement character itself.
    else if (value.includes('\uFFFD')) refusals.push([name, NOT_UTF8_REASON]);
    // Text a store keeps must not hold U+0000 (as in JSON bodies, see `unstorableFields`).
    else if (name.includes('\0') || value.includes('\0')) refusals.push([name, NUL_REASON]);
    else if (Object.hasOwn(fields, name)) refusals.push([name, 'given more than once']);
    else fields[name] = value;
  });
  let reading: Readable | null = null;
  let finish: () => void = () => undefined;
  const finished = new Promise<void>((resolve, reject) => {
    finish = resolve;
    parser.on('close', resolve);
    parser.on('error', () =>
      reject(problemOf('invalid_multipart', { detail: 'The multipart body is malformed.' })),
    );
    req.on('error', reject);
    // A client gone mid-file never lets busboy end that file: end it here, so its consumer
    // stops (and removes what it wrote) instead of waiting forever on an open file.
    req.on('close', () => {
      if (!req.complete) reading?.destroy(new Error('the request ended before its body'));
    });
  });
  /**
   * Stops reading at the first overflow: the rest of the body is drained, never parsed (the 413
   * bounds the drain, see discardRest).
   */
  const stopReading = () => {
    req.unpipe(parser);
    req.resume();
    finish();
  };
  parser.on('file', (name, stream, info) => {
    // A body cut short makes busboy fail the file stream too; the parser's error answers it.
    stream.on('error', () => undefined);
    if (name !== options.fileField || fileSeen || state.failure) {
      refusals.push([
        name,
        name === options.fileField ? 'only one file is accepted' : 'unexpected file',
      ]);
      stream.resume();
      return;
    }
    fileSeen = true;
    reading = stream;
    const fileInfo = { field: name, filename: info.filename ?? '', mimeType: info.mimeType };
    consuming = onFile(limited(stream, options.maxFileBytes), fileInfo).then(
      (result) => {
        file = { info: fileInfo, result };
      },
      (error: unknown) => {
        if (error instanceof TooLarge) {
          state.failure ??= problemOf('body_too_large', {
            detail: `The file is larger than ${options.maxFileBytes} bytes.`,
          });
          stopReading();
          return;
        }
        state.failure ??= asError(error);
        stream.resume(); // let the parser reach the end
      },
    );
  });
  for (const limit of ['partsLimit', 'filesLimit', 'fieldsLimit'] as const) {
    parser.on(limit, () => {
      state.failure ??= problemOf('body_too_large', { detail: 'The form has too many parts.' });
    });
  }

  req.pipe(parser);
  try {
    await finished;
  } finally {
    await consuming;
  }
  if (state.failure) throw state.failure;
  if (refusals.length) throw validationFailed(refusals);
  return { file, fields };
}

export interface BufferedFile extends MultipartFileInfo {
  bytes: Uint8Array;
}

/**
 * `streamMultipart` that keeps the file in memory (bounded by `maxFileBytes`), copied into one
 * buffer as its pieces arrive: joining a large file's pieces at its end held the event loop for
 * the whole copy (a 50 MB upload: hundreds of ms, most of it touching freshly allocated memory).
 * The buffer is sized by the declared length of the body (which holds the file), so it grows
 * only for a body sent without one. The bytes are a view of it: the buffer is the request's own.
 */
export async function readMultipart(
  req: Request,
  options: MultipartOptions,
): Promise<{ file: BufferedFile | null; fields: Record<string, string> }> {
  const declared = declaredLength(req);
  const expected = Number.isSafeInteger(declared) ? Math.min(declared, options.maxFileBytes) : 0;
  const { file, fields } = await streamMultipart(req, options, async (chunks) => {
    let buffer = new Uint8Array(Math.max(expected, MIN_FILE_BUFFER));
    let size = 0;
    let handedBack = 0;
    for await (const chunk of chunks) {
      if (size + chunk.byteLength > buffer.byteLength) {
        const grown = new Uint8Array(Math.max(buffer.byteLength * 2, size + chunk.byteLength));
        grown.set(buffer.subarray(0, size));
        buffer = grown;
      }
      buffer.set(chunk, size);
      size += chunk.byteLength;
      // Pieces that arrived together are all handed over in one task (each next() resolves at
      // once): copying megabytes into fresh memory then held the event loop for tens of ms.
      if (size - handedBack >= YIELD_EVERY_BYTES) {
        handedBack = size;
        await nextTurn();
      }
    }
    return buffer.subarray(0, size);
  });
  return { file: file ? { ...file.info, bytes: file.result } : null, fields };
}

/** The first buffer of a file whose body declares no length (it doubles as needed). */
const MIN_FILE_BUFFER = 64 * 1024;
/** Bytes copied between two turns of the event loop: a few ms of copying into fresh memory. */
const YIELD_EVERY_BYTES = 1024 * 1024;

async function* limited(stream: Readable, maxBytes: number): AsyncIterable<Uint8Array> {
  let size = 0;
  for await (const chunk of stream.iterator({ destroyOnReturn: false })) {
    const bytes = chunk as Buffer;
    size += bytes.byteLength;
    if (size > maxBytes) throw new TooLarge();
    yield bytes;
  }
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error('the file consumer failed', { cause: error });
}
