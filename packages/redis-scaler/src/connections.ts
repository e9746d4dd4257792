import type { Cluster, ClusterOptions, Redis, RedisOptions } from 'ioredis';
import type { ScalerLogger } from './options.js';
import { createPlainPubSub } from './plain-pubsub.js';
import type { PubSub } from './pubsub.js';
import { isCluster, type RedisClient } from './redis-client.js';
import { reconnectBackoff } from './reconnect-backoff.js';
import { defineScripts, type ScriptClient } from './scripts.js';
import { createShardedPubSub } from './sharded-pubsub.js';

// Kept in a module of their own so that the pub/sub modules can use them without an import cycle.
export { isCluster, isReady, quit, type RedisClient } from './redis-client.js';

const noop = () => {};
const silentLogger: ScalerLogger = { info: noop, warn: noop, error: noop };


/** A node's own two connections to Redis, and the pub/sub over them. */
export interface Connections {
  /**
   * Commands and scripts: no offline queue, so a command runs now or fails at once. On a Cluster
   * this is a `Cluster` used through the same commands (every key of the node's scripts, MULTIs and
   * commands shares one slot, see keys.ts); typed as the `Redis` it behaves like for them.
   */
  commands: ScriptClient;
  /**
   * The subscriber connection(s): queues and resubscribes across reconnects. On a Cluster, a `Cluster`
   * with sharded subscribers, of which the node uses only the events both share (`error`); the
   * subscriptions themselves go through `pubsub`.
   */
  subscriber: Redis;
  /** Plain PUBLISH/SUBSCRIBE on one Redis, sharded SPUBLISH/SSUBSCRIBE on a Cluster. */
  pubsub: PubSub;
  /** True on a Redis Cluster. */
  cluster: boolean;
}

/**
 * Duplicates the caller's client twice, so the caller's client keeps its options and listeners
 * (and is never closed by the scaler).
 */
export function openConnections(redis: RedisClient, nodeId: string, commandTimeoutMs: number, logger: ScalerLogger = silentLogger): Connections {
  if (isCluster(redis)) return openClusterConnections(redis, nodeId, commandTimeoutMs, logger);
  const common: Partial<RedisOptions> = {
    lazyConnect: false,
    keyPrefix: '',
    retryStrategy: reconnectBackoff,
    connectionName: `realtime-scaler:${nodeId}`,
  };
  // No offline queue and no resend: a command either runs now, in order, or
  // fails at once and the node answers from its own state; resync repairs Redis later.
  const commands = defineScripts(
    redis.duplicate({
      ...common,
      enableOfflineQueue: false,
      autoResendUnfulfilledCommands: false,
      maxRetriesPerRequest: 0,
      commandTimeout: commandTimeoutMs,
      // Commands issued in the same tick (a burst of broadcasts) go out in one write.
      enableAutoPipelining: true,
    }),
  );
  const subscriber = redis.duplicate({ ...common, enableOfflineQueue: true, autoResubscribe: true, maxRetriesPerRequest: null });
  return { commands, subscriber, pubsub: createPlainPubSub(commands, subscriber), cluster: false };
}

/**
 * The same two roles on a Redis Cluster. Commands: no offline queue, auto-pipelining, a command
 * timeout on every node connection, masters only. Subscriber: one sharded subscriber connection
 * per master that owns a subscribed topic (`shardedSubscribers`), queued while it reconnects.
 */
function openClusterConnections(cluster: Cluster, nodeId: string, commandTimeoutMs: number, logger: ScalerLogger): Connections {
  // `duplicate` merges options shallowly: the caller's per-node options (credentials, TLS, timeouts) are kept by hand.
  const base = cluster.options.redisOptions ?? {};
  const common: Partial<ClusterOptions> = {
    lazyConnect: false,
    keyPrefix: '',
    scaleReads: 'master',
    clusterRetryStrategy: reconnectBackoff,
  };
  const commands = defineScripts(
    cluster.duplicate(undefined, {
      ...common,
      enableOfflineQueue: false,
      enableAutoPipelining: true,
      shardedSubscribers: false,
      redisOptions: {
        ...base,
        keyPrefix: '',
        connectionName: `realtime-scaler:${nodeId}`,
        commandTimeout: commandTimeoutMs,
        autoResendUnfulfilledCommands: false,
        maxRetriesPerRequest: 0,
      },
    } satisfies Partial<ClusterOptions>) as unknown as Redis,
  );
  const subscriber = cluster.duplicate(undefined, {
    ...common,
    enableOfflineQueue: true,
    enableAutoPipelining: false,
    shardedSubscribers: true,
    redisOptions: { ...base, keyPrefix: '', connectionName: `realtime-scaler-sub:${nodeId}` },
  } satisfies Partial<ClusterOptions>);
  const pubsub = createShardedPubSub(commands as unknown as Cluster, subscriber, { nodeId, logger });
  warnIfNotACluster([commands as unknown as Cluster, subscriber], nodeId, logger);
  return { commands, subscriber: subscriber as unknown as Redis, pubsub, cluster: true };
}

/**
 * A Cluster client pointed at a Redis with cluster mode off fails only with ioredis'
 * "Failed to refresh slots cache", retried forever: one error line that says what is wrong.
 */
function warnIfNotACluster(clusters: Cluster[], nodeId: string, logger: ScalerLogger): void {
  let said = false;
  const check = (error: unknown) => {
    const cause = (error as { lastNodeError?: unknown } | undefined)?.lastNodeError;
    if (said || !(cause instanceof Error) || !/cluster support disabled/i.test(cause.message)) return;
    said = true;
    logger.error(
      { err: cause, node: nodeId },
      'redis cluster: the configured nodes are a Redis with cluster mode off (cluster-enabled no); configure a Redis Cluster\'s nodes, or one server (url) instead of a cluster',
    );
  };
  for (const cluster of clusters) cluster.on('error', check);
}
