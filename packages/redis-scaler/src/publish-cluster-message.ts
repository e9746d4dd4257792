import type { ClusterMessage } from '@org/protocol';
import type { Cluster, Redis } from 'ioredis';
import { encodeMessage } from './bus-codec.js';
import { isCluster } from './connections.js';
import { createKeys } from './keys.js';

/**
 * Sends one message to every node of a deployment from outside it, e.g. the
 * `restart_server` command. Resolves to the number of nodes that received it
 * (each node listens to the bus with exactly one subscriber connection). On a
 * Redis Cluster the bus is a shard channel: SPUBLISH, counted by the master
 * that owns the bus's slot.
 */
export async function publishClusterMessage(redis: Redis | Cluster, prefix: string, message: ClusterMessage): Promise<number> {
  const bus = createKeys(prefix).bus;
  const payload = encodeMessage(`external:${process.pid}`, message);
  return isCluster(redis) ? ((await redis.spublish(bus, payload)) as number) : redis.publish(bus, payload);
}
