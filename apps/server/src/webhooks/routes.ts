import { events } from '@galley/core';
import type { DeliveryRecord, Store, WebhookRecord } from '@galley/store';
import type { Request } from 'express';
import { z } from 'zod';
import { fieldErrorsOf } from '../http/parse.js';
import { problemOf } from '../http/problem.js';
import type { ApiRouter } from '../openapi/api-router.js';
import type { WebhookDispatcher } from './dispatcher.js';
import { newSecret } from './signing.js';

const WebhookId = z.string().regex(/^whk_[0-9a-z]{20}$/);
const DeliveryId = z.string().regex(/^dlv_[0-9a-z]{20}$/);
/** Deliveries listed at once, newest first. */
const LISTED = 100;

/** Whose webhooks a request is about: an owner's project (v1) or the caller's assets (v2). */
export interface WebhookScope {
  accountNumber: number;
  projectId: string | null;
}

export interface WebhookRouteOptions {
  store: Store;
  /** Sends the deliveries; judges URLs at registration as it judges them at each try. */
  dispatcher: WebhookDispatcher;
  /** `/projects/{id}/webhooks` or `/webhooks`. */
  base: string;
  /** The base's own path parameters. */
  params: z.ZodObject<Record<string, z.ZodType<string>>>;
  /** The scope of a request (throws its refusal: 404, 403); `write` for changes. */
  scopeOf: (req: Request, params: Record<string, string>) => Promise<WebhookScope>;
  /** The event kinds these webhooks may ask for. */
  kinds: readonly events.EventKind[];
  tags: string[];
}

function webhookBody(hook: WebhookRecord) {
  return {
    id: hook.id,
    url: hook.url,
    kinds: hook.kinds as events.EventKind[],
    project_id: hook.projectId,
    created_at: hook.createdAt,
  };
}

function deliveryBody(delivery: DeliveryRecord) {
  return {
    id: delivery.id,
    event_id: String(delivery.eventSeq),
    status: delivery.status,
    attempts: delivery.attempts,
    created_at: delivery.createdAt,
    next_attempt_at: delivery.status === 'pending' ? delivery.nextAttemptAt : null,
    last_attempt_at: delivery.lastAttemptAt,
    last_status: delivery.lastStatus,
    last_response: delivery.lastResponse,
  };
}

const notFound = () => problemOf('not_found', { detail: 'No such webhook.' });

/** Registering, listing and removing webhooks, their deliveries with their last answers, replays. */
export function webhookRoutes(api: ApiRouter, o: WebhookRouteOptions): void {
  const { store, base, tags } = o;
  const One = o.params.extend({ webhook: WebhookId });
  const OneDelivery = One.extend({ delivery: DeliveryId });
  const Create = events.CreateWebhook.extend({
    kinds: z.array(z.enum(o.kinds as [events.EventKind, ...events.EventKind[]])).min(1),
  });
  const hookOf = async (req: Request, params: Record<string, string>) => {
    const scope = await o.scopeOf(req, params);
    const hook = await store.webhooks.find(params.webhook!);
    if (!hook || hook.accountNumber !== scope.accountNumber || hook.projectId !== scope.projectId) {
      throw notFound();
    }
    return hook;
  };
  const refused = { description: 'Not the owner (v1)' };

  api.route(
    {
      method: 'post',
      path: base,
      summary: 'Register a webhook: a URL that receives the chosen events, signed',
      description:
        'The answer shows the signing `secret` once. Deliveries are signed as Standard Webhooks says (`webhook-id`, `webhook-timestamp`, `webhook-signature`), tried again with pauses for about a day, and listed with their last answers. A URL resolving to a loopback, private, link-local or metadata address is refused (422 `webhook_url_refused`), unless the operator allows private addresses.',
      tags,
      params: o.params,
      body: Create,
      responses: {
        201: { description: 'The webhook, with its secret', schema: events.CreatedWebhook },
        403: refused,
        404: { description: 'No such project, or the caller is not a member' },
        422: { description: 'Invalid body (`errors`), or `webhook_url_refused`' },
      },
    },
    async ({ req, res, params, body }) => {
      const scope = await o.scopeOf(req, params);
      const { url, kinds } = await body();
      const why = await o.dispatcher.refusedUrl(new URL(url));
      if (why) {
        throw problemOf('webhook_url_refused', {
          detail: `The URL cannot receive webhooks: ${why}.`,
          extras: { errors: fieldErrorsOf([['url', why]]) },
        });
      }
      const secret = newSecret();
      const hook = await store.webhooks.create({ ...scope, url, kinds, secret: secret.stored });
      res.status(201).json({ ...webhookBody(hook), secret: secret.shown });
    },
  );

  api.route(
    {
      method: 'get',
      path: base,
      summary: 'The webhooks registered here',
      tags,
      params: o.params,
      responses: { 200: { description: 'The webhooks', schema: events.WebhookList }, 403: refused },
    },
    async ({ req, res, params }) => {
      const scope = await o.scopeOf(req, params);
      const where = scope.projectId
        ? { projectId: scope.projectId }
        : { accountNumber: scope.accountNumber };
      res.json({ webhooks: (await store.webhooks.list(where)).map(webhookBody) });
    },
  );

  api.route(
    {
      method: 'delete',
      path: `${base}/{webhook}`,
      summary: 'Remove a webhook (its deliveries stop)',
      tags,
      params: One,
      responses: {
        204: { description: 'Removed' },
        403: refused,
        404: { description: 'No such webhook' },
      },
    },
    async ({ req, res, params }) => {
      const hook = await hookOf(req, params);
      await store.webhooks.delete(hook.id);
      res.status(204).end();
    },
  );

  api.route(
    {
      method: 'get',
      path: `${base}/{webhook}/deliveries`,
      summary: 'The webhook’s latest deliveries, newest first, with their last answers',
      tags,
      params: One,
      responses: {
        200: { description: 'The deliveries', schema: events.DeliveryList },
        403: refused,
        404: { description: 'No such webhook' },
      },
    },
    async ({ req, res, params }) => {
      const hook = await hookOf(req, params);
      res.json({
        deliveries: (await store.webhooks.deliveries(hook.id, LISTED)).map(deliveryBody),
      });
    },
  );

  api.route(
    {
      method: 'post',
      path: `${base}/{webhook}/deliveries/{delivery}/replay`,
      summary: 'Send a delivery’s event again (a new delivery, due now)',
      tags,
      params: OneDelivery,
      responses: {
        202: { description: 'The new delivery', schema: events.Delivery },
        403: refused,
        404: { description: 'No such webhook or delivery, or its event is no longer kept' },
      },
    },
    async ({ req, res, params }) => {
      const hook = await hookOf(req, params);
      const delivery = await store.webhooks.delivery(params.delivery!);
      if (!delivery || delivery.webhookId !== hook.id)
        throw problemOf('not_found', { detail: 'No such delivery.' });
      if (!(await store.events.find(delivery.eventSeq))) {
        throw problemOf('not_found', {
          detail: 'The delivery’s event is no longer kept (7 days).',
        });
      }
      const again = await store.webhooks.replay(delivery);
      o.dispatcher.wake();
      res.status(202).json(deliveryBody(again));
    },
  );
}
