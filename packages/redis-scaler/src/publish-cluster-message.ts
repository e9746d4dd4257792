import type { ClusterMessage } from '@org/protocol';
import type { Redis } from 'ioredis';
import { encodeMessage } from './bus-codec.js';
import { createKeys } from './keys.js';

/**
 * Sends one message to every node of a deployment from outside it, e.g. the
 * `restart_server` command. Resolves to the number of nodes that received it
 * (each node listens with exactly one subscriber connection).
 */
export async function publishClusterMessage(redis: Redis, prefix: string, message: ClusterMessage): Promise<number> {
  return redis.publish(createKeys(prefix).bus, encodeMessage(`external:${process.pid}`, message));
}
