import { REQUEST_KEY_RENEW_SECONDS, sha256Hex } from '@galley/store';
import type {
  AssetRecord,
  RequestKeyHold,
  RequestKeyRecord,
  ShownRevision,
  Store,
  StoreScope,
} from '@galley/store';
import { bodyJson, withShownRevision, withoutShownRevision } from '../present.js';
import type { Answer } from '../present.js';
import { refusalAnswer, v2ProblemOf } from '../problems.js';

/** Text written in pieces: joined in bounded runs, so millions of pieces stay cheap. */
class TextSink {
  readonly #runs: string[] = [];
  #pieces: string[] = [];

  write(text: string): void {
    this.#pieces.push(text);
    if (this.#pieces.length >= 4096) this.#flush();
  }

  text(): string {
    this.#flush();
    return this.#runs.join('');
  }

  #flush(): void {
    this.#runs.push(this.#pieces.join(''));
    this.#pieces = [];
  }
}

/** An array or object being written: its members (key null in arrays) and the next one. */
interface OpenValue {
  readonly close: ']' | '}';
  readonly members: ReadonlyArray<readonly [string | null, unknown]>;
  next: number;
}

/**
 * JSON with object keys sorted at every level, so equal bodies give equal text. Iterative (an
 * explicit stack, not recursion), so no nesting depth can overflow the call stack.
 */
export function canonicalJson(value: unknown): string {
  const out = new TextSink();
  const open: OpenValue[] = [];
  let pending: { value: unknown } | null = { value };
  for (;;) {
    if (pending) {
      const v = pending.value;
      pending = null;
      if (Array.isArray(v)) {
        out.write('[');
        open.push({
          close: ']',
          members: v.map((item: unknown) => [null, item] as const),
          next: 0,
        });
      } else if (v !== null && typeof v === 'object') {
        const members = Object.entries(v as Record<string, unknown>)
          .filter(([, member]) => member !== undefined)
          .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
        out.write('{');
        open.push({ close: '}', members, next: 0 });
      } else {
        out.write(JSON.stringify(v) ?? 'null');
      }
    }
    const top = open.at(-1);
    if (!top) return out.text();
    if (top.next === top.members.length) {
      out.write(top.close);
      open.pop();
      continue;
    }
    const [name, member] = top.members[top.next]!;
    if (top.next++ > 0) out.write(',');
    if (name !== null) out.write(`${JSON.stringify(name)}:`);
    pending = { value: member };
  }
}

/** The fingerprint a request key is compared by: method, path and canonical body (§6). */
export function fingerprintOf(method: string, path: string, body: unknown): string {
  return sha256Hex(`${method} ${path}\n${canonicalJson(body)}`);
}

/** A write sent with a request key: whose key, which, and the request it stands for. */
export interface KeyedRequest {
  accountNumber: number;
  key: string;
  fingerprint: string;
}

/** A keyed write on an existing asset: the asset as read before the work, and the body. */
export interface WriteOnAsset<B> {
  request: KeyedRequest;
  asset: AssetRecord;
  body: B;
}

/**
 * A write's answer, stored as its key's first answer in the write's own transaction. Only
 * `Claim.answer` makes one (the class itself is not exported), so a write cannot answer without
 * storing its answer.
 */
class Committed {
  readonly answer: Answer;

  constructor(answer: Answer) {
    this.answer = answer;
  }
}
export type { Committed };

/**
 * The running request's claim of its key, used inside the write's own transaction: `hold` before
 * writing, `answer` last, so a crash leaves both the write and its answer or neither.
 */
class Claim {
  readonly #hold: RequestKeyHold;

  constructor(hold: RequestKeyHold) {
    this.#hold = hold;
  }

  /** Whose write this is (its account announces it). */
  get accountNumber(): number {
    return this.#hold.accountNumber;
  }

  /**
   * A claim taken over (this request outlived its lease) writes nothing; from here no resend can
   * take it over until the transaction ends (its row is the transaction's: locked on PostgreSQL,
   * and SQLite runs one writer at a time).
   */
  async hold(tx: StoreScope): Promise<void> {
    if (!(await tx.requestKeys.renew(this.#hold))) throw takenOver();
  }

  async answer(tx: StoreScope, answer: Answer): Promise<Committed> {
    if (!(await tx.requestKeys.complete({ ...this.#hold, ...storedAnswer(answer) }))) {
      throw takenOver();
    }
    return new Committed(answer);
  }
}
export type { Claim };

/**
 * `request_key` on writes (decisions §6): per account, 7 days, compared by fingerprint. A
 * different request is `request_key_reused` (checked first); a key whose first request still runs,
 * in this process or another, is `request_in_progress`; otherwise the first answer is given again.
 *
 * "Still runs" is a lease on the claim, renewed while the request runs: a request whose process
 * died (killed, or cut off from the database) stops renewing, and once its lease has ended a
 * resend of the same request takes the claim over and runs it (nothing runs it any more, and it
 * left no answer to replay). A write stores its answer in its own transaction (`Claim`), so a
 * write that committed always has its answer, and a request that lost its claim commits nothing.
 */
export class Idempotency {
  readonly #store: Store;
  readonly #renewEveryMs: number;
  /** The fingerprints of the requests running in this process, by `account:key`. */
  readonly #running = new Map<string, string>();

  /** `renewEveryMs`: how often a running request renews its claim (tests shorten it). */
  constructor(store: Store, options: { renewEveryMs?: number } = {}) {
    this.#store = store;
    this.#renewEveryMs = options.renewEveryMs ?? REQUEST_KEY_RENEW_SECONDS * 1000;
  }

  /**
   * The first answer of the request's key: the stored one, or the one `work` commits now (with
   * its claim, see `Claim`). A refusal `work` throws is the first answer too: it was decided
   * before anything was written (or its write rolled back), so it is stored on its own. Anything
   * else frees the key for a retry, and is thrown.
   */
  async runOnce(
    request: KeyedRequest,
    work: (claim: Claim) => Promise<Committed>,
  ): Promise<Answer> {
    const { accountNumber, key, fingerprint } = request;
    const id = `${accountNumber}:${key}`;
    const running = this.#running.get(id);
    if (running !== undefined) throw running === fingerprint ? inProgress() : reused();
    this.#running.set(id, fingerprint);
    let lease: Lease | undefined;
    try {
      const claim = await this.#store.requestKeys.claim(request);
      if (!claim.ok) {
        if (claim.record.fingerprint !== fingerprint) throw reused();
        if (claim.record.state === 'running') throw inProgress();
        return await this.#whole(request, claim.record);
      }
      const hold = { accountNumber, key, token: claim.token };
      lease = new Lease(this.#store, hold, this.#renewEveryMs);
      try {
        return (await work(new Claim(hold))).answer;
      } catch (error) {
        const refused = refusalAnswer(error);
        if (!refused) {
          await this.#store.requestKeys.abandon(hold);
          throw error;
        }
        await this.#store.requestKeys.complete({ ...hold, ...storedAnswer(refused) });
        return refused;
      }
    } finally {
      await lease?.stop();
      this.#running.delete(id);
    }
  }

  /**
   * The first answer of a key whose request is resent after the asset it acted on is gone (a
   * permanent deletion); null when there is none to give.
   */
  async replay(request: KeyedRequest): Promise<Answer | null> {
    const record = await this.#store.requestKeys.find(request.accountNumber, request.key);
    if (record?.state !== 'done' || record.fingerprint !== request.fingerprint) return null;
    return this.#whole(request, record);
  }

  /**
   * A stored first answer, with the files and inspection of the revision it shows put back. An
   * asset deleted for good meanwhile had its answers written out whole first: read again.
   */
  async #whole(
    request: KeyedRequest,
    record: Extract<RequestKeyRecord, { state: 'done' }>,
  ): Promise<Answer> {
    for (let done = record; ;) {
      if (!done.shows) return done.answer;
      const shown = await shownRevision(this.#store, done.shows);
      if (shown) return { ...done.answer, body: withShownRevision(done.answer.body, shown) };
      const again = await this.#store.requestKeys.find(request.accountNumber, request.key);
      if (again?.state !== 'done') throw new Error(`request key ${request.key} left meanwhile`);
      done = again;
    }
  }
}

/**
 * The files and inspection of a revision an answer shows; null once its asset is deleted for
 * good. The files are read first: a revision still there after them means they were all there.
 */
async function shownRevision(scope: StoreScope, shows: ShownRevision) {
  const files = await scope.assets.files(shows.assetId, shows.number);
  const revision = await scope.assets.revision(shows.assetId, shows.number);
  return revision && { files, inspection: revision.inspection };
}

/**
 * Before an asset is deleted for good, in that transaction: the first answers that show one of
 * its revisions are stored whole, so a resend is still given them (the revision will be gone).
 */
export async function writeOutShownAnswers(tx: StoreScope, assetId: string): Promise<void> {
  for (const stored of await tx.requestKeys.showing(assetId)) {
    const shown = await shownRevision(tx, { assetId, number: stored.number });
    if (!shown) throw new Error(`asset ${assetId} has no revision ${stored.number}`);
    const body = withShownRevision(stored.answer.body, shown);
    await tx.requestKeys.writeOut(stored.accountNumber, stored.key, { ...stored.answer, body });
  }
}

/**
 * What `complete` stores of an answer: without the files and inspection of the revision it
 * shows (the revision keeps them), else whole, as the JSON text that is then sent.
 */
function storedAnswer(answer: Answer) {
  const { status, headers = {}, body, shows } = answer;
  if (shows) return { answer: { status, headers, body: withoutShownRevision(body) }, shows };
  const bodyText = bodyJson(answer);
  return {
    answer: { status, headers, body },
    ...(bodyText === undefined ? {} : { bodyJson: bodyText }),
  };
}

/**
 * Renews a claim's lease every `everyMs` while its request runs; one renewal at a time. A failed
 * renewal (the database briefly away) is tried again at the next tick; a claim taken over (this
 * request outlived its lease) is not renewed any more, and its answer will not be stored.
 */
class Lease {
  readonly #store: Store;
  readonly #hold: RequestKeyHold;
  readonly #everyMs: number;
  #timer: NodeJS.Timeout | undefined;
  #renewing: Promise<void> = Promise.resolve();
  #stopped = false;

  constructor(store: Store, hold: RequestKeyHold, everyMs: number) {
    this.#store = store;
    this.#hold = hold;
    this.#everyMs = everyMs;
    this.#schedule();
  }

  /** Stops renewing; resolves once a renewal under way has ended. */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    await this.#renewing;
  }

  #schedule(): void {
    if (this.#stopped) return;
    this.#timer = setTimeout(() => {
      this.#renewing = this.#store.requestKeys.renew(this.#hold).then(
        (held) => {
          if (held) this.#schedule();
        },
        () => this.#schedule(),
      );
    }, this.#everyMs);
    this.#timer.unref();
  }
}

function reused() {
  return v2ProblemOf('request_key_reused', {
    detail: 'This request_key was already used with a different request.',
  });
}

function inProgress() {
  return v2ProblemOf('request_in_progress', {
    detail: 'The first request with this key still runs.',
  });
}

function takenOver() {
  return v2ProblemOf('request_in_progress', {
    detail:
      'This request outlived its claim of the key; a resend runs it now. Nothing was written.',
  });
}
