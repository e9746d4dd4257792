import type { Cluster, Redis } from 'ioredis';
import { z } from 'zod';
import { allowancesSchema, counterLayout, type Allowances, type CounterLayout } from './allowances.js';
import type { RateLimitRefusal } from './decision.js';
import { invalidOption, parseOption } from './validate.js';
import { WindowCounters } from './window-counters.js';

/** Where outages of the Redis store and their end are logged; pino loggers satisfy it. */
export interface RateLimitsLogger {
  info(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
}

export interface RedisStoreOptions {
  /**
   * An ioredis client, `Redis` or `Cluster`, of the caller: the limits listen to its `close` and
   * `ready` events, connect it if it was built with `lazyConnect` and not connected yet, and never
   * close it. Attach your own `error` listener (ioredis prints unhandled ones).
   */
  client: Redis | Cluster;
  /** Keys are `${keyPrefix}:${kind}:${key}`. Default `'rate-limits'`. */
  keyPrefix?: string;
  /** A consume Redis does not answer within this counts as an outage: the request is counted locally instead of waiting. In ms; default `1000`. */
  answerTimeoutMs?: number;
  /** How long `ready()` waits for the client's first connection before going on with local limits. In ms; default `2000`. */
  startupWaitMs?: number;
}

export interface RateLimitsOptions<K extends string> {
  /** Points per one-second window, by kind, for each listed key and for every other key. */
  allowances: Allowances<K>;
  /**
   * The memory local limits count in, from `rateLimitCounters(allowances)` of equal allowances, shared
   * with other threads. Default: counters of this limiter's own.
   */
  counters?: SharedArrayBuffer | undefined;
  /** Count in Redis, shared by every process on it; locally while it is unreachable. Default: local only. */
  redis?: RedisStoreOptions | undefined;
  /** Where a Redis outage and its end are logged, once each. Default: silent. */
  logger?: RateLimitsLogger | undefined;
  /** Called with each refusal after it is decided, e.g. to count it in metrics. */
  onRefused?: ((key: string, kind: K, refusal: RateLimitRefusal) => void) | undefined;
}

export interface ResolvedOptions<K extends string> {
  layout: CounterLayout<K>;
  counters: SharedArrayBuffer | undefined;
  redis: Required<RedisStoreOptions> | undefined;
  logger: RateLimitsLogger;
  onRefused: ((key: string, kind: K, refusal: RateLimitRefusal) => void) | undefined;
}

const noop = () => {};
const silent: RateLimitsLogger = { info: noop, warn: noop };

const hasFunctions = (names: readonly string[]) => (value: unknown) =>
  typeof value === 'object' && value !== null && names.every((name) => typeof (value as Record<string, unknown>)[name] === 'function');

const milliseconds = (min: number, max: number, fallback: number) =>
  z
    .number({ error: 'must be a number of milliseconds' })
    .int({ error: 'must be a whole number of milliseconds' })
    .min(min, { error: `must be at least ${min} ms` })
    .max(max, { error: `must be at most ${max} ms` })
    .default(fallback);

const schema = z.object(
  {
    allowances: allowancesSchema,
    counters: z.instanceof(SharedArrayBuffer, { error: 'must be a SharedArrayBuffer from rateLimitCounters(allowances)' }).optional(),
    redis: z
      .object(
        {
          client: z.custom<Redis | Cluster>(hasFunctions(['on', 'off', 'connect']), { error: 'must be an ioredis client (new Redis(url) or new Cluster(nodes))' }),
          keyPrefix: z.string({ error: 'must be a string such as "rate-limits"' }).min(1, { error: 'must be a non-empty string such as "rate-limits"' }).default('rate-limits'),
          answerTimeoutMs: milliseconds(1, 60_000, 1_000),
          startupWaitMs: milliseconds(0, 60_000, 2_000),
        },
        { error: 'must be an object with an ioredis client, e.g. { client: new Redis(url) }' },
      )
      .optional(),
    logger: z.custom<RateLimitsLogger>(hasFunctions(['info', 'warn']), { error: 'must have info and warn functions' }).optional(),
    onRefused: z.custom<() => void>((value) => typeof value === 'function', { error: 'must be a function' }).optional(),
  },
  { error: 'must be an object with allowances, e.g. { allowances: { default: { read: 50 } } }' },
);

/** Validates the options once, when the limits are built; throws `RateLimitsError('INVALID_OPTION')` naming the key. */
export function resolveOptions<K extends string>(options: RateLimitsOptions<K>): ResolvedOptions<K> {
  const data = parseOption(schema, options, '');
  const layout = counterLayout<K>(data.allowances);
  const counters = data.counters;
  if (counters && counters.byteLength !== WindowCounters.bytesFor(layout.slots)) {
    const expected = WindowCounters.bytesFor(layout.slots);
    throw invalidOption('counters', `the shared buffer holds ${counters.byteLength} bytes, ${expected} expected for these allowances (make it with rateLimitCounters of the same allowances)`);
  }
  return {
    layout,
    counters,
    redis: data.redis,
    logger: data.logger ?? silent,
    onRefused: data.onRefused as ResolvedOptions<K>['onRefused'],
  };
}
