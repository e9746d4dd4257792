import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { freePort } from './free-port.js';
import { processAlive } from './process-alive.js';
import { redisServerInstalled, startRedisServer } from './redis-server.js';
import { inCI } from './test-redis.js';

describe.skipIf(!redisServerInstalled())('startRedisServer', () => {
  it('starts a redis-server on a free loopback port that answers, and kill() stops it by PID', async () => {
    const redis = await startRedisServer();
    expect(redis.url).toBe(`redis://127.0.0.1:${redis.port}`);
    const client = new Redis(redis.url, { maxRetriesPerRequest: 0, retryStrategy: () => null });
    client.on('error', () => {});
    try {
      expect(await client.ping()).toBe('PONG');
      // Nothing is persisted: a crash loses everything, which the outage tests rely on.
      expect(await client.config('GET', 'save')).toEqual(['save', '']);
      expect(await client.config('GET', 'appendonly')).toEqual(['appendonly', 'no']);
    } finally {
      client.disconnect();
    }
    expect(processAlive(redis.pid)).toBe(true);
    await redis.kill();
    expect(processAlive(redis.pid)).toBe(false);
    await redis.kill(); // a second kill is a no-op
  });

  it('starts on the port it is given, and again on it after a kill', async () => {
    const port = await freePort();
    const first = await startRedisServer(port);
    expect(first.port).toBe(port);
    await first.kill();
    const second = await startRedisServer(port);
    expect(second.url).toBe(first.url);
    expect(second.pid).not.toBe(first.pid);
    await second.kill();
  });

  it('rejects with REDIS_START_FAILED and the server output when the port is taken', async () => {
    const taken = await startRedisServer();
    try {
      await expect(startRedisServer(taken.port)).rejects.toMatchObject({ code: 'REDIS_START_FAILED', message: expect.stringMatching(/exited with 1/) });
    } finally {
      await taken.kill();
    }
  });
});

describe.runIf(!redisServerInstalled())('startRedisServer without redis-server', () => {
  it('is needed in CI', () => {
    if (inCI) throw new Error('redis-server is not installed, but CI=true requires the dev-kit Redis tests to run');
    console.warn('[dev-kit] redis-server not installed: its tests skipped outside CI');
  });
});
