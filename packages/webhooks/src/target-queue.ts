import { signWebhook, type Logger } from '@org/protocol';
import type { Dispatcher } from 'undici';
import { WebhookDeliveryError, type WebhookFailureCode } from './errors.js';
import { postWebhook, type WebhookRequest } from './post-webhook.js';
import { nextAttemptAt, type RetryPolicy } from './retry-policy.js';
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
  /**
   * Bytes of the requests waiting behind the one being delivered (bodies,
   * headers and a fixed allowance each); beyond it the oldest are dropped.
   */
  maxQueueBytes: number;
  observer: DeliveryObserver;
  log: Logger;
  random?: () => number;
}

interface Batch {
  request: WebhookRequest;
  events: number;
  /** What this batch costs while it waits: see `batchBytes`. */
  bytes: number;
  failures: number;
  firstAttemptAt: number | undefined;
}

/** Per waiting request, beyond body and headers: the batch and request objects themselves. */
const batchOverheadBytes = 256;

function batchBytes(request: WebhookRequest): number {
  let bytes = batchOverheadBytes + Buffer.byteLength(request.body);
  for (const name in request.headers) bytes += name.length + request.headers[name]!.length;
  return bytes;
}

/**
 * A stretch of trouble for one webhook: from its first failed attempt or
 * dropped batch until a delivery succeeds with nothing left waiting. Its
 * failures and drops are logged once each, then only counted, so a receiver
 * down for an hour costs a handful of log lines, not one per batch.
 */
interface Outage {
  since: number;
  failedAttempts: number;
  droppedEvents: number;
  failureLogged: boolean;
  dropLogged: boolean;
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
  #queueBytes = 0;
  #current: Batch | undefined;
  #outage: Outage | undefined;
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

  /** Bytes of the batches waiting behind the one being delivered; never above `maxQueueBytes`. */
  get queuedBytes(): number {
    return this.#queueBytes;
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
    this.#queueBytes = 0;
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
      'X-Pusher-Signature': signWebhook(app.secret, body),
    };
    const request = { url: target.url, body, headers };
    this.#enqueue({ request, events: events.length, bytes: batchBytes(request), failures: 0, firstAttemptAt: undefined });
  }

  #enqueue(batch: Batch): void {
    this.#queue.push(batch);
    this.#queueBytes += batch.bytes;
    // An idle target takes the batch at once; only what then still waits is bounded.
    this.#pump();
    if (this.#queueBytes <= this.#options.maxQueueBytes) return;
    // The batch being delivered stays: dropping it would restart the backoff with the next one at once.
    let events = 0;
    while (this.#queueBytes > this.#options.maxQueueBytes && this.#queue.length > 0) {
      const oldest = this.#queue.shift()!;
      this.#queueBytes -= oldest.bytes;
      events += oldest.events;
    }
    this.#dropped('queue_full', events);
  }

  #pump(): void {
    if (this.#current) return;
    const next = this.#queue.shift();
    if (!next) {
      if (this.idle) this.#idle?.();
      return;
    }
    this.#queueBytes -= next.bytes;
    this.#current = next;
    void this.#attempt(next);
  }

  /** Counts a drop while delivering (queue over its bound, or retries expired); logged once per outage. */
  #dropped(reason: 'queue_full' | 'expired', events: number): void {
    const { app, target, observer, log, maxQueueBytes } = this.#options;
    observer.dropped(app.id, reason, events);
    const outage = this.#startOutage();
    outage.droppedEvents += events;
    if (outage.dropLogged) return;
    outage.dropLogged = true;
    log.warn(
      { app: app.id, target: target.logName, reason, events, maxQueueBytes },
      reason === 'queue_full'
        ? 'webhook queue over max_queue_bytes: dropping the oldest events until the receiver catches up (logged once; counted in realtime_webhook_events_dropped_total)'
        : 'webhook retries exhausted: dropping events until the receiver recovers (logged once; counted in realtime_webhook_events_dropped_total)',
    );
  }

  #startOutage(): Outage {
    this.#outage ??= { since: Date.now(), failedAttempts: 0, droppedEvents: 0, failureLogged: false, dropLogged: false };
    return this.#outage;
  }

  async #attempt(batch: Batch): Promise<void> {
    const { app, target, observer, log } = this.#options;
    const now = Date.now();
    batch.firstAttemptAt ??= now;
    try {
      await postWebhook(this.#options.dispatcher, batch.request, this.#options.timeoutMs, this.#abort.signal);
      observer.delivered(app.id, batch.events);
      log.debug({ app: app.id, target: target.logName, events: batch.events, attempts: batch.failures + 1 }, 'webhook delivered');
      // Caught up: the next failure or drop is a new outage, and is logged again.
      const outage = this.#outage;
      if (outage && this.#queue.length === 0) {
        this.#outage = undefined;
        log.info(
          { app: app.id, target: target.logName, failedAttempts: outage.failedAttempts, droppedEvents: outage.droppedEvents, outageMs: Date.now() - outage.since },
          'webhook receiver recovered',
        );
      }
    } catch (error) {
      const failure = error instanceof WebhookDeliveryError ? error : new WebhookDeliveryError('NETWORK', String(error));
      if (failure.code === 'ABORTED') return this.#finish('shutdown');
      batch.failures++;
      observer.failed(app.id, failure.code);
      const outage = this.#startOutage();
      outage.failedAttempts++;
      const at = nextAttemptAt(this.#options.retry, batch.firstAttemptAt, batch.failures, Date.now(), this.#options.random);
      if (at === undefined) return this.#finish('expired');
      if (this.#deadline !== undefined && at > this.#deadline) return this.#finish('shutdown');
      const fields = { app: app.id, target: target.logName, events: batch.events, attempts: batch.failures, reason: failure.message, retryInMs: Math.round(at - Date.now()) };
      // The first failure of an outage is a warning; the rest are counted in realtime_webhook_failures_total.
      if (outage.failureLogged) log.debug(fields, 'webhook delivery failed; will retry');
      else {
        outage.failureLogged = true;
        log.warn(fields, 'webhook delivery failing; retrying with backoff (further failures are logged at debug until it recovers)');
      }
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
    if (batch && dropReason) {
      // Shutdown drops are logged once per target by `drain`.
      if (dropReason === 'shutdown') this.#options.observer.dropped(this.#options.app.id, dropReason, batch.events);
      else this.#dropped(dropReason, batch.events);
    }
    this.#pump();
  }

  #giveUp(reason: DropReason): void {
    if (!this.#retry) return;
    clearTimeout(this.#retry.timer);
    this.#retry = undefined;
    this.#finish(reason);
  }
}
