import { REQUEST_KEY_RENEW_SECONDS, sha256Hex } from '@galley/store';
import type { RequestKeyHold, Store, StoreScope } from '@galley/store';
import type { Request, Response } from 'express';
import { HttpProblem, PROBLEM_CONTENT_TYPE } from '../../http/problem.js';
import { v2ProblemOf } from '../problems.js';

/** What a write answers: kept as the first answer of its request key, and replayed. */
export interface Answer {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
}

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
export function fingerprintOf(req: Request, body: unknown): string {
  const path = `${req.baseUrl}${req.path}`;
  return sha256Hex(`${req.method} ${path}\n${canonicalJson(body)}`);
}

export function sendAnswer(res: Response, answer: Answer): void {
  res.status(answer.status);
  for (const [name, value] of Object.entries(answer.headers ?? {})) res.setHeader(name, value);
  if (answer.body === undefined) {
    res.end();
    return;
  }
  res
    .type(answer.status >= 400 ? PROBLEM_CONTENT_TYPE : 'application/json')
    .send(JSON.stringify(answer.body));
}

function problemAnswer(p: HttpProblem): Answer {
  return { status: p.status, headers: p.headers, body: p.toBody() };
}

/**
 * A write's answer, stored as its key's first answer in the write's own transaction. Only
 * `Commit` makes one (the class itself is not exported), so a write cannot answer without it.
 */
class Committed {
  readonly answer: Answer;

  constructor(answer: Answer) {
    this.answer = answer;
  }
}
export type { Committed };

/**
 * Runs `write` in one transaction with the storing of its answer: a crash leaves both or
 * neither. `write` writes through `tx` only and builds its answer there.
 */
export type Commit = (write: (tx: StoreScope) => Promise<Answer>) => Promise<Committed>;

/** How the running request of a key renews its claim (`renewEveryMs`: for tests). */
export interface IdempotencyOptions {
  renewEveryMs?: number;
  /** Called once with each write's first successful answer (never with a replay). */
  onWritten?: (req: Request, accountNumber: number, answer: Answer) => void;
}

/**
 * `request_key` on writes (decisions §6): per account, 7 days, compared by fingerprint. A
 * different body is `request_key_reused` (checked first); a key whose first request still runs,
 * in this process or another, is `request_in_progress`; otherwise the first answer is replayed.
 *
 * "Still runs" is a lease on the claim, renewed while the request runs: a request whose process
 * died (killed, or cut off from the database) stops renewing, and once its lease has ended a
 * resend of the same request takes the claim over and runs it (nothing runs it any more, and it
 * left no answer to replay). A write stores its answer in its own transaction (`Commit`), so a
 * write that committed always has its answer, and a request that lost its claim commits nothing.
 */
export class Idempotency {
  readonly #store: Store;
  readonly #renewEveryMs: number;
  readonly #onWritten: IdempotencyOptions['onWritten'];
  /** The fingerprints of the requests running in this process, by `account:key`. */
  readonly #running = new Map<string, string>();

  constructor(store: Store, options: IdempotencyOptions = {}) {
    this.#store = store;
    this.#renewEveryMs = options.renewEveryMs ?? REQUEST_KEY_RENEW_SECONDS * 1000;
    this.#onWritten = options.onWritten;
  }

  async run(
    req: Request,
    res: Response,
    input: { accountNumber: number; key: string; body: unknown },
    work: (commit: Commit) => Promise<Committed>,
  ): Promise<void> {
    const { accountNumber, key } = input;
    const fingerprint = fingerprintOf(req, input.body);
    const id = `${accountNumber}:${key}`;
    const running = this.#running.get(id);
    if (running !== undefined) throw running === fingerprint ? inProgress() : reused();
    this.#running.set(id, fingerprint);
    let lease: Lease | undefined;
    try {
      const claim = await this.#store.requestKeys.claim({ accountNumber, key, fingerprint });
      if (!claim.ok) {
        if (claim.record.fingerprint !== fingerprint) throw reused();
        if (claim.record.state === 'running') throw inProgress();
        sendAnswer(res, claim.record.answer);
        return;
      }
      const hold = { accountNumber, key, token: claim.token };
      lease = new Lease(this.#store, hold, this.#renewEveryMs);
      const answer = await this.#answerOf(hold, work);
      if (answer.status < 300) this.#onWritten?.(req, accountNumber, answer);
      sendAnswer(res, answer);
    } finally {
      await lease?.stop();
      this.#running.delete(id);
    }
  }

  /**
   * Replays the first answer of a key when its request is resent after the asset it acted on
   * is gone (a permanent deletion): true when it did.
   */
  async replay(
    req: Request,
    res: Response,
    input: { accountNumber: number; key: string; body: unknown },
  ): Promise<boolean> {
    const record = await this.#store.requestKeys.find(input.accountNumber, input.key);
    if (record?.state !== 'done' || record.fingerprint !== fingerprintOf(req, input.body)) {
      return false;
    }
    sendAnswer(res, record.answer);
    return true;
  }

  /**
   * The answer of the work, already stored when it committed. A client error is the first answer
   * too: it was decided before anything was written (or its write rolled back), so it is stored
   * on its own. Anything else frees the key for a retry.
   */
  async #answerOf(
    hold: RequestKeyHold,
    work: (commit: Commit) => Promise<Committed>,
  ): Promise<Answer> {
    try {
      return (await work((write) => this.#commit(hold, write))).answer;
    } catch (error) {
      if (!(error instanceof HttpProblem) || error.status >= 500) {
        await this.#store.requestKeys.abandon(hold);
        throw error;
      }
      const answer = problemAnswer(error);
      await this.#store.requestKeys.complete({ ...hold, answer: storedAnswer(answer) });
      return answer;
    }
  }

  async #commit(
    hold: RequestKeyHold,
    write: (tx: StoreScope) => Promise<Answer>,
  ): Promise<Committed> {
    const answer = await this.#store.transaction(async (tx) => {
      // The claim first: one taken over (this request outlived its lease) writes nothing, and
      // from here no resend can take it over until this commits (the row is this
      // transaction's: locked on PostgreSQL, and SQLite runs one writer at a time).
      if (!(await tx.requestKeys.renew(hold))) throw takenOver();
      const answer = await write(tx);
      if (!(await tx.requestKeys.complete({ ...hold, answer: storedAnswer(answer) }))) {
        throw takenOver();
      }
      return answer;
    });
    return new Committed(answer);
  }
}

function storedAnswer(answer: Answer) {
  return { status: answer.status, headers: answer.headers ?? {}, body: answer.body };
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
