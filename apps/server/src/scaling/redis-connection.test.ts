import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import type { Cluster } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/load-config.js';
import { maskSecrets } from '../config/mask-secrets.js';
import { configSchema } from '../config/schema.js';
import { createScalingClient, describeRedis, resolveRedisConnection } from './redis-connection.js';

const dir = await mkdtemp(join(tmpdir(), 'realtime-cluster-config-'));
afterAll(() => rm(dir, { recursive: true, force: true }));

/** loadConfig on a file holding `config`: the error message the operator would read, or the config. */
async function load(config: object) {
  const file = join(dir, `${Math.random().toString(36).slice(2)}.json`);
  await writeFile(file, JSON.stringify(config));
  return loadConfig({ file, env: {} });
}

describe('a Redis Cluster for scaling (scaling.server.cluster, redis.cluster)', () => {
  it('accepts seed nodes and builds an ioredis Cluster with sharded subscribers from them', async () => {
    const { config } = await load({ scaling: { enabled: true, server: { cluster: { nodes: ['127.0.0.1:7101', '[::1]:7102', 'redis-a.internal:6379'] }, password: 'pw' } } });
    const connection = resolveRedisConnection(config.scaling.server, config.redis);
    expect(connection.cluster).toEqual({ nodes: ['127.0.0.1:7101', '[::1]:7102', 'redis-a.internal:6379'], tls: false });
    expect(describeRedis(connection)).toBe('cluster 127.0.0.1:7101,[::1]:7102,redis-a.internal:6379');
    const client = createScalingClient(connection);
    try {
      expect(client.isCluster).toBe(true);
      const cluster = client as Cluster;
      expect(cluster.options).toMatchObject({ shardedSubscribers: true, lazyConnect: true, redisOptions: { password: 'pw' } });
    } finally {
      client.disconnect();
    }
  });

  it('takes the shared redis.cluster, unless the scaling section names a server of its own (REDIS_URL)', () => {
    const shared = configSchema.parse({ redis: { cluster: { nodes: ['10.0.0.1:7000'], tls: true } } });
    expect(resolveRedisConnection(shared.scaling.server, shared.redis).cluster).toEqual({ nodes: ['10.0.0.1:7000'], tls: true });
    const own = configSchema.parse({ redis: { cluster: { nodes: ['10.0.0.1:7000'] } }, scaling: { server: { url: 'redis://10.0.0.9:6379' } } });
    expect(resolveRedisConnection(own.scaling.server, own.redis).cluster).toBeUndefined();
    expect(createScalingClient(resolveRedisConnection(own.scaling.server, own.redis)).isCluster).toBe(false);
  });

  it.each([
    [{ scaling: { server: { cluster: { nodes: [] } } } }, 'scaling.server.cluster.nodes: nodes needs at least one host:port seed'],
    [{ scaling: { server: { cluster: { nodes: ['redis://10.0.0.1:6379'] } } } }, 'scaling.server.cluster.nodes.0: each seed must be host:port'],
    [{ scaling: { server: { cluster: { nodes: ['10.0.0.1:0'] } } } }, 'scaling.server.cluster.nodes.0: each seed must be host:port'],
    [{ scaling: { server: { cluster: { nodes: ['10.0.0.1:65536'] } } } }, 'scaling.server.cluster.nodes.0: each seed must be host:port'],
    [{ scaling: { server: { cluster: { nodes: '10.0.0.1:7000' } } } }, 'scaling.server.cluster.nodes: nodes must be a list'],
    [{ redis: { cluster: { nodes: ['a:1'], seeds: [] } } }, 'redis.cluster: Unrecognized key: "seeds"'],
    [{ scaling: { channel: 'app{1}' } }, 'scaling.channel: must not contain { or }'],
    [{ scaling: { channel: 'x}' } }, 'scaling.channel: must not contain { or }'],
    [{ scaling: { channel: 'my app' } }, 'scaling.channel: must be printable ASCII without spaces'],
    [{ scaling: { channel: 'é' } }, 'scaling.channel: must be printable ASCII without spaces'],
    [{ scaling: { channel: 'x'.repeat(201) } }, 'scaling.channel: must be at most 200 characters'],
    [{ scaling: { server: { cluster: { nodes: ['10.0.0.1:7000'] }, url: 'redis://10.0.0.9:6379' } } }, 'scaling.server.url: cannot be set together with cluster'],
  ])('refuses %j, naming the key', async (config, message) => {
    await expect(load(config)).rejects.toThrow(message);
  });

  it('refuses any non-seed text without throwing anything but a ConfigError, and accepts every host:port', async () => {
    const seed = fc.tuple(fc.stringMatching(/^[A-Za-z0-9._-]{1,30}$/), fc.integer({ min: 1, max: 65_535 })).map(([host, port]) => `${host}:${port}`);
    fc.assert(fc.property(fc.array(seed, { minLength: 1, maxLength: 5 }), (nodes) => configSchema.safeParse({ redis: { cluster: { nodes } } }).success));
    fc.assert(
      fc.property(fc.string(), (text) => {
        const parsed = configSchema.safeParse({ redis: { cluster: { nodes: [text] } } });
        const wellFormed = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._-]+):([1-9][0-9]{0,4})$/.test(text) && Number(text.slice(text.lastIndexOf(':') + 1)) <= 65_535;
        expect(parsed.success).toBe(wellFormed);
      }),
    );
  });

  it('refuses REDIS_URL over a scaling.server.cluster, naming the key (which of the two was meant is a guess)', async () => {
    const file = join(dir, 'cluster-and-env-url.json');
    await writeFile(file, JSON.stringify({ scaling: { server: { cluster: { nodes: ['10.0.0.1:7000'] } } } }));
    await expect(loadConfig({ file, env: { REDIS_URL: 'redis://10.0.0.9:6379' } })).rejects.toThrow('scaling.server.url: cannot be set together with cluster (REDIS_URL sets scaling.server.url)');
  });

  it('masks the cluster password in config print, like a single server\'s', async () => {
    const { config } = await load({ scaling: { server: { cluster: { nodes: ['127.0.0.1:7101'] }, password: 'cluster-secret-pw' } } });
    const printed = JSON.stringify(maskSecrets(config));
    expect(printed).not.toContain('cluster-secret-pw');
    expect(printed).toContain('127.0.0.1:7101');
  });
});
