import type { Cluster, Redis } from 'ioredis';
import { z } from 'zod';
import { IdempotencyError } from './errors.js';

/** The longest window a key may be remembered: a day. */
export const MAX_WINDOW_MS = 86_400_000;
/** The most keys a memory store may hold. */
export const MAX_KEYS = 10_000_000;
/** The most bytes a memory store may be allowed: 16 GiB. */
export const MAX_BYTES = 17_179_869_184;
/** The least bytes a memory store may be allowed. */
export const MIN_BYTES = 1_024;
/** The longest a store call may be waited for. */
export const MAX_TIMEOUT_MS = 60_000;

/** What a store uses when an option is left out (a host's own config can show the same defaults). */
export const idempotencyDefaults = Object.freeze({
  windowMs: 120_000,
  inFlightMs: 30_000,
  maxKeys: 100_000,
  maxBytes: 67_108_864,
  timeoutMs: 1_000,
});

export interface MemoryStoreOptions {
  /** How long a key is remembered from its first claim, in ms. Default 120 000 (2 minutes). */
  windowMs?: number;
  /**
   * How long a claim not yet completed or released holds its key, in ms (at most the window): a
   * request that died midway (its process crashed, or its store call failed) blocks retries with
   * `in-flight` this long, not for the whole window. Default 30 000.
   */
  inFlightMs?: number | undefined;
  /** The most keys held; past it the oldest key is forgotten early (see the README). Default 100 000. */
  maxKeys?: number;
  /**
   * The most bytes of keys and answers held (each entry counts its key, its answer's body and a fixed
   * allowance); past it the oldest keys are forgotten early, as at `maxKeys`. Default 67 108 864 (64 MiB).
   */
  maxBytes?: number;
  /** The clock, in ms; tests pass a fake one. Default `Date.now`. */
  now?: () => number;
}

export interface RedisStoreOptions {
  /** An ioredis client of the caller (`Redis` or `Cluster`); the store never connects or closes it. */
  client: Redis | Cluster;
  /** How long a key is remembered from its first claim, in ms. Default 120 000. */
  windowMs?: number;
  /**
   * How long a claim not yet completed or released holds its key, in ms (at most the window): a
   * request that died midway (its process crashed, or its store call failed) blocks retries with
   * `in-flight` this long, not for the whole window. Default 30 000.
   */
  inFlightMs?: number | undefined;
  /** Keys are `<keyPrefix>:<app id>:<key>`. Default `realtime:idem`. */
  keyPrefix?: string;
  /** How long a call waits for Redis before it rejects with `UNAVAILABLE`, in ms. Default 1 000. */
  timeoutMs?: number;
}

export interface PortStoreOptions {
  /** How long a call waits for the main thread before it rejects with `UNAVAILABLE`, in ms. Default 1 000. */
  timeoutMs?: number;
}

const windowMs = z
  .number({ error: 'windowMs must be a number of milliseconds' })
  .int({ error: 'windowMs must be an integer number of milliseconds' })
  .min(1, { error: 'windowMs must be at least 1 ms' })
  .max(MAX_WINDOW_MS, { error: `windowMs must be at most ${MAX_WINDOW_MS} ms (a day)` })
  .default(idempotencyDefaults.windowMs);
const inFlightMs = z
  .number({ error: 'inFlightMs must be a number of milliseconds' })
  .int({ error: 'inFlightMs must be an integer number of milliseconds' })
  .min(1, { error: 'inFlightMs must be at least 1 ms' })
  .max(MAX_WINDOW_MS, { error: `inFlightMs must be at most ${MAX_WINDOW_MS} ms (a day)` })
  .default(idempotencyDefaults.inFlightMs);
const timeoutMs = z
  .number({ error: 'timeoutMs must be a number of milliseconds' })
  .int({ error: 'timeoutMs must be an integer number of milliseconds' })
  .min(1, { error: 'timeoutMs must be at least 1 ms' })
  .max(MAX_TIMEOUT_MS, { error: `timeoutMs must be at most ${MAX_TIMEOUT_MS} ms` })
  .default(idempotencyDefaults.timeoutMs);

const memorySchema = z.object({
  windowMs,
  inFlightMs,
  maxKeys: z
    .number({ error: 'maxKeys must be a number of keys' })
    .int({ error: 'maxKeys must be an integer number of keys' })
    .min(1, { error: 'maxKeys must be at least 1' })
    .max(MAX_KEYS, { error: `maxKeys must be at most ${MAX_KEYS}` })
    .default(idempotencyDefaults.maxKeys),
  maxBytes: z
    .number({ error: 'maxBytes must be a number of bytes' })
    .int({ error: 'maxBytes must be an integer number of bytes' })
    .min(MIN_BYTES, { error: `maxBytes must be at least ${MIN_BYTES} bytes` })
    .max(MAX_BYTES, { error: `maxBytes must be at most ${MAX_BYTES} bytes (16 GiB)` })
    .default(idempotencyDefaults.maxBytes),
  now: z.custom<() => number>((value) => typeof value === 'function', { error: 'now must be a function returning milliseconds' }).optional(),
});

const looksLikeIoredis = (value: unknown) =>
  typeof value === 'object' && value !== null && ['set', 'eval', 'get'].every((name) => typeof (value as Record<string, unknown>)[name] === 'function');

const redisSchema = z.object({
  client: z.custom<Redis | Cluster>(looksLikeIoredis, { error: 'client must be an ioredis client (new Redis(url) or new Cluster(nodes))' }),
  windowMs,
  inFlightMs,
  keyPrefix: z
    .string({ error: 'keyPrefix must be a string' })
    .min(1, { error: 'keyPrefix must not be empty' })
    .max(100, { error: 'keyPrefix must be at most 100 characters' })
    .default('realtime:idem'),
  timeoutMs,
});

const portSchema = z.object({ timeoutMs });

function parse<T>(schema: z.ZodType<T>, options: unknown, what: string): T {
  const parsed = schema.safeParse(options ?? {});
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const key = issue && issue.path.length > 0 ? ` ${issue.path.join('.')}` : '';
  throw new IdempotencyError('INVALID_OPTION', `@org/idempotency ${what}: invalid option${key}: ${issue?.message ?? 'options must be an object'}`);
}

/** A claim holds its key at most for the window: a longer `inFlightMs` is the window. */
const withLease = <T extends { windowMs: number; inFlightMs: number }>(options: T): T => ({ ...options, inFlightMs: Math.min(options.inFlightMs, options.windowMs) });

export const resolveMemoryOptions = (options: MemoryStoreOptions | undefined) => withLease(parse(memorySchema, options, 'createMemoryStore'));
export const resolveRedisOptions = (options: RedisStoreOptions) => withLease(parse(redisSchema, options, 'createRedisStore'));
export const resolvePortOptions = (options: PortStoreOptions | undefined) => parse(portSchema, options, 'createPortStore');
