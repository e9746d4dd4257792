import * as vitest from 'vitest';
import { afterAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { freePort } from '@org/dev-kit';
import { clusterClient, redisClient, testClusterNodes, testRedis, uniquePrefix } from '../test/support/test-redis.js';
import { createRedisStore } from './redis-store.js';
import { runIdempotencyStoreConformance } from './testing/index.js';
import type { IdempotencyStore } from './store.js';

const redis = await testRedis({ tests: 'the @org/idempotency Redis tests' });
if (!redis) console.warn('[idempotency] no Redis (set REDIS_URL or install redis-server): Redis tests skipped outside CI');
afterAll(() => redis?.stop());
const clusterNodes = testClusterNodes();

/** Stores on clients of their own, as separate processes hold them; closing one disconnects its client. */
function storesOn(makeClient: () => Redis | ReturnType<typeof clusterClient>, count: number, windowMs: number, inFlightMs: number): IdempotencyStore[] {
  const keyPrefix = uniquePrefix('idem-test');
  return Array.from({ length: count }, () => {
    const client = makeClient();
    const store = createRedisStore({ client, windowMs, inFlightMs, keyPrefix });
    return {
      ...store,
      close: async () => {
        await store.close();
        client.disconnect();
      },
    };
  });
}

if (redis) runIdempotencyStoreConformance(vitest, 'Redis', { clients: async (count, { windowMs, inFlightMs }) => storesOn(() => redisClient(redis.url), count, windowMs, inFlightMs), modelRuns: 25 });
if (clusterNodes) runIdempotencyStoreConformance(vitest, 'Redis Cluster', { clients: async (count, { windowMs, inFlightMs }) => storesOn(() => clusterClient(clusterNodes), count, windowMs, inFlightMs), modelRuns: 15 });

describe.skipIf(!redis)('the Redis store', () => {
  it('keeps the answer in the claimed key, under the prefix, with the window as its TTL', async () => {
    const client = redisClient(redis!.url);
    const keyPrefix = uniquePrefix('idem-shape');
    const store = createRedisStore({ client, keyPrefix, windowMs: 120_000 });
    const claim = await store.claim('app:1', 'order 42');
    if (claim.status !== 'first') throw new Error('expected first');
    await store.complete(claim.token, { status: 200, body: '{}' });
    const key = `${keyPrefix}:app%3A1:order%2042`;
    expect(await client.keys(`${keyPrefix}:*`)).toEqual([key]);
    expect(await client.get(key)).toBe('done:{"status":200,"body":"{}"}');
    const ttl = await client.pttl(key);
    expect(ttl > 119_000 && ttl <= 120_000).toBe(true);
    client.disconnect();
  });

  it('rejects with UNAVAILABLE within timeoutMs while Redis is away, and does not hold the key when it comes back', async () => {
    const port = await freePort();
    const client = new Redis({ host: '127.0.0.1', port, maxRetriesPerRequest: null, retryStrategy: () => 50 });
    client.on('error', () => {});
    const store = createRedisStore({ client, timeoutMs: 100 });
    const started = Date.now();
    await expect(store.claim('app', 'k')).rejects.toMatchObject({ code: 'UNAVAILABLE' });
    expect(Date.now() - started).toBeLessThan(1_000);
    client.disconnect();
  });

  it('queues nothing in the client while Redis is away: an outage of any length costs no memory per trigger', async () => {
    // The daemon's client retries forever (maxRetriesPerRequest: null), so ioredis keeps every command sent while
    // disconnected in its offline queue until Redis is back: one per keyed trigger, however long the outage.
    const port = await freePort();
    const client = new Redis({ host: '127.0.0.1', port, maxRetriesPerRequest: null, retryStrategy: () => 50 });
    client.on('error', () => {});
    const store = createRedisStore({ client, timeoutMs: 50 });
    const claims = await Promise.allSettled(Array.from({ length: 200 }, (_, n) => store.claim('app', `k${n}`)));
    expect(claims.every((claim) => claim.status === 'rejected' && (claim.reason as { code?: string }).code === 'UNAVAILABLE')).toBe(true);
    expect((client as unknown as { offlineQueue: { length: number } }).offlineQueue.length).toBe(0);
    client.disconnect();
  });

  it('waits for a client still connecting, within timeoutMs, rather than failing the first triggers after a start', async () => {
    const client = new Redis(redis!.url, { lazyConnect: true, maxRetriesPerRequest: null });
    client.on('error', () => {});
    void client.connect().catch(() => {});
    const store = createRedisStore({ client, keyPrefix: uniquePrefix('idem-connecting'), timeoutMs: 2_000 });
    expect((await store.claim('app', 'k')).status).toBe('first');
    client.disconnect();
  });

  it('treats a value it did not write as the store failing, not as an answer', async () => {
    const client = redisClient(redis!.url);
    const keyPrefix = uniquePrefix('idem-foreign');
    await client.set(`${keyPrefix}:app:k`, 'done:not json', 'PX', 10_000);
    await client.set(`${keyPrefix}:app:other`, 'something else', 'PX', 10_000);
    const store = createRedisStore({ client, keyPrefix });
    await expect(store.claim('app', 'k')).rejects.toMatchObject({ code: 'UNAVAILABLE' });
    await expect(store.claim('app', 'other')).rejects.toMatchObject({ code: 'UNAVAILABLE' });
    client.disconnect();
  });
});
