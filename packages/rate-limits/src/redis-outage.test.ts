import { Redis } from 'ioredis';
import { freePort } from '@org/dev-kit';
import { describe, expect, it } from 'vitest';
import { createRateLimits } from './create-rate-limits.js';
import { redisClient, redisServerInstalled, startRedisServer } from './test-redis.js';

const warnings: string[] = [];
const infos: string[] = [];
const log = { warn: (_: unknown, message: string) => void warnings.push(message), info: (_: unknown, message: string) => void infos.push(message) };

/** Limits of 2 reads a second in the Redis at `url`; `close` also disconnects the client. */
function redisLimits(url: string, options: { startupWaitMs?: number } = {}) {
  const client = redisClient(url);
  const limits = createRateLimits({ allowances: { default: { read: 2 } }, redis: { client, ...options }, logger: log });
  return { ...limits, close: async () => (await limits.close(), client.disconnect()) };
}

describe.skipIf(!redisServerInstalled())('rate limits on a Redis that fails without closing its connection', () => {
  it('does not hold requests on a stalled Redis: counted in memory, the outage logged once, its end seen by one probe', async () => {
    warnings.length = 0;
    infos.length = 0;
    const redis = await startRedisServer();
    const limits = redisLimits(redis.url);
    try {
      await limits.ready();
      expect((await limits.consume('stalled', 'read', 1)).allowed).toBe(true);
      process.kill(redis.pid, 'SIGSTOP');
      // Without the bound this waited for as long as Redis slept (the request hung).
      expect((await limits.consume('stalled', 'read', 1)).allowed).toBe(true);
      expect(warnings).toEqual(["rate limiter: Redis unreachable, limiting in this process's memory until it is back"]);
      // Meanwhile in memory, without waiting: the window holds 2 (the first point went to Redis).
      expect([await limits.consume('stalled', 'read', 1), await limits.consume('stalled', 'read', 1)].map((d) => d.allowed)).toEqual([true, false]);
      process.kill(redis.pid, 'SIGCONT');
      await expect.poll(async () => (await limits.consume('stalled', 'read', 1), infos), { timeout: 10_000 }).toEqual(['rate limiter: Redis is back, limits are shared again']);
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
      for (let i = 0; i < 4; i++) decisions.push((await limits.consume('readonly', 'read', 1)).allowed);
      expect(decisions).toEqual([true, true, false, false]);
      expect(warnings).toEqual(["rate limiter: Redis unreachable, limiting in this process's memory until it is back"]);
      await admin.replicaof('NO', 'ONE');
      await expect.poll(async () => (await limits.consume('readonly', 'read', 1), infos), { timeout: 10_000 }).toEqual(['rate limiter: Redis is back, limits are shared again']);
      expect(warnings).toHaveLength(1);
    } finally {
      admin.disconnect();
      await limits.close();
      await redis.kill();
    }
  });
});

describe.skipIf(!redisServerInstalled())('rate limits on a Redis that is down', () => {
  it('start with local limits when Redis is not there, say so once, and share them once it comes', async () => {
    warnings.length = 0;
    infos.length = 0;
    const port = await freePort();
    const limits = redisLimits(`redis://127.0.0.1:${port}`);
    const started = Date.now();
    await limits.ready();
    expect(Date.now() - started).toBeLessThan(2_000); // the first refused connection ends the wait
    expect(warnings).toEqual(["rate limiter: Redis unreachable, limiting in this process's memory until it is back"]);
    const decisions = [];
    for (let i = 0; i < 3; i++) decisions.push((await limits.consume('down', 'read', 1)).allowed);
    expect(decisions).toEqual([true, true, false]);
    const redis = await startRedisServer(port);
    try {
      await expect.poll(() => infos, { timeout: 10_000 }).toEqual(['rate limiter: Redis is back, limits are shared again']);
      expect(warnings).toHaveLength(1);
    } finally {
      await limits.close();
      await redis.kill();
    }
  });

  it('waits at most startupWaitMs for a Redis that does not answer', async () => {
    warnings.length = 0;
    const redis = await startRedisServer();
    process.kill(redis.pid, 'SIGSTOP'); // accepts the connection, answers nothing
    const limits = redisLimits(redis.url, { startupWaitMs: 300 });
    try {
      const started = Date.now();
      await limits.ready();
      expect(Date.now() - started).toBeGreaterThanOrEqual(290);
      expect(Date.now() - started).toBeLessThan(1_500);
      expect(warnings).toEqual(["rate limiter: Redis unreachable, limiting in this process's memory until it is back"]);
      expect((await limits.consume('waiting', 'read', 1)).allowed).toBe(true);
    } finally {
      process.kill(redis.pid, 'SIGCONT');
      await limits.close();
      await redis.kill();
    }
  });
});
