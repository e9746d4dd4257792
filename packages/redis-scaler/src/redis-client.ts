import type { Cluster, Redis } from 'ioredis';

/** What the scaler accepts: one Redis server, or a Redis Cluster (Redis 7+, sharded pub/sub). */
export type RedisClient = Redis | Cluster;

/** Whether a client is an ioredis `Cluster` (checked by its own flag: the caller's ioredis copy may not be ours). */
export function isCluster(redis: RedisClient): redis is Cluster {
  return (redis as { isCluster?: unknown }).isCluster === true;
}

/** Read through a function so TypeScript does not narrow a status that changes under us. */
export function isReady(redis: RedisClient): boolean {
  return redis.status === 'ready';
}

/** QUIT, or a hard disconnect when Redis does not answer in time. */
export async function quit(redis: RedisClient): Promise<void> {
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
