import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { streamZip } from '@galley/core';
import type { ByteStore, RevisionState } from '@galley/store';
import { WeightedLru } from '../../weighted-lru.js';
import type { FolderFiles } from './folder-files.js';

/** A ZIP to answer: what its headers say, and its bytes when they are sent. */
export interface ZipAnswer {
  sha256: string;
  size: number;
  /** The bytes, opened when they are to be sent (not for a 304). */
  body: () => Promise<Readable>;
}

/** Entries read and deflated at once ahead of the one being sent (in the pool, when large). */
const DEFLATE_AHEAD = 4;
/**
 * Bytes of the ZIP written ahead of the client: the next entries are read and deflated while
 * the connection sends the last ones (with Node's 16 KiB the writing waited for every drain, and
 * the connection for every entry's deflate).
 */
const SENT_AHEAD_BYTES = 2 * 1024 * 1024;
/** Digests of this many folders' ZIPs are remembered (a few hundred bytes each). */
const REMEMBERED_DIGESTS = 10_000;

/**
 * The ZIPs the service answers, streamed: a folder's ZIP is written as it is sent, entry by entry
 * (never whole in memory, its first byte after its first entry), and a confirmed version's bytes
 * come straight from the byte store. The headers carry the ZIP's SHA-256 (ETag), so a folder
 * whose ZIP was never written here is written once to learn it; the digest is then remembered
 * by the folder's content digest (equal folders give equal ZIPs), for every later answer.
 */
export class FolderZips {
  readonly #files: FolderFiles;
  readonly #bytes: ByteStore;
  readonly #digests = new WeightedLru<string, { sha256: string; size: number }>(REMEMBERED_DIGESTS);

  constructor(files: FolderFiles, bytes: ByteStore) {
    this.#files = files;
    this.#bytes = bytes;
  }

  /** The deterministic ZIP of a revision's folder. */
  async ofState(state: RevisionState): Promise<ZipAnswer> {
    const pieces = () =>
      streamZip(
        [...state.manifest].map(([path, entry]) => ({
          path,
          content: () => this.#files.file(entry.sha256),
        })),
        { ...this.#files.zipCoding, ahead: DEFLATE_AHEAD },
      );
    let digest = this.#digests.get(state.contentDigest);
    if (!digest) {
      const hash = createHash('sha256');
      let size = 0;
      for await (const piece of pieces()) {
        hash.update(piece);
        size += piece.length;
      }
      digest = { sha256: hash.digest('hex'), size };
      this.#digests.set(state.contentDigest, digest, 1);
    }
    return {
      ...digest,
      body: () =>
        Promise.resolve(
          Readable.from(pieces(), { objectMode: false, highWaterMark: SENT_AHEAD_BYTES }),
        ),
    };
  }

  /** A stored ZIP (a confirmed version's), read from the byte store as it is sent. */
  stored(sha256: string, size: number): ZipAnswer {
    const body = async () => {
      const stream = await this.#bytes.read(sha256);
      if (!stream) throw new Error(`content ${sha256} is missing from the byte store`);
      return stream;
    };
    return { sha256, size, body };
  }
}
