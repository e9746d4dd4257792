import { Cluster, Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { processAlive } from './process-alive.js';
import { startRedisCluster } from './redis-cluster.js';
import { redisServerInstalled } from './redis-server.js';
import { inCI } from './test-redis.js';

const installed = redisServerInstalled();
if (!installed && inCI) throw new Error('redis-server is not installed, but CI=true requires the dev-kit Redis Cluster test to run');

describe.skipIf(!installed)('startRedisCluster', () => {
  it('starts a cluster of its own that serves every slot, names slot owners, and stop() removes every node', async () => {
    const cluster = await startRedisCluster({ masters: 3, replicasPerMaster: 0 });
    const client = new Cluster(cluster.nodes.map((node) => ({ host: '127.0.0.1', port: Number(node.split(':')[1]) })), { clusterRetryStrategy: () => null });
    client.on('error', () => {});
    try {
      expect(cluster.nodes).toEqual(cluster.ports.map((port) => `127.0.0.1:${port}`));
      await client.set('{dev-kit}:a', '1');
      expect(await client.get('{dev-kit}:a')).toBe('1');
      // KEYSLOT of "{dev-kit}:a" hashes "dev-kit"; its owner is one of our three masters.
      const slot = await cluster.keySlot('{dev-kit}:a');
      expect(slot).toBe(await cluster.keySlot('dev-kit'));
      expect(cluster.ports).toContain(await cluster.masterOf(slot));
    } finally {
      client.disconnect();
    }
    const pidOf = async (port: number) => {
      const node = new Redis({ host: '127.0.0.1', port, maxRetriesPerRequest: 0 });
      try {
        return Number(/process_id:(\d+)/.exec(await node.info('server'))![1]);
      } finally {
        node.disconnect();
      }
    };
    const pids = await Promise.all(cluster.ports.map(pidOf));
    await cluster.stop();
    for (const pid of pids) expect(processAlive(pid)).toBe(false);
    await cluster.stop(); // a second stop is a no-op
  }, 30_000);
});
