import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import type { Logger } from '@org/protocol';
import type { Cluster, Redis } from 'ioredis';
import { z } from 'zod';
import { RedisScalerError } from './errors.js';

/** The log lines the scaler writes: one per outage, one per recovery, reaped nodes. */
export type ScalerLogger = Pick<Logger, 'info' | 'warn' | 'error'>;

export interface RedisScalerOptions {
  /**
   * An ioredis client: a `Redis` (one server) or a `Cluster` (Redis Cluster, Redis 7+; build it with
   * `shardedSubscribers: true`). The scaler duplicates it for its own command and subscriber connections
   * and never closes it.
   */
  redis: Redis | Cluster;
  /**
   * Namespace of every key and of the pub/sub channels. Default `'realtime'`. It is the hash tag of every
   * key (`{prefix}:…`), so it may not contain `{` or `}`.
   */
  prefix?: string;
  /** Unique per running node. Default `<hostname>-<pid>-<random>`. */
  nodeId?: string;
  /** How often this node reports itself alive and looks for dead nodes, in ms. Default `2000`. */
  heartbeatIntervalMs?: number;
  /** A node silent for this long is dead and its state is removed, in ms. Default `6000`. */
  nodeTimeoutMs?: number;
  /** A Redis command that takes longer counts as an outage; the call falls back to local state, in ms. Default `1000`. */
  commandTimeoutMs?: number;
  /**
   * Cluster messages published while Redis is unreachable wait in an ordered outbox and go to the other nodes
   * once it is back; older ones are dropped, oldest first. In seconds; 0 disables the outbox. Default `30`.
   */
  outboxMaxSeconds?: number;
  /** The outbox's size bound, in bytes of serialised messages; past it the oldest are dropped. 0 disables the outbox. Default `16777216` (16 MiB). */
  outboxMaxBytes?: number;
  /**
   * Routing `'subscribed'` (what the daemon asks for): how long this node stays subscribed to a channel's
   * topic after its last local subscriber left, in ms, so that churn (a page reload) costs no
   * SUBSCRIBE/UNSUBSCRIBE pair. 0 unsubscribes at once. Default `5000`.
   */
  topicLingerMs?: number;
  /** At most this many topics linger at once; past it the longest-lingering is unsubscribed at once. Default `10000`. */
  maxLingeringTopics?: number;
  /** Where outages, recoveries and reaped nodes are logged. Default: silent. */
  logger?: ScalerLogger;
}

export interface ResolvedOptions {
  redis: Redis | Cluster;
  prefix: string;
  nodeId: string;
  heartbeatIntervalMs: number;
  nodeTimeoutMs: number;
  commandTimeoutMs: number;
  outboxMaxSeconds: number;
  outboxMaxBytes: number;
  topicLingerMs: number;
  maxLingeringTopics: number;
  logger: ScalerLogger;
}

const noop = () => {};
const silent: ScalerLogger = { info: noop, warn: noop, error: noop };

const looksLikeIoredis = (value: unknown): boolean =>
  typeof value === 'object' && value !== null && typeof (value as Partial<Redis>).duplicate === 'function';


const looksLikeLogger = (value: unknown): boolean =>
  typeof value === 'object' &&
  value !== null &&
  ['info', 'warn', 'error'].every((level) => typeof (value as Record<string, unknown>)[level] === 'function');

const milliseconds = (key: string, min: number, max: number, fallback: number) =>
  z
    .number({ error: `${key} must be a number of milliseconds` })
    .int({ error: `${key} must be an integer number of milliseconds` })
    .min(min, { error: `${key} must be at least ${min} ms` })
    .max(max, { error: `${key} must be at most ${max} ms` })
    .default(fallback);

const schema = z
  .object({
    redis: z.custom<Redis | Cluster>(looksLikeIoredis, { error: 'redis must be an ioredis client (new Redis(url) or new Cluster(nodes))' }),
    prefix: z
      .string({ error: 'prefix must be a string such as "realtime"' })
      .min(1, { error: 'prefix must be a non-empty string such as "realtime"' })
      .max(200, { error: 'prefix must be at most 200 characters' })
      .regex(/^[\x21-\x7e]+$/, { error: 'prefix must be printable ASCII without spaces, e.g. "realtime:broadcast"' })
      // Every key is tagged `{prefix}:…` so a Redis Cluster keeps them in one slot; a brace would move the tag.
      .regex(/^[^{}]+$/, { error: 'prefix must not contain { or } (it is the hash tag of every key), e.g. "realtime:broadcast"' })
      .default('realtime'),
    nodeId: z
      .string({ error: 'nodeId must be a string' })
      // `|` separates node and socket ids inside Redis; keep ids printable too.
      .regex(/^[A-Za-z0-9._:@-]{1,100}$/, { error: 'nodeId must be 1 to 100 characters of A-Z a-z 0-9 . _ : @ -' })
      .optional(),
    heartbeatIntervalMs: milliseconds('heartbeatIntervalMs', 50, 60_000, 2_000),
    nodeTimeoutMs: milliseconds('nodeTimeoutMs', 150, 600_000, 6_000),
    commandTimeoutMs: milliseconds('commandTimeoutMs', 10, 60_000, 1_000),
    outboxMaxSeconds: z
      .number({ error: 'outboxMaxSeconds must be a number of seconds' })
      .int({ error: 'outboxMaxSeconds must be a whole number of seconds' })
      .min(0, { error: 'outboxMaxSeconds must be at least 0 (0 disables the outbox)' })
      .max(3_600, { error: 'outboxMaxSeconds must be at most 3600 (one hour)' })
      .default(30),
    outboxMaxBytes: z
      .number({ error: 'outboxMaxBytes must be a number of bytes' })
      .int({ error: 'outboxMaxBytes must be a whole number of bytes' })
      .min(0, { error: 'outboxMaxBytes must be at least 0 (0 disables the outbox)' })
      .max(1_073_741_824, { error: 'outboxMaxBytes must be at most 1073741824 (1 GiB)' })
      .default(16_777_216),
    topicLingerMs: milliseconds('topicLingerMs', 0, 3_600_000, 5_000),
    maxLingeringTopics: z
      .number({ error: 'maxLingeringTopics must be a number of topics' })
      .int({ error: 'maxLingeringTopics must be a whole number of topics' })
      .min(0, { error: 'maxLingeringTopics must be at least 0 (0: no topic lingers)' })
      .max(10_000_000, { error: 'maxLingeringTopics must be at most 10000000' })
      .default(10_000),
    logger: z.custom<ScalerLogger>(looksLikeLogger, { error: 'logger must have info, warn and error functions' }).optional(),
  })
  .refine((options) => options.nodeTimeoutMs >= 2 * options.heartbeatIntervalMs, {
    // One missed beat must not get a live node reaped.
    error: 'nodeTimeoutMs must be at least twice heartbeatIntervalMs',
    path: ['nodeTimeoutMs'],
  });

function defaultNodeId(): string {
  const host = hostname().replace(/[^A-Za-z0-9._-]/g, '').slice(0, 60) || 'node';
  return `${host}-${process.pid}-${randomBytes(4).toString('hex')}`;
}

/** Validates the options once; throws `RedisScalerError('INVALID_OPTION')` naming the key. */
export function resolveOptions(options: RedisScalerOptions): ResolvedOptions {
  const parsed = schema.safeParse(options);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    if (!issue || issue.path.length === 0) throw new RedisScalerError('INVALID_OPTION', '@org/redis-scaler: options must be an object with a redis client');
    throw new RedisScalerError('INVALID_OPTION', `@org/redis-scaler: invalid option ${issue.path.join('.')}: ${issue.message}`);
  }
  const { data } = parsed;
  return {
    redis: data.redis,
    prefix: data.prefix,
    nodeId: data.nodeId ?? defaultNodeId(),
    heartbeatIntervalMs: data.heartbeatIntervalMs,
    nodeTimeoutMs: data.nodeTimeoutMs,
    commandTimeoutMs: data.commandTimeoutMs,
    outboxMaxSeconds: data.outboxMaxSeconds,
    outboxMaxBytes: data.outboxMaxBytes,
    topicLingerMs: data.topicLingerMs,
    maxLingeringTopics: data.maxLingeringTopics,
    logger: options.logger ?? silent,
  };
}
