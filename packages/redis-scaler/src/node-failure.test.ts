import type { ClusterMessage } from '@org/protocol';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import type { NodeLoss } from '@org/protocol';
import { createRedisScaler, type RedisScaler, type RedisScalerOptions } from './index.js';
import { crashForTests } from './internal.js';
import { createKeys } from './keys.js';
import { inCI, skipMessage, testRedis, uniquePrefix } from '../test/support/test-redis.js';

const redis = await testRedis();

if (redis) {
  const client = new Redis(redis.url);
  const opened: RedisScaler[] = [];
  const open = (options: Partial<RedisScalerOptions> & { prefix: string }) => {
    const scaler = createRedisScaler({ redis: client, ...options });
    opened.push(scaler);
    return scaler;
  };
  const crash = (scaler: RedisScaler) => (scaler as unknown as Record<typeof crashForTests, () => void>)[crashForTests]();
  afterAll(async () => {
    await Promise.all(opened.map((scaler) => scaler.close()));
    client.disconnect();
    await redis.stop();
  });

  describe('a node that dies without closing', () => {
    it('takes its signed-in sockets out and reports, once, the users it left with none (watchlist events)', async () => {
      const prefix = uniquePrefix('crash-signins');
      const timing = { heartbeatIntervalMs: 200, nodeTimeoutMs: 1_000 };
      const reports: NodeLoss['usersOffline'][] = [];
      const doomed = open({ prefix, ...timing, nodeId: 'doomed-signins' });
      const survivors = [1, 2].map(() => open({ prefix, ...timing }));
      await Promise.all(survivors.map((survivor) => survivor.start(() => {}, (loss) => reports.push(loss.usersOffline))));
      const [b] = survivors as [RedisScaler];
      const app = 'app-w';
      await doomed.addConnection(app, '1.1');
      expect(await doomed.signIn(app, 'gone', '1.1')).toBe(true);
      expect(await doomed.signIn(app, 'kept', '1.2')).toBe(true);
      expect(await b.signIn(app, 'kept', '2.1')).toBe(false);
      crash(doomed);
      await expect.poll(() => reports.length, { timeout: 5_000, interval: 20 }).toBe(1);
      expect(reports).toEqual([[{ appId: app, userId: 'gone' }]]);
      expect(await b.onlineUsers(app, ['gone', 'kept'])).toEqual(['kept']);
      expect(await b.signIn(app, 'gone', '2.2')).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 3 * timing.heartbeatIntervalMs));
      expect(reports).toHaveLength(1);
    });

    it('is removed by exactly one of four survivors within nodeTimeoutMs + heartbeatIntervalMs, and members that left everywhere are reported once', async () => {
      const prefix = uniquePrefix('crash');
      const timing = { heartbeatIntervalMs: 200, nodeTimeoutMs: 1_000 };
      const removedReports: NodeLoss['members'][] = [];
      const vacatedReports: NodeLoss['vacatedChannels'][] = [];
      const reducedReports: NodeLoss['reducedChannels'][] = [];
      const doomed = open({ prefix, ...timing, nodeId: 'doomed' });
      const survivors = [1, 2, 3, 4].map(() => open({ prefix, ...timing }));
      await Promise.all(
        survivors.map((survivor) =>
          survivor.start(
            () => {},
            (loss) => {
              removedReports.push(loss.members);
              vacatedReports.push(loss.vacatedChannels);
              reducedReports.push(loss.reducedChannels);
            },
          ),
        ),
      );
      const [b] = survivors as [RedisScaler, RedisScaler];
      const app = 'app-1';

      await doomed.addConnection(app, '1.1');
      await doomed.addConnection(app, '1.2');
      await doomed.addSubscription(app, 'presence-room', '1.1');
      await doomed.addSubscription(app, 'only-doomed', '1.2');
      await doomed.addSubscription(app, 'presence-room', '1.2');
      await doomed.joinPresence(app, 'presence-room', '1.1', { userId: 'alice', userInfo: '{"name":"Alice"}' }, 100);
      await doomed.joinPresence(app, 'presence-room', '1.2', { userId: 'bob', userInfo: '{}' }, 100);
      await b.addConnection(app, '2.1');
      await b.addSubscription(app, 'presence-room', '2.1');
      await b.joinPresence(app, 'presence-room', '2.1', { userId: 'bob', userInfo: '{}' }, 100);
      expect(await b.connectionCount(app)).toBe(3);
      expect(await b.userCount(app, 'presence-room')).toBe(2);

      const crashedAt = Date.now();
      crash(doomed);
      await expect.poll(() => b.connectionCount(app), { timeout: 5_000, interval: 20 }).toBe(1);
      const detectedAfterMs = Date.now() - crashedAt;
      expect(detectedAfterMs).toBeLessThanOrEqual(timing.nodeTimeoutMs + timing.heartbeatIntervalMs + 300);

      await expect.poll(() => removedReports.length).toBe(1);
      // bob still has a socket on b: only alice left the cluster.
      expect(removedReports).toEqual([[{ appId: app, channel: 'presence-room', userId: 'alice' }]]);
      expect(vacatedReports).toEqual([[{ appId: app, channel: 'only-doomed' }]]);
      // presence-room keeps b's subscriber: reported once (for its subscription count) though two dead sockets held it.
      expect(reducedReports).toEqual([[{ appId: app, channel: 'presence-room' }]]);
      expect(await b.userCount(app, 'presence-room')).toBe(1);
      expect(await b.presenceMembers(app, 'presence-room')).toEqual([{ userId: 'bob', userInfo: '{}' }]);
      expect(await b.subscriptionCount(app, 'presence-room')).toBe(1);
      expect(Object.fromEntries(await b.channels(app))).toEqual({ 'presence-room': 1 });
      // Several more heartbeats: nobody reports the same node twice.
      await new Promise((resolve) => setTimeout(resolve, 3 * timing.heartbeatIntervalMs));
      expect(removedReports).toHaveLength(1);
      expect(vacatedReports).toHaveLength(1);
    });

    it('is detected within the default 6 s timeout plus one 2 s heartbeat (measured)', { timeout: 20_000 }, async () => {
      const prefix = uniquePrefix('crash-defaults');
      const removed: NodeLoss['members'][] = [];
      const doomed = open({ prefix });
      const survivor = open({ prefix });
      await survivor.start(
        () => {},
        (loss) => removed.push(loss.members),
      );
      await doomed.addConnection('app', '1.1');
      await doomed.addSubscription('app', 'presence-x', '1.1');
      await doomed.joinPresence('app', 'presence-x', '1.1', { userId: 'u', userInfo: '{}' }, 10);
      // Let both nodes heartbeat once, as in a running cluster.
      await new Promise((resolve) => setTimeout(resolve, 2_100));
      const crashedAt = Date.now();
      crash(doomed);
      await expect.poll(() => removed.length, { timeout: 12_000, interval: 50 }).toBe(1);
      const detectedAfterMs = Date.now() - crashedAt;
      console.info(`[redis-scaler] dead node detected after ${detectedAfterMs} ms (nodeTimeoutMs 6000, heartbeatIntervalMs 2000)`);
      expect(detectedAfterMs).toBeGreaterThanOrEqual(3_900);
      // 8 s by design; the slack is for timers firing late on a busy machine.
      expect(detectedAfterMs).toBeLessThanOrEqual(9_000);
      expect(await survivor.connectionCount('app')).toBe(0);
    });

    it('a graceful close removes its state at once, without waiting for the timeout', async () => {
      const prefix = uniquePrefix('graceful');
      const a = open({ prefix });
      const b = open({ prefix });
      await a.addConnection('app', '1.1');
      await a.addSubscription('app', 'room', '1.1');
      expect(await b.connectionCount('app')).toBe(1);
      await Promise.all([a.close(), a.close()]); // idempotent, also when called twice at once
      expect(await b.connectionCount('app')).toBe(0);
      expect(await b.subscriptionCount('app', 'room')).toBe(0);
      await expect(a.addConnection('app', '1.2')).rejects.toMatchObject({ code: 'SCALER_CLOSED' });
    });

    it('a node that was reaped while alive (stalled) puts its state back on its next heartbeat', async () => {
      const prefix = uniquePrefix('stalled');
      const timing = { heartbeatIntervalMs: 100, nodeTimeoutMs: 400 };
      const a = open({ prefix, ...timing, nodeId: 'stalled-node' });
      const b = open({ prefix, ...timing });
      await a.addConnection('app', '1.1');
      // What a survivor does when `a` looks dead during a long pause: its node, entries and sockets go.
      const left = await client.eval(
        `redis.call('ZREM', KEYS[1], ARGV[1]); redis.call('DEL', KEYS[2]); redis.call('SREM', KEYS[3], ARGV[2]); return redis.call('SCARD', KEYS[3])`,
        3,
        createKeys(prefix).nodes,
        createKeys(prefix).node('stalled-node'),
        createKeys(prefix).connections('app'),
        'stalled-node',
        'stalled-node|1.1',
      );
      expect(left).toBe(0);
      await expect.poll(() => b.connectionCount('app'), { timeout: 3_000, interval: 20 }).toBe(1);
    });
  });

  describe('deployments sharing one Redis', () => {
    it('never see each other\'s messages or state when their prefixes differ', async () => {
      const [one, two] = [uniquePrefix('deploy-one'), uniquePrefix('deploy-two')];
      const a1 = open({ prefix: one });
      const b1 = open({ prefix: one });
      const a2 = open({ prefix: two });
      const received = { b1: [] as ClusterMessage[], a2: [] as ClusterMessage[] };
      await b1.start((message) => received.b1.push(message));
      await a2.start((message) => received.a2.push(message));
      await a1.start(() => {});

      a1.publish({ type: 'broadcast', appId: 'same-app', channel: 'news', frame: '{"event":"one"}' });
      await expect.poll(() => received.b1.length).toBe(1);
      await a1.addConnection('same-app', '1.1');
      await a1.addSubscription('same-app', 'news', '1.1');
      await a1.joinPresence('same-app', 'presence-lobby', '1.1', { userId: 'u', userInfo: '{}' }, 10);
      await a1.storeCachedEvent('same-app', 'cache-x', '{"event":"cached"}', 60);

      expect(received.a2).toEqual([]);
      expect(await a2.connectionCount('same-app')).toBe(0);
      expect(await a2.subscriptionCount('same-app', 'news')).toBe(0);
      expect(await a2.userCount('same-app', 'presence-lobby')).toBe(0);
      expect(await a2.channels('same-app')).toEqual(new Map());
      expect(await a2.cachedEvent('same-app', 'cache-x')).toBeUndefined();
      expect(await b1.cachedEvent('same-app', 'cache-x')).toMatchObject({ frame: '{"event":"cached"}' });
    });
  });
} else {
  describe('node failure', () => {
    it('needs Redis', () => {
      console.warn(skipMessage);
      expect(inCI).toBe(false);
    });
  });
}
