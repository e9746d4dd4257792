import type { HeldChannel } from '@org/protocol';
import { describe, expect, it } from 'vitest';
import { createRedisScaler } from './index.js';
import { crashForTests } from './internal.js';
import { createKeys, socketMember } from './keys.js';
import { entry } from './script-args.js';
import { removalCalls, removalChunkChannels, type RemovalCall } from './socket-removal.js';
import { scalerFixture } from '../test/support/scaler-fixture.js';
import { inCI, skipMessage, testRedis, uniquePrefix } from '../test/support/test-redis.js';

describe('removal calls', () => {
  it('chunks a socket\'s channels, sending the connection once, with presence keys only where it joined', () => {
    const keys = createKeys('p');
    const held: HeldChannel[] = Array.from({ length: 2 * removalChunkChannels + 1 }, (_, i) => ({ channel: `c${i}`, presenceUserId: i % 2 ? 'u' : undefined }));
    const calls = removalCalls(keys, 'n', 'app', '1.1', held);
    expect(calls.map((call) => call.held.length)).toEqual([removalChunkChannels, removalChunkChannels, 1]);
    const member = socketMember('n', '1.1');
    const [first, , last] = calls as [(typeof calls)[0], unknown, (typeof calls)[0]];
    expect(first.args.slice(0, 4)).toEqual([3 + removalChunkChannels + (removalChunkChannels / 2) * 3, keys.node('n'), keys.channels('app'), keys.connections('app')]);
    expect(first.args).toContain(entry.connection(keys.connections('app'), member));
    expect(last.args).toEqual([4, keys.node('n'), keys.channels('app'), keys.connections('app'), keys.subscribers('app', 'c2000'), member, '', '', '', 'c2000', entry.subscription(keys.subscribers('app', 'c2000'), keys.channels('app'), member, 'app', 'c2000'), '', '']);
  });

  it('removes the socket\'s sign-in with the first call only', () => {
    const keys = createKeys('p');
    const held: HeldChannel[] = Array.from({ length: removalChunkChannels + 1 }, (_, i) => ({ channel: `c${i}`, presenceUserId: undefined }));
    const [first, second] = removalCalls(keys, 'n', 'app', '1.1', held, 'ann') as [RemovalCall, RemovalCall];
    const member = socketMember('n', '1.1');
    expect(first.args.slice(0, 6)).toEqual([5 + removalChunkChannels, keys.node('n'), keys.channels('app'), keys.connections('app'), keys.signins('app', 'ann'), keys.online('app')]);
    expect(first.args).toContain(entry.signin(keys.signins('app', 'ann'), keys.online('app'), member, 'app', 'ann'));
    expect(second.args.slice(0, 2)).toEqual([4, keys.node('n')]);
    expect(second.args).not.toContain('ann');
  });

  it('is one call for the connection alone when the socket held nothing', () => {
    const calls = removalCalls(createKeys('p'), 'n', 'app', '1.1', []);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.args[0]).toBe(3);
  });
});

const redis = await testRedis();

if (redis) {
  const { client, opened } = scalerFixture(redis);
  const open = (prefix: string, nodeId?: string) => {
    const scaler = createRedisScaler({ redis: client, prefix, ...(nodeId ? { nodeId } : {}) });
    opened.push(scaler);
    return scaler;
  };
  /** Every key of a prefix with its content, to compare Redis before and after. */
  async function snapshot(prefix: string): Promise<Record<string, unknown>> {
    const keys = (await client.keys(`{${prefix}}:*`)).filter((key) => !key.endsWith(':nodes')).sort();
    const result: Record<string, unknown> = {};
    for (const key of keys) {
      const type = await client.type(key);
      result[key] = type === 'set' ? (await client.smembers(key)).sort() : type === 'hash' ? await client.hgetall(key) : await client.get(key);
    }
    return result;
  }

  describe('removing a closed socket with the channels it held', () => {
    it('leaves Redis exactly as before the socket came, across several chunks, and reports what it vacated and who left', async () => {
      const prefix = uniquePrefix('removal');
      const [a, b] = [open(prefix), open(prefix)];
      const app = 'app';
      await b.addConnection(app, '2.1');
      await b.addSubscription(app, 'shared-7', '2.1');
      await b.addSubscription(app, 'presence-9', '2.1');
      await b.joinPresence(app, 'presence-9', '2.1', { userId: 'alice', userInfo: '{}' }, 10);
      await b.addSubscription(app, 'presence-11', '2.1');
      await b.joinPresence(app, 'presence-11', '2.1', { userId: 'bob', userInfo: '{}' }, 10);
      const baseline = await snapshot(prefix);

      const count = 2 * removalChunkChannels + 500;
      const name = (i: number) => (i === 7 ? 'shared-7' : i % 2 ? `presence-${i}` : `plain-${i}`);
      const held: HeldChannel[] = [];
      await a.addConnection(app, '1.1');
      await Promise.all(
        Array.from({ length: count }, async (_, i) => {
          await a.addSubscription(app, name(i), '1.1');
          if (i % 2) await a.joinPresence(app, name(i), '1.1', { userId: 'alice', userInfo: '{}' }, 10);
        }),
      );
      for (let i = 0; i < count; i++) held.push({ channel: name(i), presenceUserId: i % 2 ? 'alice' : undefined });
      expect((await a.channels(app)).size).toBe(count); // b's three channels are among them

      const removal = await a.removeConnection(app, '1.1', held);
      expect(await snapshot(prefix)).toEqual(baseline);
      expect(removal.vacated).toHaveLength(count - 3); // shared-7, presence-9 and presence-11 keep b's socket
      expect(removal.vacated).not.toContain('shared-7');
      expect(removal.membersLeft).toHaveLength(count / 2 - 1); // alice stays in presence-9 through b
      expect(removal.membersLeft).not.toContainEqual({ channel: 'presence-9', userId: 'alice' });
      expect(removal.membersLeft).toContainEqual({ channel: 'presence-11', userId: 'alice' });
      expect(await a.connectionCount(app)).toBe(1);
      expect(await b.userCount(app, 'presence-11')).toBe(1);
    });

    it('removes just the connection when no channels are given (what the daemon sends today)', async () => {
      const prefix = uniquePrefix('removal-plain');
      const a = open(prefix);
      const baseline = await snapshot(prefix);
      await a.addConnection('app', '1.1');
      expect(await a.removeConnection('app', '1.1')).toEqual({ vacated: [], membersLeft: [] });
      expect(await snapshot(prefix)).toEqual(baseline);
    });
  });

  describe('a graceful close', () => {
    it('leaves nothing of a node holding thousands of channels, in slices, and keeps the other nodes\' state', async () => {
      const prefix = uniquePrefix('close-many');
      const [a, b] = [open(prefix), open(prefix)];
      await b.addConnection('app', '2.1');
      await b.addSubscription('app', 'kept', '2.1');
      const baseline = await snapshot(prefix);
      await a.addConnection('app', '1.1');
      await Promise.all(Array.from({ length: 5_000 }, (_, i) => a.addSubscription('app', i === 0 ? 'kept' : `ch-${i}`, '1.1')));
      await a.joinPresence('app', 'presence-x', '1.1', { userId: 'u', userInfo: '{}' }, 10);
      await a.close();
      expect(await snapshot(prefix)).toEqual(baseline);
      expect(await client.zrange(createKeys(prefix).nodes, 0, -1)).toEqual([b.nodeId]);
      expect(await b.subscriptionCount('app', 'kept')).toBe(1);
    });
  });

  describe('a resync of a large node', () => {
    it('completes although replaying its share takes longer than commandTimeoutMs', { timeout: 30_000 }, async () => {
      const prefix = uniquePrefix('resync-large');
      const logged: string[] = [];
      const logger = { info: (_f: unknown, message: string) => logged.push(message), warn() {}, error() {} };
      const a = createRedisScaler({ redis: client, prefix, nodeId: 'large', commandTimeoutMs: 150, heartbeatIntervalMs: 100, nodeTimeoutMs: 30_000, logger });
      opened.push(a);
      await a.start(() => {});
      await a.addConnection('app', '1.1');
      for (let start = 0; start < 20_000; start += 500) {
        await Promise.all(Array.from({ length: 500 }, (_, i) => a.addSubscription('app', `ch-${start + i}`, '1.1')));
      }
      // A busy machine may time out a few of those calls: the node then resyncs, which must also succeed.
      await expect.poll(() => a.connected, { timeout: 20_000, interval: 50 }).toBe(true);
      const recoveries = () => logged.filter((line) => line.startsWith('redis reachable again')).length;
      const before = recoveries();
      // Drop its command connection: it reconnects and replays 20,001 entries in one MULTI.
      const own = String(await client.client('LIST'))
        .split('\n')
        .find((line) => line.includes('name=realtime-scaler:large') && line.includes(' sub=0 '));
      await client.client('KILL', 'ID', own!.match(/id=(\d+)/)![1]!);
      await expect.poll(recoveries, { timeout: 20_000, interval: 50 }).toBe(before + 1);
      await expect.poll(() => a.connected, { timeout: 5_000, interval: 50 }).toBe(true);
      expect(await client.hlen(createKeys(prefix).channels('app'))).toBe(20_000);
      expect(await client.scard(createKeys(prefix).node('large'))).toBe(20_001);
    });
  });

  describe('a presence re-join', () => {
    it('puts back a node entry that went missing, so a crash still removes the socket', async () => {
      const prefix = uniquePrefix('rejoin-repair');
      const keys = createKeys(prefix);
      const timing = { heartbeatIntervalMs: 100, nodeTimeoutMs: 400 };
      const doomed = createRedisScaler({ redis: client, prefix, nodeId: 'doomed', ...timing });
      const survivor = createRedisScaler({ redis: client, prefix, ...timing });
      opened.push(doomed, survivor);
      await survivor.start(() => {});
      const alice = { userId: 'alice', userInfo: '{}' };
      await doomed.joinPresence('app', 'presence-r', '1.1', alice, 10);
      await client.del(keys.node('doomed')); // a lost write: the socket is recorded, its entry is not
      expect(await doomed.joinPresence('app', 'presence-r', '1.1', alice, 10)).toMatchObject({ status: 'joined', firstForUser: false });
      expect(await survivor.userCount('app', 'presence-r')).toBe(1);
      (doomed as unknown as Record<typeof crashForTests, () => void>)[crashForTests]();
      await expect.poll(() => survivor.userCount('app', 'presence-r'), { timeout: 5_000 }).toBe(0);
    });
  });
} else {
  describe('removing a closed socket', () => {
    it('needs Redis', () => {
      console.warn(skipMessage);
      expect(inCI).toBe(false);
    });
  });
}
