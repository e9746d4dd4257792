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
  /**
   * Batch webhooks: events are collected for `windowMs` (up to `maxEvents`) and sent in one request.
   * Undefined: one event per request, Pusher's default format.
   */
  batch: { windowMs: number; maxEvents: number } | undefined;
  /** Requests of this webhook in flight at once; 1 delivers in order, each retried before the next is sent. */
  maxConcurrentRequests: number;
  /**
   * Bytes of the requests waiting behind those being delivered (bodies,
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
 * Delivery to one webhook of one app: one event per request (or, with batch
 * webhooks, the events of a short window), each body signed once, sent in
 * order with at most `maxConcurrentRequests` in flight, each retried with
 * backoff while it holds its slot. A dead receiver therefore delays only its
 * own webhook, and a burst of events waits in the bounded queue, not in sockets.
 */
export class TargetQueue {
  readonly #options: TargetQueueOptions;
  #collecting: WebhookEvent[] = [];
  #collectingSince = 0;
  #batchTimer: ReturnType<typeof setTimeout> | undefined;
  readonly #queue: Batch[] = [];
  #queueBytes = 0;
  /** Batches holding a delivery slot: an attempt in flight or a retry pending. */
  readonly #inFlight = new Set<Batch>();
  /** The pending retry of each batch that failed and waits for its backoff. */
  readonly #retries = new Map<Batch, { timer: ReturnType<typeof setTimeout>; at: number }>();
  #outage: Outage | undefined;
  readonly #abort = new AbortController();
  #deadline: number | undefined;
  #idle: (() => void) | undefined;

  constructor(options: TargetQueueOptions) {
    this.#options = options;
  }

  get idle(): boolean {
    return this.#collecting.length === 0 && this.#queue.length === 0 && this.#inFlight.size === 0;
  }

  /** Requests in flight or waiting for their retry; never above `maxConcurrentRequests`. */
  get inFlight(): number {
    return this.#inFlight.size;
  }

  /** Bytes of the batches waiting behind those being delivered; never above `maxQueueBytes`. */
  get queuedBytes(): number {
    return this.#queueBytes;
  }

  add(event: WebhookEvent): void {
    const { batch } = this.#options;
    if (!batch) {
      this.#enqueue(this.#signed(Date.now(), [event]));
      return;
    }
    if (this.#collecting.length === 0) {
      this.#collectingSince = Date.now();
      this.#batchTimer = setTimeout(() => this.#seal(), batch.windowMs);
      this.#batchTimer.unref?.();
    }
    this.#collecting.push(event);
    if (this.#collecting.length >= batch.maxEvents) this.#seal();
  }

  /**
   * Sends what is collected now and delivers until idle or `deadline`; then
   * aborts the attempts in flight and drops the rest (counted and logged).
   */
  async drain(deadline: number): Promise<void> {
    this.#deadline = deadline;
    this.#seal();
    for (const [batch, retry] of this.#retries) if (retry.at > deadline) this.#giveUp(batch);
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
    // The queue is emptied first: the slots freed below must not start what waits.
    const left = this.#queue.splice(0);
    this.#queueBytes = 0;
    for (const batch of [...this.#retries.keys()]) this.#giveUp(batch);
    this.#abort.abort();
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
    this.#enqueue(this.#signed(this.#collectingSince, events));
  }

  /** One request of `events`, serialised and signed once: these exact bytes are sent on every attempt. */
  #signed(timeMs: number, events: WebhookEvent[]): Batch {
    const { app, target } = this.#options;
    const body = JSON.stringify({ time_ms: timeMs, events });
    const headers = {
      ...target.headers,
      'Content-Type': 'application/json',
      'X-Pusher-Key': app.key,
      'X-Pusher-Signature': signWebhook(app.secret, body),
    };
    const request = { url: target.url, body, headers };
    return { request, events: events.length, bytes: batchBytes(request), failures: 0, firstAttemptAt: undefined };
  }

  #enqueue(batch: Batch): void {
    this.#queue.push(batch);
    this.#queueBytes += batch.bytes;
    // A free slot takes the batch at once; only what then still waits is bounded.
    this.#pump();
    if (this.#queueBytes <= this.#options.maxQueueBytes) return;
    // Batches being delivered stay: dropping one would restart the backoff with the next one at once.
    let events = 0;
    while (this.#queueBytes > this.#options.maxQueueBytes && this.#queue.length > 0) {
      const oldest = this.#queue.shift()!;
      this.#queueBytes -= oldest.bytes;
      events += oldest.events;
    }
    this.#dropped('queue_full', events);
  }

  #pump(): void {
    while (this.#inFlight.size < this.#options.maxConcurrentRequests) {
      const next = this.#queue.shift();
      if (!next) break;
      this.#queueBytes -= next.bytes;
      this.#inFlight.add(next);
      void this.#attempt(next);
    }
    if (this.idle) this.#idle?.();
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
      if (outage && this.#queue.length === 0 && this.#retries.size === 0) {
        this.#outage = undefined;
        log.info(
          { app: app.id, target: target.logName, failedAttempts: outage.failedAttempts, droppedEvents: outage.droppedEvents, outageMs: Date.now() - outage.since },
          'webhook receiver recovered',
        );
      }
    } catch (error) {
      const failure = error instanceof WebhookDeliveryError ? error : new WebhookDeliveryError('NETWORK', String(error));
      if (failure.code === 'ABORTED') return this.#finish(batch, 'shutdown');
      batch.failures++;
      observer.failed(app.id, failure.code);
      const outage = this.#startOutage();
      outage.failedAttempts++;
      const at = nextAttemptAt(this.#options.retry, batch.firstAttemptAt, batch.failures, Date.now(), this.#options.random);
      if (at === undefined) return this.#finish(batch, 'expired');
      if (this.#deadline !== undefined && at > this.#deadline) return this.#finish(batch, 'shutdown');
      const fields = { app: app.id, target: target.logName, events: batch.events, attempts: batch.failures, reason: failure.message, retryInMs: Math.round(at - Date.now()) };
      // The first failure of an outage is a warning; the rest are counted in realtime_webhook_failures_total.
      if (outage.failureLogged) log.debug(fields, 'webhook delivery failed; will retry');
      else {
        outage.failureLogged = true;
        log.warn(fields, 'webhook delivery failing; retrying with backoff (further failures are logged at debug until it recovers)');
      }
      const timer = setTimeout(() => {
        this.#retries.delete(batch);
        void this.#attempt(batch);
      }, at - Date.now());
      timer.unref?.();
      this.#retries.set(batch, { timer, at });
      return;
    }
    this.#finish(batch, undefined);
  }

  /** Ends a batch (delivered, or dropped for `reason`), frees its slot and moves on. */
  #finish(batch: Batch, dropReason: DropReason | undefined): void {
    if (!this.#inFlight.delete(batch)) return;
    if (dropReason) {
      // Shutdown drops are logged once per target by `drain`.
      if (dropReason === 'shutdown') this.#options.observer.dropped(this.#options.app.id, dropReason, batch.events);
      else this.#dropped(dropReason, batch.events);
    }
    this.#pump();
  }

  /** Drops a batch waiting for its retry (shutdown). */
  #giveUp(batch: Batch): void {
    const retry = this.#retries.get(batch);
    if (!retry) return;
    clearTimeout(retry.timer);
    this.#retries.delete(batch);
    this.#finish(batch, 'shutdown');
  }
}
