import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { freePort } from './free-port.js';
import { redisServerInstalled, startRedisServer } from './redis-server.js';
import { DevKitError } from './errors.js';
import { testClusterSeeds, testRedis, requiredClusterSeeds } from './test-redis.js';

afterEach(() => {
  vi.unstubAllEnvs();
});

async function answers(url: string): Promise<boolean> {
  const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  client.on('error', () => {});
  try {
    await client.connect();
    return (await client.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    client.disconnect();
  }
}

/** A PATH on which no redis-server is found. */
function withoutRedisServer(): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'dev-kit-empty-path-'));
  vi.stubEnv('PATH', dir);
  return () => rmSync(dir, { recursive: true, force: true });
}

describe('testRedis', () => {
  it('refuses a REDIS_URL that does not answer, with REDIS_UNAVAILABLE', async () => {
    const url = `redis://127.0.0.1:${await freePort()}`;
    vi.stubEnv('REDIS_URL', url);
    await expect(testRedis()).rejects.toMatchObject({ code: 'REDIS_UNAVAILABLE', message: `REDIS_URL=${url} is set but Redis does not answer` });
  });

  it('without REDIS_URL or redis-server: undefined outside CI, REDIS_UNAVAILABLE naming the tests in CI', async () => {
    vi.stubEnv('REDIS_URL', '');
    const cleanup = withoutRedisServer();
    try {
      expect(await testRedis({ ci: false })).toBeUndefined();
      await expect(testRedis({ ci: true, tests: 'the scaling tests' })).rejects.toMatchObject({
        code: 'REDIS_UNAVAILABLE',
        message: 'REDIS_URL is not set and redis-server is not installed, but CI=true requires the scaling tests to run',
      });
    } finally {
      cleanup();
    }
  });

  describe.skipIf(!redisServerInstalled())('with redis-server installed', () => {
    it('uses REDIS_URL when it answers, and stop() leaves that Redis running', async () => {
      const external = await startRedisServer();
      try {
        vi.stubEnv('REDIS_URL', external.url);
        const redis = await testRedis();
        expect(redis?.url).toBe(external.url);
        await redis?.stop();
        expect(await answers(external.url)).toBe(true);
      } finally {
        await external.kill();
      }
    });

    it('without REDIS_URL starts a redis-server of its own, and stop() kills it', async () => {
      vi.stubEnv('REDIS_URL', '');
      const redis = await testRedis({ ci: true });
      expect(redis).toBeDefined();
      expect(redis!.url).toMatch(/^redis:\/\/127\.0\.0\.1:\d+$/);
      expect(await answers(redis!.url)).toBe(true);
      await redis!.stop();
      expect(await answers(redis!.url)).toBe(false);
    });
  });
});

describe('testClusterSeeds (REDIS_CLUSTER_NODES)', () => {
  it('reads host:port seeds, IPv6 hosts without their brackets, and is undefined when unset', () => {
    expect(testClusterSeeds({ REDIS_CLUSTER_NODES: ' 127.0.0.1:7101, [::1]:7102,redis-a.internal:6379 ' })).toEqual([
      { text: '127.0.0.1:7101', host: '127.0.0.1', port: 7101 },
      { text: '[::1]:7102', host: '::1', port: 7102 },
      { text: 'redis-a.internal:6379', host: 'redis-a.internal', port: 6379 },
    ]);
    expect(testClusterSeeds({})).toBeUndefined();
    expect(testClusterSeeds({ REDIS_CLUSTER_NODES: ' ' })).toBeUndefined();
  });

  it.each(['127.0.0.1', '::1:7000', '127.0.0.1:0', '127.0.0.1:65536', 'redis://a:1'])('refuses %j, naming it', (seed) => {
    expect(() => testClusterSeeds({ REDIS_CLUSTER_NODES: seed })).toThrow(DevKitError);
    expect(() => testClusterSeeds({ REDIS_CLUSTER_NODES: seed })).toThrow(`"${seed}" is not host:port`);
  });
});

describe('requiredClusterSeeds', () => {
  it('gives the seeds when REDIS_CLUSTER_NODES is set, in CI or not', () => {
    expect(requiredClusterSeeds('kit', { REDIS_CLUSTER_NODES: '127.0.0.1:7101', CI: 'true' })).toEqual([{ text: '127.0.0.1:7101', host: '127.0.0.1', port: 7101 }]);
  });

  it('skips (undefined) outside CI and fails in CI when it is unset', () => {
    expect(requiredClusterSeeds('kit', {})).toBeUndefined();
    expect(() => requiredClusterSeeds('kit', { CI: 'true' })).toThrow(/REDIS_CLUSTER_NODES is not set, but CI=true/);
  });
});
