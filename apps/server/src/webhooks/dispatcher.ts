import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { DeliveryRecord, Store } from '@galley/store';
import ipaddr from 'ipaddr.js';
import type { Logger } from 'pino';
import { eventEnvelope } from '../events/streams.js';
import { allowedAddress, guardedLookup, refusedUrl, systemResolve } from './address-guard.js';
import type { Resolve } from './address-guard.js';
import { signedHeaders } from './signing.js';

/**
 * Pauses before each try again: about a day in all (Standard Webhooks' advice, spread a little
 * wider), after which the delivery has failed.
 */
export const RETRY_DELAYS_MS = [5, 30, 120, 600, 1800, 3600, 7200, 14_400, 28_800, 28_800].map(
  (seconds) => seconds * 1000,
);
/** How long a try may take before it counts as failed (no answer). */
const TIMEOUT_MS = 10_000;
/** How much of an answer is kept to show in the delivery list. */
const KEPT_ANSWER_BYTES = 1024;
/** How often the table is read for due deliveries (a local event also wakes the dispatcher). */
const POLL_MS = 1_000;
/** Deliveries tried at once by one process. */
const BATCH = 8;

export interface DispatcherOptions {
  store: Store;
  logger: Logger;
  allowPrivate: boolean;
  /** How host names are looked up, at registration and at each connection (node:dns). */
  resolve?: Resolve;
  retryDelaysMs?: readonly number[];
  timeoutMs?: number;
  pollMs?: number;
}

interface Outcome {
  status: number | null;
  response: string;
}

/**
 * Sends webhook deliveries: each process claims due rows (a row is tried by one process at a
 * time, see WebhooksRepository.claimDue), posts the signed event, and records the answer; a
 * failure is tried again after the next pause, until the pauses run out.
 */
export class WebhookDispatcher {
  readonly #store: Store;
  readonly #logger: Logger;
  readonly #allowPrivate: boolean;
  readonly #lookup: ReturnType<typeof guardedLookup>;
  readonly #resolve: Resolve;
  readonly #delays: readonly number[];
  readonly #timeoutMs: number;
  readonly #timer: NodeJS.Timeout;
  #running = false;
  #again = false;
  #closed = false;
  #current: Promise<void> = Promise.resolve();

  constructor(options: DispatcherOptions) {
    this.#store = options.store;
    this.#logger = options.logger;
    this.#allowPrivate = options.allowPrivate;
    this.#resolve = options.resolve ?? systemResolve;
    this.#lookup = guardedLookup(options.allowPrivate, this.#resolve);
    this.#delays = options.retryDelaysMs ?? RETRY_DELAYS_MS;
    this.#timeoutMs = options.timeoutMs ?? TIMEOUT_MS;
    this.#timer = setInterval(() => this.wake(), options.pollMs ?? POLL_MS);
    this.#timer.unref();
  }

  /** Looks for due deliveries now (an event was just stored, a delivery replayed). */
  wake(): void {
    if (this.#closed) return;
    if (this.#running) {
      this.#again = true;
      return;
    }
    this.#running = true;
    this.#current = (async () => {
      try {
        do {
          this.#again = false;
          const claimed = await this.#store.webhooks.claimDue(
            BATCH,
            new Date(this.#store.clock.now().getTime() + this.#timeoutMs * 2),
          );
          await Promise.all(claimed.map((delivery) => this.#deliver(delivery)));
          if (claimed.length === BATCH) this.#again = true;
        } while (this.#again && !this.#closed);
      } catch (error) {
        this.#logger.warn({ err: error }, 'webhooks: claiming deliveries failed');
      } finally {
        this.#running = false;
      }
    })();
  }

  /** Why deliveries to `url` would be refused (null: it may be registered); see address-guard.ts. */
  refusedUrl(url: URL): Promise<string | null> {
    return refusedUrl(url, this.#allowPrivate, this.#resolve);
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearInterval(this.#timer);
    await this.#current;
  }

  async #deliver(delivery: DeliveryRecord): Promise<void> {
    try {
      const [hook, event] = await Promise.all([
        this.#store.webhooks.find(delivery.webhookId),
        this.#store.events.find(delivery.eventSeq),
      ]);
      if (!hook || !event) return; // deleted meanwhile (its deliveries go with it)
      const body = JSON.stringify(eventEnvelope(event));
      const headers = signedHeaders({
        secret: hook.secret,
        id: `evt_${event.seq}`,
        // The receiver's clock judges it: the wall clock, whatever the store's clock says.
        timestamp: Math.floor(Date.now() / 1000),
        body,
      });
      const outcome = await this.#post(new URL(hook.url), headers, body);
      const ok = outcome.status !== null && outcome.status >= 200 && outcome.status < 300;
      const delay = this.#delays[delivery.attempts];
      const now = this.#store.clock.now().getTime();
      await this.#store.webhooks.recordAttempt(delivery.id, {
        status: ok ? 'delivered' : delay === undefined ? 'failed' : 'pending',
        nextAttemptAt: new Date(now + (delay ?? 0)),
        lastStatus: outcome.status,
        lastResponse: outcome.response,
      });
    } catch (error) {
      this.#logger.warn({ err: error, delivery: delivery.id }, 'webhooks: a delivery failed');
    }
  }

  /** POSTs `body`; never throws: no answer is a null status with the reason. */
  #post(url: URL, headers: Record<string, string>, body: string): Promise<Outcome> {
    const host = url.hostname.replace(/^\[|\]$/g, '');
    // A literal address is not looked up: it is judged here.
    if (ipaddr.isValid(host) && !allowedAddress(host, this.#allowPrivate)) {
      return Promise.resolve({ status: null, response: `${host} may not be reached by webhooks` });
    }
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise((resolve) => {
      const req = send(
        url,
        {
          method: 'POST',
          headers: {
            ...headers,
            'content-type': 'application/json',
            'user-agent': 'Galley-Webhooks',
          },
          lookup: this.#lookup,
          timeout: this.#timeoutMs,
        },
        (res) => {
          const kept: Buffer[] = [];
          let size = 0;
          res.on('data', (chunk: Buffer) => {
            if (size < KEPT_ANSWER_BYTES) kept.push(chunk);
            size += chunk.length;
          });
          res.on('end', () => {
            const text = Buffer.concat(kept).subarray(0, KEPT_ANSWER_BYTES).toString('utf8');
            resolve({ status: res.statusCode ?? null, response: text });
          });
          res.on('error', (error) =>
            resolve({ status: res.statusCode ?? null, response: error.message }),
          );
        },
      );
      req.on('timeout', () =>
        req.destroy(new Error(`no answer within ${this.#timeoutMs / 1000} s`)),
      );
      req.on('error', (error) => resolve({ status: null, response: error.message }));
      req.end(body);
    });
  }
}
