import { afterAll, describe, expect, it } from 'vitest';
import { createRateLimits } from './create-rate-limits.js';
import { clusterClient, redisClient, testClusterNodes, testRedis, uniqueKey } from './test-redis.js';

const redis = await testRedis({ tests: 'the @org/rate-limits Redis tests' });
if (!redis) console.warn('[rate-limits] no Redis (set REDIS_URL or install redis-server): Redis tests skipped outside CI');
afterAll(() => redis?.stop());
const clusterNodes = testClusterNodes();

describe.skipIf(!redis)('rate limits in Redis', () => {
  it('share one allowance between limiters on the same Redis, as processes do', async () => {
    const clients = [redisClient(redis!.url), redisClient(redis!.url)];
    // Two processes' limiters: each alone would allow 3; shared, the two together allow 3.
    const [a, b] = clients.map((client) => createRateLimits({ allowances: { default: { read: 3 } }, redis: { client } }));
    await Promise.all([a!.ready(), b!.ready()]);
    const key = uniqueKey('shared');
    const decisions = [];
    for (let i = 0; i < 6; i++) decisions.push(await (i % 2 ? b! : a!).consume(key, 'read', 1));
    expect(decisions.filter((decision) => decision.allowed)).toHaveLength(3);
    // Redis's refusal says how long until its window ends, in whole seconds.
    expect(decisions.at(-1)).toEqual({ allowed: false, retryAfterSeconds: 1 });
    await Promise.all([a!.close(), b!.close()]);
    for (const client of clients) client.disconnect();
  });

  it('counts each key on its own in Redis, listed or not, under keyPrefix and kind', async () => {
    const [client, admin] = [redisClient(redis!.url), redisClient(redis!.url)];
    const keyPrefix = uniqueKey('prefix');
    const limits = createRateLimits({ allowances: { default: { read: 1, write: 2 } }, redis: { client, keyPrefix } });
    await limits.ready();
    expect((await limits.consume('stranger-a', 'read', 1)).allowed).toBe(true);
    expect((await limits.consume('stranger-b', 'read', 1)).allowed).toBe(true); // locally these two would share one counter
    expect((await limits.consume('stranger-b', 'write', 2)).allowed).toBe(true);
    expect((await admin.keys(`${keyPrefix}:*`)).sort()).toEqual([`${keyPrefix}:read:stranger-a`, `${keyPrefix}:read:stranger-b`, `${keyPrefix}:write:stranger-b`]);
    await limits.close();
    client.disconnect();
    admin.disconnect();
  });

  it('refuses a request costing more than the whole allowance with the limit, without asking Redis', async () => {
    const client = redisClient(redis!.url);
    const limits = createRateLimits({ allowances: { default: { backend_events: 3 } }, redis: { client } });
    await limits.ready();
    const key = uniqueKey('over');
    expect(await limits.consume(key, 'backend_events', 4)).toEqual({ allowed: false, limit: 3 });
    expect(await limits.consume(key, 'backend_events', 3)).toEqual({ allowed: true });
    await limits.close();
    client.disconnect();
  });

  it('does not take its own close for an outage', async () => {
    const warnings: string[] = [];
    const client = redisClient(redis!.url);
    const limits = createRateLimits({ allowances: { default: { read: 3 } }, redis: { client }, logger: { info: () => {}, warn: (_, message) => warnings.push(message) } });
    await limits.ready();
    await limits.close();
    client.disconnect();
    await new Promise((resolve) => client.once('end', resolve));
    expect(warnings).toEqual([]);
  });
});

describe.skipIf(!clusterNodes)('rate limits in a Redis Cluster', () => {
  it('share one allowance between limiters on the same cluster', async () => {
    const clients = [clusterClient(clusterNodes!), clusterClient(clusterNodes!)];
    const [a, b] = clients.map((client) => createRateLimits({ allowances: { default: { read: 3 } }, redis: { client } }));
    await Promise.all([a!.ready(), b!.ready()]);
    const key = uniqueKey('cluster');
    const decisions = [];
    for (let i = 0; i < 6; i++) decisions.push((await (i % 2 ? b! : a!).consume(key, 'read', 1)).allowed);
    expect(decisions.filter(Boolean)).toHaveLength(3);
    await Promise.all([a!.close(), b!.close()]);
    for (const client of clients) client.disconnect();
  });
});
