import type { Logger, ServerEvents } from '@org/protocol';
import { z } from 'zod';
import { WebhooksOptionError } from './errors.js';
import { defaultRetryPolicy, type RetryPolicy } from './retry-policy.js';
import type { DeliveryObserver } from './target-queue.js';
import { webhookEventNames } from './webhook-event.js';
import type { WebhookConfig } from './webhook-target.js';

/** An app whose events are sent; only `id`, `key`, `secret` and `webhooks` are read (other keys are ignored). */
export interface WebhookApp {
  id: string;
  key: string;
  /** Signs every body (`X-Pusher-Signature`). */
  secret: string;
  webhooks: readonly WebhookConfig[];
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
  /** Events of one request are collected this long, in ms. Default 50. */
  batchWindowMs?: number | undefined;
  /** Events per request at most. Default 100. */
  maxBatchEvents?: number | undefined;
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
  /** Minutes of a busy app's webhooks, and a bound on what a dead receiver costs in memory. */
  maxQueueBytes: 4 * 1024 * 1024,
  timeoutMs: 10_000,
} as const;

/** The smallest `max_queue_bytes` / `maxQueueBytes`: one ordinary request must fit. */
const minQueueBytes = 1_024;

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
    }),
  ),
  logger: z.custom<Logger>(looksLikeLogger, { error: 'must have debug, info, warn and error methods' }).optional(),
  observer: z.custom<DeliveryObserver>(looksLikeObserver, { error: 'must have delivered, failed and dropped methods' }).optional(),
  debounceMs: timerMs.optional(),
  batchWindowMs: timerMs.optional(),
  maxBatchEvents: z.number().int().positive().optional(),
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
    maxQueueBytes: data.maxQueueBytes ?? webhookDefaults.maxQueueBytes,
    timeoutMs: data.timeoutMs ?? webhookDefaults.timeoutMs,
    retry,
    random: data.random,
  };
}
