import type { App, RealtimeServer } from '@org/protocol';
import { z } from 'zod';
import { PusherApiError } from './errors.js';
import type { IdempotencyOption } from './idempotency.js';
import type { ResponseInfo } from './response-event.js';

export type RateLimitKind = 'backend_events' | 'read';
/**
 * A rate limiter's answer. `limit` on a refusal says the request alone costs more points than the
 * limit allows in a window: it can never pass, so it is refused without `Retry-After`.
 */
export type RateLimitDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number } | { allowed: false; limit: number };

export interface PusherApiOptions {
  /** The engine whose apps, channels and connections the API serves. */
  server: RealtimeServer;
  /** Largest request body in bytes. Default `10_000`. */
  maxRequestSize?: number;
  /** Deepest nesting of arrays and objects a JSON body may have (the body object is level 1). Default `64`. */
  maxJsonDepth?: number;
  /** Where the routes live, e.g. `/realtime`. Signatures are checked on the path without it. Default `''`. */
  pathPrefix?: string;
  /** Called after every response (metrics: HTTP requests by status), before `http.api.response` is emitted. */
  onResponse?: (info: ResponseInfo) => void;
  /** Called before triggering (points = channels) and before reads (points = 1). */
  rateLimit?: (app: App, kind: RateLimitKind, points: number) => Promise<RateLimitDecision>;
  /**
   * Where `X-Idempotency-Key`s of triggers (`/events`, `/batch_events`) are remembered: a retry with
   * a key is answered like the first request and published once. Without it the header is ignored.
   */
  idempotency?: IdempotencyOption | undefined;
  /** Called with unexpected errors (answered as 500 without details). */
  onError?: (error: unknown, info: { method: string; route: string }) => void;
}

export interface ResolvedOptions {
  server: RealtimeServer;
  maxRequestSize: number;
  maxJsonDepth: number;
  pathPrefix: string;
  onResponse: PusherApiOptions['onResponse'];
  rateLimit: PusherApiOptions['rateLimit'];
  idempotency: IdempotencyOption<unknown> | undefined;
  onError: PusherApiOptions['onError'];
}

const isFunction = (value: unknown) => typeof value === 'function';
const optionalFunction = (key: string) =>
  z.custom<never>(isFunction, { error: `${key} must be a function` }).optional();

/**
 * Options of earlier versions, when the API also served `/up`, `/pusher/health` and `/metrics`:
 * refused by name, so an embedder upgrading learns why the routes are gone instead of getting 404s.
 */
const removed = (key: string) =>
  z.undefined({ error: `${key} is gone: the API serves only its /apps/... routes; answer /up, /pusher/health and /metrics in front of it (see the README)` }).optional();

const looksLikeServer = (value: unknown): boolean => {
  if (typeof value !== 'object' || value === null) return false;
  const server = value as Partial<RealtimeServer>;
  return typeof server.trigger === 'function' && typeof server.apps?.findById === 'function' && typeof server.events?.emit === 'function';
};

const schema = z.object({
  server: z.custom<RealtimeServer>(looksLikeServer, { error: 'server must be a RealtimeServer from @org/protocol' }),
  maxRequestSize: z
    .number({ error: 'maxRequestSize must be a number of bytes' })
    .int({ error: 'maxRequestSize must be an integer number of bytes' })
    .min(1, { error: 'maxRequestSize must be at least 1 byte' })
    .max(64 * 1024 * 1024, { error: 'maxRequestSize must be at most 67108864 bytes (64 MiB)' })
    .default(10_000),
  maxJsonDepth: z
    .number({ error: 'maxJsonDepth must be a number of levels' })
    .int({ error: 'maxJsonDepth must be an integer number of levels' })
    .min(1, { error: 'maxJsonDepth must be at least 1 (the body object itself)' })
    .max(1_000, { error: 'maxJsonDepth must be at most 1000 levels' })
    .default(64),
  pathPrefix: z
    .string({ error: 'pathPrefix must be a string such as "/realtime"' })
    .regex(/^(\/[A-Za-z0-9._~-]+)*$/, { error: 'pathPrefix must be "" or start with "/" and not end with "/", e.g. "/realtime"' })
    .default(''),
  ready: removed('ready'),
  metrics: removed('metrics'),
  onResponse: optionalFunction('onResponse'),
  rateLimit: optionalFunction('rateLimit'),
  idempotency: z
    .custom<never>((value) => typeof value === 'object' && value !== null && ['claim', 'complete', 'release'].every((name) => isFunction((value as Record<string, unknown>)[name])), {
      error: 'idempotency must be a store with claim, complete and release (e.g. createMemoryStore() of @org/idempotency)',
    })
    .optional(),
  onError: optionalFunction('onError'),
});

/** Validates the options once; throws `PusherApiError('INVALID_OPTION')` naming the key. */
export function resolveOptions(options: PusherApiOptions): ResolvedOptions {
  const parsed = schema.safeParse(options);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    if (!issue || issue.path.length === 0) throw new PusherApiError('INVALID_OPTION', '@org/rest-api: options must be an object');
    throw new PusherApiError('INVALID_OPTION', `@org/rest-api: invalid option ${issue.path.join('.')}: ${issue.message}`);
  }
  const { data } = parsed;
  return {
    server: data.server,
    maxRequestSize: data.maxRequestSize,
    maxJsonDepth: data.maxJsonDepth,
    pathPrefix: data.pathPrefix,
    onResponse: options.onResponse,
    rateLimit: options.rateLimit,
    idempotency: options.idempotency,
    onError: options.onError,
  };
}
