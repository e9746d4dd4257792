import type { Logger } from '@org/protocol';
import type { Dispatcher } from 'undici';
import { WebhookDeliveryError, type WebhookFailureCode } from './errors.js';
import { postWebhook, type WebhookRequest } from './post-webhook.js';
import { nextAttemptAt, type RetryPolicy } from './retry-policy.js';
import { webhookSignature } from './signature.js';
import type { WebhookEvent } from './webhook-event.js';
import type { WebhookTarget } from './webhook-target.js';

export type DropReason = 'queue_full' | 'expired' | 'shutdown';

/** What the delivery reports, for metrics. */
export interface DeliveryObserver {
  delivered(appId: string, events: number): void;
  failed(appId: string, code: WebhookFailureCode): void;
  dropped(appId: string, reason: DropReason, events: number): void;
}

export interface TargetQueueOptions {
  app: { id: string; key: string; secret: string };
  target: WebhookTarget;
  dispatcher: Dispatcher;
  timeoutMs: number;
  retry: RetryPolicy;
  /** Events of one batch are collected this long before they are sent together. */
  batchWindowMs: number;
  maxBatchEvents: number;
  /** Batches waiting behind the one being delivered; beyond it the oldest is dropped. */
  maxQueuedBatches: number;
  observer: DeliveryObserver;
  log: Logger;
  random?: () => number;
}

interface Batch {
  request: WebhookRequest;
  events: number;
  failures: number;
  firstAttemptAt: number | undefined;
}

/**
 * Delivery to one webhook of one app: batches events briefly, signs each body
 * once, and sends the batches in order, one at a time, retrying the head with
 * backoff. A dead receiver therefore delays only its own webhook.
 */
export class TargetQueue {
  readonly #options: TargetQueueOptions;
  #collecting: WebhookEvent[] = [];
  #collectingSince = 0;
  #batchTimer: ReturnType<typeof setTimeout> | undefined;
  readonly #queue: Batch[] = [];
  #current: Batch | undefined;
  #retry: { timer: ReturnType<typeof setTimeout>; at: number } | undefined;
  readonly #abort = new AbortController();
  #deadline: number | undefined;
  #idle: (() => void) | undefined;

  constructor(options: TargetQueueOptions) {
    this.#options = options;
  }

  get idle(): boolean {
    return this.#collecting.length === 0 && this.#queue.length === 0 && this.#current === undefined;
  }

  add(event: WebhookEvent): void {
    if (this.#collecting.length === 0) {
      this.#collectingSince = Date.now();
      this.#batchTimer = setTimeout(() => this.#seal(), this.#options.batchWindowMs);
      this.#batchTimer.unref?.();
    }
    this.#collecting.push(event);
    if (this.#collecting.length >= this.#options.maxBatchEvents) this.#seal();
  }

  /**
   * Sends what is collected now and delivers until idle or `deadline`; then
   * aborts the attempt in flight and drops the rest (counted and logged).
   */
  async drain(deadline: number): Promise<void> {
    this.#deadline = deadline;
    this.#seal();
    if (this.#retry && this.#retry.at > deadline) this.#giveUp('shutdown');
    if (!this.idle) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.max(0, deadline - Date.now()));
        this.#idle = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
    this.#idle = undefined;
    if (this.idle) return;
    if (this.#retry) this.#giveUp('shutdown');
    this.#abort.abort();
    const left = this.#queue.splice(0);
    const events = left.reduce((sum, batch) => sum + batch.events, 0);
    if (events > 0) {
      this.#options.observer.dropped(this.#options.app.id, 'shutdown', events);
      this.#options.log.warn({ app: this.#options.app.id, target: this.#options.target.logName, events }, 'webhook events dropped at shutdown');
    }
  }

  #seal(): void {
    if (this.#batchTimer) clearTimeout(this.#batchTimer);
    this.#batchTimer = undefined;
    if (this.#collecting.length === 0) return;
    const events = this.#collecting;
    this.#collecting = [];
    const { app, target } = this.#options;
    // Serialised once: these exact bytes are signed and sent on every attempt.
    const body = JSON.stringify({ time_ms: this.#collectingSince, events });
    const headers = {
      ...target.headers,
      'Content-Type': 'application/json',
      'X-Pusher-Key': app.key,
      'X-Pusher-Signature': webhookSignature(app.secret, body),
    };
    this.#enqueue({ request: { url: target.url, body, headers }, events: events.length, failures: 0, firstAttemptAt: undefined });
  }

  #enqueue(batch: Batch): void {
    if (this.#queue.length >= this.#options.maxQueuedBatches) {
      const oldest = this.#queue.shift()!;
      this.#options.observer.dropped(this.#options.app.id, 'queue_full', oldest.events);
      this.#options.log.warn(
        { app: this.#options.app.id, target: this.#options.target.logName, events: oldest.events, queued: this.#queue.length },
        'webhook queue full: dropped the oldest batch',
      );
    }
    this.#queue.push(batch);
    this.#pump();
  }

  #pump(): void {
    if (this.#current) return;
    const next = this.#queue.shift();
    if (!next) {
      if (this.idle) this.#idle?.();
      return;
    }
    this.#current = next;
    void this.#attempt(next);
  }

  async #attempt(batch: Batch): Promise<void> {
    const { app, target, observer, log } = this.#options;
    const now = Date.now();
    batch.firstAttemptAt ??= now;
    try {
      await postWebhook(this.#options.dispatcher, batch.request, this.#options.timeoutMs, this.#abort.signal);
      observer.delivered(app.id, batch.events);
      log.debug({ app: app.id, target: target.logName, events: batch.events, attempts: batch.failures + 1 }, 'webhook delivered');
    } catch (error) {
      const failure = error instanceof WebhookDeliveryError ? error : new WebhookDeliveryError('NETWORK', String(error));
      if (failure.code === 'ABORTED') return this.#finish('shutdown');
      batch.failures++;
      observer.failed(app.id, failure.code);
      const at = nextAttemptAt(this.#options.retry, batch.firstAttemptAt, batch.failures, Date.now(), this.#options.random);
      const fields = { app: app.id, target: target.logName, events: batch.events, attempts: batch.failures, reason: failure.message };
      if (at === undefined) {
        log.error(fields, 'webhook delivery failed; retry window exhausted, events dropped');
        return this.#finish('expired');
      }
      if (this.#deadline !== undefined && at > this.#deadline) return this.#finish('shutdown');
      log.warn({ ...fields, retryInMs: Math.round(at - Date.now()) }, 'webhook delivery failed; will retry');
      const timer = setTimeout(() => {
        this.#retry = undefined;
        void this.#attempt(batch);
      }, at - Date.now());
      timer.unref?.();
      this.#retry = { timer, at };
      return;
    }
    this.#finish(undefined);
  }

  /** Ends the current batch (delivered, or dropped for `reason`) and moves on. */
  #finish(dropReason: DropReason | undefined): void {
    const batch = this.#current;
    this.#current = undefined;
    if (batch && dropReason) this.#options.observer.dropped(this.#options.app.id, dropReason, batch.events);
    this.#pump();
  }

  #giveUp(reason: DropReason): void {
    if (!this.#retry) return;
    clearTimeout(this.#retry.timer);
    this.#retry = undefined;
    this.#finish(reason);
  }
}
