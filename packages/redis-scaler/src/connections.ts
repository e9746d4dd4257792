import type { Redis, RedisOptions } from 'ioredis';
import { defineScripts, type ScriptClient } from './scripts.js';

/** Reconnect delays: 100 ms doubling up to 2 s, retried forever. */
const reconnectBackoff = (attempt: number) => Math.min(50 * 2 ** Math.min(attempt, 6), 2_000);

/** A node's own two connections to Redis. */
export interface Connections {
  /** Commands and scripts: no offline queue, so a command runs now or fails at once. */
  commands: ScriptClient;
  /** The bus subscription: queues and resubscribes across reconnects. */
  subscriber: Redis;
}

/**
 * Duplicates the caller's client twice, so the caller's client keeps its options and listeners
 * (and is never closed by the scaler).
 */
export function openConnections(redis: Redis, nodeId: string, commandTimeoutMs: number): Connections {
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
  return { commands, subscriber };
}

/** Read through a function so TypeScript does not narrow a status that changes under us. */
export function isReady(redis: Redis): boolean {
  return redis.status === 'ready';
}

/** QUIT, or a hard disconnect when Redis does not answer in time. */
export async function quit(redis: Redis): Promise<void> {
  if (redis.status === 'end') return;
  if (redis.status !== 'ready') {
    redis.disconnect();
    return;
  }
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, 1_000);
  });
  await Promise.race([redis.quit().then(() => undefined, () => undefined), timeout]);
  clearTimeout(timer);
  redis.disconnect();
}
