import type { Request, Response } from 'express';
import { HttpProblem } from '../../http/problem.js';
import type { AssetRecord, AssetContext } from '../context.js';
import { callerOf, readableAsset, writableAsset } from '../context.js';
import type { Commit, Committed } from '../service/run-once.js';

export interface Caller {
  accountNumber: number;
  owner: string;
}

/** What the work of a write on an existing asset is given. */
export interface AssetWork<B> {
  /** The asset as read before the work: decide a write on a row read again in `commit`. */
  asset: AssetRecord;
  body: B;
  caller: Caller;
  /** Writes and answers in one transaction with the storing of the answer. */
  commit: Commit;
}

/**
 * A write on an existing asset, refused in the order of decisions §8: 401, 404, 403 (with
 * `access: 'write'`), then the body (400/422), then the request key (409 or a replay), then the
 * work itself. A resend after the asset was deleted for good still replays its first answer.
 */
export async function assetWrite<B extends { request_key: string }>(
  ctx: AssetContext,
  input: {
    req: Request;
    res: Response;
    id: string;
    access: 'read' | 'write';
    body: () => Promise<B>;
  },
  work: (write: AssetWork<B>) => Promise<Committed>,
): Promise<void> {
  const { req, res } = input;
  const caller = callerOf(req);
  let asset: AssetRecord;
  try {
    const find = input.access === 'write' ? writableAsset : readableAsset;
    asset = await find(ctx.store, input.id, caller.owner);
  } catch (error) {
    if (error instanceof HttpProblem && error.status === 404) {
      const body = await input.body().catch(() => null);
      const replay = { accountNumber: caller.accountNumber, key: body?.request_key ?? '', body };
      if (body && (await ctx.idempotency.replay(req, res, replay))) return;
    }
    throw error;
  }
  const body = await input.body();
  await ctx.idempotency.run(
    req,
    res,
    { accountNumber: caller.accountNumber, key: body.request_key, body },
    (commit) => work({ asset, body, caller, commit }),
  );
}
