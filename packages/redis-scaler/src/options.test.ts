import { Cluster, Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { createRedisScaler, RedisScalerError, type RedisScalerOptions } from './index.js';
import { resolveOptions } from './options.js';

// Never connects: option validation happens before any connection is made.
const redis = new Redis({ lazyConnect: true });
afterAll(() => redis.disconnect());

const invalid = (options: Partial<RedisScalerOptions>) => () => resolveOptions({ redis, ...options } as RedisScalerOptions);

describe('options', () => {
  it('fills in the documented defaults', () => {
    const resolved = resolveOptions({ redis });
    expect(resolved).toMatchObject({ prefix: 'realtime', heartbeatIntervalMs: 2_000, nodeTimeoutMs: 6_000, commandTimeoutMs: 1_000, outboxMaxSeconds: 30, outboxMaxBytes: 16_777_216, topicLingerMs: 5_000, maxLingeringTopics: 10_000 });
    expect(resolved.nodeId).toMatch(/^[A-Za-z0-9._-]+-\d+-[0-9a-f]{8}$/);
    expect(resolveOptions({ redis }).nodeId).not.toBe(resolved.nodeId);
  });

  it('accepts a Redis Cluster client', () => {
    const cluster = new Cluster([{ host: '127.0.0.1', port: 1 }], { lazyConnect: true });
    expect(resolveOptions({ redis: cluster }).redis).toBe(cluster);
    cluster.disconnect();
  });

  it('accepts 0 for the outbox bounds (outbox disabled)', () => {
    expect(resolveOptions({ redis, outboxMaxSeconds: 0, outboxMaxBytes: 0 })).toMatchObject({ outboxMaxSeconds: 0, outboxMaxBytes: 0 });
  });

  it('accepts 0 for the routing linger and its bound (topics unsubscribed at once)', () => {
    expect(resolveOptions({ redis, topicLingerMs: 0, maxLingeringTopics: 0 })).toMatchObject({ topicLingerMs: 0, maxLingeringTopics: 0 });
  });

  it('rejects a missing or foreign redis client, naming the key', () => {
    expect(() => createRedisScaler({} as RedisScalerOptions)).toThrow(/invalid option redis: redis must be an ioredis client/);
    expect(invalid({ redis: { url: 'redis://x' } as unknown as Redis })).toThrow(RedisScalerError);
    expect(() => resolveOptions(undefined as unknown as RedisScalerOptions)).toThrow(/options must be an object/);
  });

  it.each([
    [{ prefix: '' }, /prefix must be a non-empty string/],
    [{ prefix: 'has space' }, /prefix must be printable ASCII without spaces/],
    [{ prefix: 'x'.repeat(201) }, /prefix must be at most 200 characters/],
    [{ prefix: 'app{1}' }, /invalid option prefix: prefix must not contain \{ or \}/],
    [{ prefix: 'half}' }, /invalid option prefix: prefix must not contain \{ or \}/],
    [{ nodeId: 'a|b' }, /nodeId must be 1 to 100 characters/],
    [{ heartbeatIntervalMs: 10 }, /heartbeatIntervalMs must be at least 50 ms/],
    [{ heartbeatIntervalMs: 1.5 }, /heartbeatIntervalMs must be an integer/],
    [{ nodeTimeoutMs: 700_000 }, /nodeTimeoutMs must be at most 600000 ms/],
    [{ heartbeatIntervalMs: 2_000, nodeTimeoutMs: 3_000 }, /nodeTimeoutMs must be at least twice heartbeatIntervalMs/],
    [{ commandTimeoutMs: '1000' as unknown as number }, /commandTimeoutMs must be a number of milliseconds/],
    [{ logger: { info() {} } as never }, /logger must have info, warn and error functions/],
    [{ outboxMaxSeconds: -1 }, /invalid option outboxMaxSeconds: outboxMaxSeconds must be at least 0/],
    [{ outboxMaxSeconds: 3_601 }, /outboxMaxSeconds must be at most 3600/],
    [{ outboxMaxSeconds: 0.5 }, /outboxMaxSeconds must be a whole number of seconds/],
    [{ outboxMaxBytes: '16MB' as unknown as number }, /invalid option outboxMaxBytes: outboxMaxBytes must be a number of bytes/],
    [{ outboxMaxBytes: 2 ** 31 }, /outboxMaxBytes must be at most 1073741824/],
    [{ topicLingerMs: -1 }, /invalid option topicLingerMs: topicLingerMs must be at least 0 ms/],
    [{ topicLingerMs: 3_600_001 }, /topicLingerMs must be at most 3600000 ms/],
    [{ topicLingerMs: 1.5 }, /topicLingerMs must be an integer number of milliseconds/],
    [{ maxLingeringTopics: -1 }, /invalid option maxLingeringTopics: maxLingeringTopics must be at least 0/],
    [{ maxLingeringTopics: 0.5 }, /maxLingeringTopics must be a whole number of topics/],
    [{ maxLingeringTopics: '10' as unknown as number }, /maxLingeringTopics must be a number of topics/],
  ])('rejects %o', (options, message) => {
    const attempt = invalid(options);
    expect(attempt).toThrow(message);
    try {
      attempt();
    } catch (error) {
      expect(error).toMatchObject({ code: 'INVALID_OPTION', name: 'RedisScalerError' });
    }
  });
});
