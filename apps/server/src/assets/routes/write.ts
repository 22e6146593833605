import type { AssetRoutes } from '@galley/core';
import type { AssetRecord } from '@galley/store';
import type { Request, Response } from 'express';
import { PROBLEM_CONTENT_TYPE } from '../../http/problem.js';
import type { AssetRouter, HandlerOf } from '../../openapi/api-router.js';
import type { AssetContext } from '../context.js';
import { bodyJson } from '../present.js';
import type { Answer } from '../present.js';
import { refusalOf } from '../problems.js';
import { readableAsset, writableAsset } from '../service/access.js';
import { fingerprintOf } from '../service/run-once.js';
import type { KeyedRequest } from '../service/run-once.js';
import { callerOf } from './caller.js';

/** A write's request key, with the request it stands for: method, path and body (§6). */
export function keyedRequest<B extends { request_key: string }>(
  req: Request,
  accountNumber: number,
  body: B,
): KeyedRequest {
  const fingerprint = fingerprintOf(req.method, `${req.baseUrl}${req.path}`, body);
  return { accountNumber, key: body.request_key, fingerprint };
}

/** Sends a write's answer, first or given again, as it was made. */
export function sendAnswer(res: Response, answer: Answer): void {
  res.status(answer.status);
  for (const [name, value] of Object.entries(answer.headers ?? {})) res.setHeader(name, value);
  const text = bodyJson(answer);
  if (text === undefined) {
    res.end();
    return;
  }
  res.type(answer.status >= 400 ? PROBLEM_CONTENT_TYPE : 'application/json').send(text);
}

/** The writes on an existing asset (see `assetWriteRoute`). */
type AssetWrite =
  | 'renameAsset'
  | 'createRevision'
  | 'eraseContent'
  | 'duplicate'
  | 'copyInto'
  | 'setState'
  | 'deleteAsset';
type InputOf<K extends AssetWrite> = Parameters<HandlerOf<AssetRoutes[K]>>[0];

/** What the service of a write on an existing asset is given. */
export interface WriteOn<K extends AssetWrite> {
  asset: AssetRecord;
  body: Awaited<ReturnType<InputOf<K>['body']>>;
  params: InputOf<K>['params'];
  request: KeyedRequest;
}

/**
 * Registers a write on an existing asset: `write` (a service's operation) runs after the
 * refusals that come before it (see `assetWriteOf`), and its answer is sent as it was made.
 */
export function assetWriteRoute<K extends AssetWrite>(
  api: AssetRouter,
  ctx: AssetContext,
  route: { name: K; access: 'read' | 'write' },
  write: (on: WriteOn<K>) => Promise<Answer>,
): void {
  const handler = async ({ req, res, params, body }: InputOf<K>) => {
    const read = body as () => Promise<WriteOn<K>['body'] & { request_key: string }>;
    const found = await assetWriteOf(ctx, req, res, {
      id: params.id,
      access: route.access,
      body: read,
    });
    if (found) sendAnswer(res, await write({ ...found, params }));
  };
  api.handle(route.name, handler);
}

/**
 * A write on an existing asset, up to its work: refused in the order of decisions §8 with 401,
 * 404, 403 (for `write` access), then the body (400/422); the request key and the work are the
 * service's. A resend after the asset was deleted for good is given its first answer here, and
 * null is returned (answered).
 */
async function assetWriteOf<B extends { request_key: string }>(
  ctx: AssetContext,
  req: Request,
  res: Response,
  input: { id: string; access: 'read' | 'write'; body: () => Promise<B> },
): Promise<{ asset: AssetRecord; body: B; request: KeyedRequest } | null> {
  const { accountNumber, owner } = callerOf(req);
  let asset: AssetRecord;
  try {
    const find = input.access === 'write' ? writableAsset : readableAsset;
    asset = await find(ctx.store, input.id, owner);
  } catch (error) {
    if (refusalOf(error)?.code === 'not_found') {
      const body = await input.body().catch(() => null);
      const replay = body && (await ctx.idempotency.replay(keyedRequest(req, accountNumber, body)));
      if (replay) {
        sendAnswer(res, replay);
        return null;
      }
    }
    throw error;
  }
  const body = await input.body();
  return { asset, body, request: keyedRequest(req, accountNumber, body) };
}
