import { createApp, silentLogger } from '@org/protocol';
import { describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { redisServerInstalled, startRedisServer, testRedisClusterNodes } from '../../test/helpers/redis.js';
import { configSchema } from '../config/schema.js';
import { createRateLimits } from './create-rate-limits.js';

const config = configSchema.parse({
  applications: [
    { id: 'own', key: 'own-key', secret: 'own-secret', max_backend_events_per_second: 3, max_read_requests_per_second: 1 },
    { id: 'defaults', key: 'defaults-key', secret: 'defaults-secret' },
  ],
  rate_limiter: { enabled: true, driver: 'local', max_backend_events_per_second: 2, max_read_requests_per_second: 4 },
});
const appOf = (id: string) => createApp({ id, key: `${id}-key`, secret: `${id}-secret` });

/** How many points of `kind` an app may spend at once before a refusal. */
async function allowance(limits: NonNullable<ReturnType<typeof createRateLimits>>, id: string, kind: 'backend_events' | 'read'): Promise<number> {
  let spent = 0;
  while ((await limits.consume(appOf(id), kind, 1)).allowed) spent++;
  return spent;
}

describe('HTTP API rate limits', () => {
  it('give each app its own allowance, else the limiter default, resolved once when built', async () => {
    const limits = createRateLimits(config, silentLogger)!;
    // Built: later changes to the config object do not reach the limits (they are not looked up per request).
    config.applications[0]!.max_backend_events_per_second = 100;
    config.rate_limiter.max_read_requests_per_second = 100;
    expect(await allowance(limits, 'own', 'backend_events')).toBe(3);
    expect(await allowance(limits, 'own', 'read')).toBe(1);
    expect(await allowance(limits, 'defaults', 'backend_events')).toBe(2);
    expect(await allowance(limits, 'defaults', 'read')).toBe(4);
    await limits.close();
  });

  it('answers a refusal with whole seconds to wait', async () => {
    const limits = createRateLimits(configSchema.parse({ rate_limiter: { enabled: true, max_read_requests_per_second: 1 } }), silentLogger)!;
    expect(await limits.consume(appOf('x'), 'read', 1)).toEqual({ allowed: true });
    expect(await limits.consume(appOf('x'), 'read', 1)).toEqual({ allowed: false, retryAfterSeconds: 1 });
    await limits.close();
  });

  it('refuses a request costing more than the whole allowance with the limit, not a time to wait', async () => {
    const limits = createRateLimits(configSchema.parse({ rate_limiter: { enabled: true, max_backend_events_per_second: 3 } }), silentLogger)!;
    expect(await limits.consume(appOf('x'), 'backend_events', 4)).toEqual({ allowed: false, limit: 3 });
    expect(await limits.consume(appOf('x'), 'backend_events', 3)).toEqual({ allowed: true }); // and it spent nothing
    await limits.close();
  });

  it('is off unless enabled', () => {
    expect(createRateLimits(configSchema.parse({}), silentLogger)).toBeUndefined();
  });

  it('share one allowance across nodes through a Redis Cluster named in the redis section, without cluster_mode', async () => {
    const nodes = await testRedisClusterNodes();
    if (!nodes) return;
    const shared = configSchema.parse({
      redis: { cluster: { nodes } },
      rate_limiter: { enabled: true, driver: 'redis', max_read_requests_per_second: 3 },
    });
    // Two daemons' limiters: each alone would allow 3; shared, the two together allow 3.
    const [a, b] = [createRateLimits(shared, silentLogger)!, createRateLimits(shared, silentLogger)!];
    await Promise.all([a.ready(), b.ready()]);
    const app = appOf(`cluster-${process.pid}-${Date.now()}`);
    const decisions = [];
    for (let i = 0; i < 6; i++) decisions.push((await (i % 2 ? b : a).consume(app, 'read', 1)).allowed);
    expect(decisions.filter(Boolean)).toHaveLength(3);
    await Promise.all([a.close(), b.close()]);
  });
});

describe.skipIf(!redisServerInstalled())('HTTP API rate limits on a Redis that fails without closing its connection', () => {
  const warnings: string[] = [];
  const infos: string[] = [];
  const log = { ...silentLogger, warn: (_: unknown, message: string) => void warnings.push(message), info: (_: unknown, message: string) => void infos.push(message) };
  const redisLimits = (url: string) =>
    createRateLimits(configSchema.parse({ rate_limiter: { enabled: true, driver: 'redis', redis: { url }, max_read_requests_per_second: 2 } }), log as never)!;

  it('does not hold requests on a stalled Redis: counted in memory, the outage logged once, its end seen by one probe', async () => {
    warnings.length = 0;
    infos.length = 0;
    const redis = await startRedisServer();
    const limits = redisLimits(redis.url);
    try {
      await limits.ready();
      expect((await limits.consume(appOf('stalled'), 'read', 1)).allowed).toBe(true);
      process.kill(redis.pid, 'SIGSTOP');
      // Without the bound this waited for as long as Redis slept (the request hung).
      expect((await limits.consume(appOf('stalled'), 'read', 1)).allowed).toBe(true);
      expect(warnings).toEqual(["rate limiter: Redis unreachable, limiting in this process's memory until it is back"]);
      // Meanwhile in memory, without waiting: the window holds 2 (the first point went to Redis).
      expect([await limits.consume(appOf('stalled'), 'read', 1), await limits.consume(appOf('stalled'), 'read', 1)].map((d) => d.allowed)).toEqual([true, false]);
      process.kill(redis.pid, 'SIGCONT');
      await expect.poll(async () => (await limits.consume(appOf('stalled'), 'read', 1), infos), { timeout: 10_000 }).toEqual(['rate limiter: Redis is back, limits are shared again']);
      expect(warnings).toHaveLength(1);
    } finally {
      process.kill(redis.pid, 'SIGCONT');
      await limits.close();
      await redis.kill();
    }
  });

  it('falls back on error answers (a read-only replica) and says so, then returns once Redis accepts writes', async () => {
    warnings.length = 0;
    infos.length = 0;
    const redis = await startRedisServer();
    const admin = new Redis(redis.url, { maxRetriesPerRequest: 0 });
    const limits = redisLimits(redis.url);
    try {
      await limits.ready();
      await admin.replicaof('127.0.0.1', 1); // writes now answer READONLY; the connection stays up
      const decisions = [];
      for (let i = 0; i < 4; i++) decisions.push((await limits.consume(appOf('readonly'), 'read', 1)).allowed);
      expect(decisions).toEqual([true, true, false, false]);
      expect(warnings).toEqual(["rate limiter: Redis unreachable, limiting in this process's memory until it is back"]);
      await admin.replicaof('NO', 'ONE');
      await expect.poll(async () => (await limits.consume(appOf('readonly'), 'read', 1), infos), { timeout: 10_000 }).toEqual(['rate limiter: Redis is back, limits are shared again']);
      expect(warnings).toHaveLength(1);
    } finally {
      admin.disconnect();
      await limits.close();
      await redis.kill();
    }
  });
});
