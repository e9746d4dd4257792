import type { Logger, ServerEvents } from '@org/protocol';
import { z } from 'zod';
import { WebhooksOptionError } from './errors.js';
import { defaultRetryPolicy, type RetryPolicy } from './retry-policy.js';
import type { DeliveryObserver } from './target-queue.js';
import { webhookEventNames } from './webhook-event.js';
import type { WebhookConfig } from './webhook-target.js';

/**
 * An app whose events are sent; only `id`, `key`, `secret`, `webhooks` and the batch keys are read (other
 * keys are ignored), in the snake_case of Pusher-style config files so a host can pass its app config as is.
 */
export interface WebhookApp {
  id: string;
  key: string;
  /** Signs every body (`X-Pusher-Signature`). */
  secret: string;
  webhooks: readonly WebhookConfig[];
  /**
   * Pusher's "batch webhooks": a request carries the events of `batch_webhooks_window_ms` (up to
   * `maxBatchEvents`). Default false: one event per request, Pusher's default format.
   */
  batch_webhooks?: boolean | undefined;
  /** With `batch_webhooks`: how long events are collected into one request, in ms. Default `batchWindowMs`. */
  batch_webhooks_window_ms?: number | undefined;
}

export interface WebhooksOptions {
  /** The engine's events: `RealtimeServer.events` from `@org/protocol`. */
  events: ServerEvents;
  apps: readonly WebhookApp[];
  /** Default: silent. */
  logger?: Logger | undefined;
  /** Told about every delivery, failed attempt and dropped batch (metrics). */
  observer?: DeliveryObserver | undefined;
  /** How long `member_removed` / `channel_vacated` wait for a re-join that cancels them, in ms. Default 3,000. */
  debounceMs?: number | undefined;
  /** For apps with `batch_webhooks` and no `batch_webhooks_window_ms`: events are collected this long, in ms. Default 50. */
  batchWindowMs?: number | undefined;
  /** For apps with `batch_webhooks`: events per request at most. Default 100. */
  maxBatchEvents?: number | undefined;
  /** Per webhook without its own `max_concurrent_requests`: requests in flight at once. Default 1 (in order). */
  maxConcurrentRequests?: number | undefined;
  /** Per webhook without its own `max_queue_bytes`. Default 4 MiB. */
  maxQueueBytes?: number | undefined;
  /** One attempt's time limit, in ms. Default 10,000. */
  timeoutMs?: number | undefined;
  retry?: Partial<RetryPolicy> | undefined;
  /** Returns [0, 1): the retry jitter, replaceable in tests. Default `Math.random`. */
  random?: (() => number) | undefined;
}

/** The defaults of `createWebhooks`, written once here. */
export const webhookDefaults = {
  debounceMs: 3_000,
  batchWindowMs: 50,
  maxBatchEvents: 100,
  /** One at a time: events arrive in the order they happened, even across retries. */
  maxConcurrentRequests: 1,
  /** Minutes of a busy app's webhooks, and a bound on what a dead receiver costs in memory. */
  maxQueueBytes: 4 * 1024 * 1024,
  timeoutMs: 10_000,
} as const;

/** The smallest `max_queue_bytes` / `maxQueueBytes`: one ordinary request must fit. */
const minQueueBytes = 1_024;

/** The most requests one webhook may have in flight (`max_concurrent_requests`). */
export const maxConcurrentRequestsPerWebhook = 16;
const concurrentRequests = z.number().int().min(1).max(maxConcurrentRequestsPerWebhook);

/** The longest batch window an app may ask for: a minute (a held event is late for Pusher's receivers past it). */
const maxBatchWindowMs = 60_000;
const batchWindow = z.number().int().min(0).max(maxBatchWindowMs);

/**
 * An app's webhook keys besides `webhooks`, as zod schema fields, for hosts that validate their app
 * config with zod 4 (the `@org/realtime-server` daemon spreads them into its app schema). The
 * defaults are written here once.
 */
export const webhookAppFields = {
  batch_webhooks: z.boolean().default(false),
  batch_webhooks_window_ms: batchWindow.default(webhookDefaults.batchWindowMs),
};

/**
 * A webhook entry as a zod schema, for hosts that validate their config file
 * with zod and want the same rules (and messages) for it. Strict: an unknown
 * key is an error, so a typo does not silently send everything.
 */
export const webhookConfigSchema = z.strictObject({
  url: z.url(),
  event_types: z.array(z.enum(webhookEventNames)).optional(),
  filter: z.strictObject({ channel_name_starts_with: z.string().optional(), channel_name_ends_with: z.string().optional() }).optional(),
  headers: z.record(z.string(), z.string()).optional(),
  max_queue_bytes: z.number().int().min(minQueueBytes).optional(),
  max_concurrent_requests: concurrentRequests.optional(),
});

/** The longest delay a Node.js timer keeps (a longer one fires at once). */
const maxTimerMs = 2_147_483_647;
const timerMs = z.number().min(0).max(maxTimerMs);

const looksLikeEvents = (value: unknown): boolean => typeof value === 'object' && value !== null && typeof (value as Partial<ServerEvents>).on === 'function';
const looksLikeLogger = (value: unknown): boolean =>
  typeof value === 'object' && value !== null && ['debug', 'info', 'warn', 'error'].every((level) => typeof (value as Record<string, unknown>)[level] === 'function');
const looksLikeObserver = (value: unknown): boolean =>
  typeof value === 'object' && value !== null && ['delivered', 'failed', 'dropped'].every((method) => typeof (value as Record<string, unknown>)[method] === 'function');

const optionsSchema = z.object({
  events: z.custom<ServerEvents>(looksLikeEvents, { error: 'must be the engine\'s ServerEvents (RealtimeServer.events from @org/protocol)' }),
  apps: z.array(
    z.object({
      id: z.string().min(1),
      key: z.string().min(1),
      secret: z.string().min(1),
      webhooks: z.array(webhookConfigSchema),
      batch_webhooks: z.boolean().optional(),
      batch_webhooks_window_ms: batchWindow.optional(),
    }),
  ),
  logger: z.custom<Logger>(looksLikeLogger, { error: 'must have debug, info, warn and error methods' }).optional(),
  observer: z.custom<DeliveryObserver>(looksLikeObserver, { error: 'must have delivered, failed and dropped methods' }).optional(),
  debounceMs: timerMs.optional(),
  batchWindowMs: timerMs.optional(),
  maxBatchEvents: z.number().int().positive().optional(),
  maxConcurrentRequests: concurrentRequests.optional(),
  maxQueueBytes: z.number().int().min(minQueueBytes).optional(),
  timeoutMs: timerMs.positive().optional(),
  retry: z
    .strictObject({
      initialDelayMs: timerMs.optional(),
      maxDelayMs: timerMs.optional(),
      factor: z.number().min(1).max(1_000).optional(),
      retryWindowMs: z.number().min(0).finite().optional(),
    })
    .optional(),
  random: z.custom<() => number>((value) => typeof value === 'function', { error: 'must be a function returning [0, 1)' }).optional(),
});

/** Options with every default filled in. */
export interface ResolvedWebhooksOptions {
  events: ServerEvents;
  apps: readonly WebhookApp[];
  logger: Logger | undefined;
  observer: DeliveryObserver | undefined;
  debounceMs: number;
  batchWindowMs: number;
  maxBatchEvents: number;
  maxConcurrentRequests: number;
  maxQueueBytes: number;
  timeoutMs: number;
  retry: RetryPolicy;
  random: (() => number) | undefined;
}

/** Validates the options once; throws `WebhooksOptionError` (`INVALID_OPTION`) naming every bad key. */
export function resolveWebhooksOptions(options: WebhooksOptions): ResolvedWebhooksOptions {
  const parsed = optionsSchema.safeParse(options);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => (issue.path.length ? `${issue.path.map(String).join('.')}: ${issue.message}` : 'options must be an object'));
    throw new WebhooksOptionError(`@org/webhooks: invalid options: ${problems.join('; ')}`);
  }
  const { data } = parsed;
  const retry: RetryPolicy = { ...defaultRetryPolicy };
  for (const [key, value] of Object.entries(data.retry ?? {})) if (value !== undefined) retry[key as keyof RetryPolicy] = value;
  return {
    events: data.events,
    // The caller's objects, not zod's copies: the app list may be large and is only read.
    apps: options.apps,
    logger: data.logger,
    observer: data.observer,
    debounceMs: data.debounceMs ?? webhookDefaults.debounceMs,
    batchWindowMs: data.batchWindowMs ?? webhookDefaults.batchWindowMs,
    maxBatchEvents: data.maxBatchEvents ?? webhookDefaults.maxBatchEvents,
    maxConcurrentRequests: data.maxConcurrentRequests ?? webhookDefaults.maxConcurrentRequests,
    maxQueueBytes: data.maxQueueBytes ?? webhookDefaults.maxQueueBytes,
    timeoutMs: data.timeoutMs ?? webhookDefaults.timeoutMs,
    retry,
    random: data.random,
  };
}
