import type { WebhookRoutes, events } from '@galley/core';
import type { DeliveryRecord, Store, WebhookRecord } from '@galley/store';
import type { Request } from 'express';
import { fieldErrorsOf } from '../http/parse.js';
import { problemOf } from '../http/problem.js';
import type { ApiRouter } from '../openapi/api-router.js';
import type { WebhookDispatcher } from './dispatcher.js';
import { newSecret } from './signing.js';

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
  /** The scope of a request (throws its refusal: 404, 403); `write` for changes. */
  scopeOf: (req: Request, params: Record<string, string>) => Promise<WebhookScope>;
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
export function webhookRoutes(api: ApiRouter<WebhookRoutes>, o: WebhookRouteOptions): void {
  const { store } = o;
  const hookOf = async (req: Request, params: Record<string, string>) => {
    const scope = await o.scopeOf(req, params);
    const hook = await store.webhooks.find(params.webhook!);
    if (!hook || hook.accountNumber !== scope.accountNumber || hook.projectId !== scope.projectId) {
      throw notFound();
    }
    return hook;
  };

  api.handle('createWebhook', async ({ req, res, params, body }) => {
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
  });

  api.handle('listWebhooks', async ({ req, res, params }) => {
    const scope = await o.scopeOf(req, params);
    const where = scope.projectId
      ? { projectId: scope.projectId }
      : { accountNumber: scope.accountNumber };
    res.json({ webhooks: (await store.webhooks.list(where)).map(webhookBody) });
  });

  api.handle('deleteWebhook', async ({ req, res, params }) => {
    const hook = await hookOf(req, params);
    await store.webhooks.delete(hook.id);
    res.status(204).end();
  });

  api.handle('listDeliveries', async ({ req, res, params }) => {
    const hook = await hookOf(req, params);
    res.json({
      deliveries: (await store.webhooks.deliveries(hook.id, LISTED)).map(deliveryBody),
    });
  });

  api.handle('replayDelivery', async ({ req, res, params }) => {
    const hook = await hookOf(req, params);
    const delivery = await store.webhooks.delivery(params.delivery!);
    if (!delivery || delivery.webhookId !== hook.id)
      throw problemOf('not_found', { detail: 'No such delivery.' });
    if (!(await store.events.find(delivery.eventSeq))) {
      throw problemOf('not_found', { detail: 'The delivery’s event is no longer kept (7 days).' });
    }
    const again = await store.webhooks.replay(delivery);
    o.dispatcher.wake();
    res.status(202).json(deliveryBody(again));
  });
}
