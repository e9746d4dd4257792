import { RealtimeServer, createStaticAppProvider, signChannel } from '@org/protocol';
import { MemoryTransport, settle, type MemorySocket } from '@org/protocol/testing';
import { Redis } from 'ioredis';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createRedisScaler, type RedisScaler } from './index.js';
import { crashForTests } from './internal.js';
import { inCI, skipMessage, testRedis, uniquePrefix } from '../test/support/test-redis.js';

const redis = await testRedis();
const appOptions = { id: 'app-1', key: 'key-1', secret: 'secret-1' };

async function subscribe(socket: MemorySocket, channel: string, member?: { user_id: string; user_info?: unknown }) {
  const channelData = member ? JSON.stringify(member) : undefined;
  const needsAuth = channel.startsWith('presence-') || channel.startsWith('private-');
  const auth = needsAuth ? signChannel(appOptions, socket.socketId, channel, channelData) : undefined;
  socket.receive({ event: 'pusher:subscribe', data: { channel, auth, channel_data: channelData } });
}

/** Waits until the engines and Redis round trips have settled. */
const until = (check: () => unknown) => expect.poll(check, { timeout: 3_000, interval: 10 });

if (redis) {
  const client = new Redis(redis.url);
  let servers: RealtimeServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    servers = [];
  });
  afterAll(async () => {
    client.disconnect();
    await redis.stop();
  });

  async function cluster(size: number, timing: { heartbeatIntervalMs?: number; nodeTimeoutMs?: number } = {}) {
    const prefix = uniquePrefix('engine');
    const nodes: MemoryTransport[] = [];
    for (let i = 0; i < size; i++) {
      const server = new RealtimeServer({ apps: createStaticAppProvider([appOptions]), scaler: createRedisScaler({ redis: client, prefix, ...timing }) });
      await server.start();
      servers.push(server);
      nodes.push(new MemoryTransport(server));
    }
    return nodes;
  }

  async function connect(node: MemoryTransport) {
    const socket = await node.connect({ appKey: appOptions.key });
    await until(() => socket.events('pusher:connection_established').length).toBe(1);
    return socket;
  }

  describe('two engines sharing a Redis scaler', () => {
    it('deliver an event triggered on one node to subscribers on both, once each, honouring socket_id exclusion', async () => {
      const [one, two] = (await cluster(2)) as [MemoryTransport, MemoryTransport];
      const sender = await connect(one);
      const local = await connect(one);
      const remote = await connect(two);
      for (const socket of [sender, local, remote]) await subscribe(socket, 'news');
      await until(() => remote.events('pusher_internal:subscription_succeeded').length).toBe(1);
      await until(() => sender.events('pusher_internal:subscription_succeeded').length + local.events('pusher_internal:subscription_succeeded').length).toBe(2);

      const app = await one.server.apps.findById(appOptions.id);
      await one.server.trigger(app!, { name: 'headline', data: '{"t":1}', channels: ['news'], socketId: sender.socketId });
      await until(() => remote.events('headline').length).toBe(1);
      await settle();
      expect(local.events('headline')).toHaveLength(1);
      expect(sender.events('headline')).toHaveLength(0);
      expect(remote.events('headline')[0]).toEqual({ event: 'headline', channel: 'news', data: '{"t":1}' });
      expect(await two.server.connectionCount(app!)).toBe(3);
    });

    it('count the same user on two nodes once and announce them once', async () => {
      const [one, two] = (await cluster(2)) as [MemoryTransport, MemoryTransport];
      const watcher = await connect(one);
      await subscribe(watcher, 'presence-room', { user_id: 'w' });
      await until(() => watcher.events('pusher_internal:subscription_succeeded').length).toBe(1);

      const tab1 = await connect(one);
      const tab2 = await connect(two);
      await subscribe(tab1, 'presence-room', { user_id: 'ann', user_info: { name: 'Ann' } });
      await until(() => tab1.events('pusher_internal:subscription_succeeded').length).toBe(1);
      await subscribe(tab2, 'presence-room', { user_id: 'ann', user_info: { name: 'Ann' } });
      await until(() => tab2.events('pusher_internal:subscription_succeeded').length).toBe(1);

      const presence = JSON.parse(tab2.events('pusher_internal:subscription_succeeded')[0]!.data as string) as { presence: { count: number; ids: string[] } };
      expect(presence.presence.count).toBe(2);
      expect(presence.presence.ids.sort()).toEqual(['ann', 'w']);
      await settle();
      expect(watcher.events('pusher_internal:member_added')).toHaveLength(1);

      const app = await two.server.apps.findById(appOptions.id);
      expect(await two.server.channel(app!, 'presence-room', ['user_count', 'subscription_count'])).toEqual({ occupied: true, user_count: 2, subscription_count: 3 });
      expect(await two.server.users(app!, 'presence-room')).toEqual(expect.arrayContaining([{ id: 'w' }, { id: 'ann' }]));

      // Closing one tab keeps Ann present; closing the other removes her, on every node.
      tab1.close(4000, 'bye');
      await settle(20);
      await until(() => two.server.scaler.subscriptionCount(appOptions.id, 'presence-room')).toBe(2);
      expect(watcher.events('pusher_internal:member_removed')).toHaveLength(0);
      tab2.close(4000, 'bye');
      await until(() => watcher.events('pusher_internal:member_removed').length).toBe(1);
      expect(await one.server.users(app!, 'presence-room')).toEqual([{ id: 'w' }]);
    });

    it('replay the last event of a cache channel to a subscriber on another node', async () => {
      const [one, two] = (await cluster(2)) as [MemoryTransport, MemoryTransport];
      const app = await one.server.apps.findById(appOptions.id);
      await one.server.trigger(app!, { name: 'price', data: '{"p":42}', channels: ['cache-prices'] });
      const late = await connect(two);
      await subscribe(late, 'cache-prices');
      await until(() => late.events('price').length).toBe(1);
      expect(late.events('pusher:cache_miss')).toHaveLength(0);
    });

    it('announce the presence members of a node that died to every surviving node, once', async () => {
      const [doomed, two, three] = (await cluster(3, { heartbeatIntervalMs: 100, nodeTimeoutMs: 500 })) as [MemoryTransport, MemoryTransport, MemoryTransport];
      const removedEvents: string[] = [];
      const vacatedEvents: string[] = [];
      for (const node of [two, three]) {
        node.server.events.on('member.removed', ({ channel, userId }) => removedEvents.push(`${channel}:${userId}`));
        node.server.events.on('channel.vacated', ({ channel }) => vacatedEvents.push(channel));
      }
      const watchers = [await connect(two), await connect(three)];
      for (const [index, watcher] of watchers.entries()) await subscribe(watcher, 'presence-room', { user_id: `watcher-${index}` });
      const ghost = await connect(doomed);
      await subscribe(ghost, 'presence-room', { user_id: 'ghost' });
      await subscribe(ghost, 'only-on-doomed');
      const sawGhost = (watcher: MemorySocket) => watcher.events('pusher_internal:member_added').some((frame) => String(frame.data).includes('"ghost"'));
      await until(() => watchers.every(sawGhost)).toBe(true);

      (doomed.server.scaler as RedisScaler & Record<typeof crashForTests, () => void>)[crashForTests]();
      for (const watcher of watchers) {
        await until(() => watcher.events('pusher_internal:member_removed').map((frame) => frame.data)).toEqual(['{"user_id":"ghost"}']);
      }
      expect(removedEvents).toEqual(['presence-room:ghost']);
      expect(vacatedEvents).toEqual(['only-on-doomed']);
      const app = await two.server.apps.findById(appOptions.id);
      expect(await three.server.users(app!, 'presence-room')).toEqual(expect.arrayContaining([{ id: 'watcher-0' }, { id: 'watcher-1' }]));
      expect(await three.server.users(app!, 'presence-room')).toHaveLength(2);
    });

    it('terminate a user\'s connections on every node', async () => {
      const [one, two] = (await cluster(2)) as [MemoryTransport, MemoryTransport];
      const onOne = await connect(one);
      const onTwo = await connect(two);
      for (const socket of [onOne, onTwo]) await subscribe(socket, 'presence-t', { user_id: 'mallory' });
      await until(() => onTwo.events('pusher_internal:subscription_succeeded').length + onOne.events('pusher_internal:subscription_succeeded').length).toBe(2);
      const app = await one.server.apps.findById(appOptions.id);
      one.server.terminateUserConnections(app!, 'mallory');
      await until(() => onTwo.closed?.code).toBe(4009);
      expect(onOne.closed?.code).toBe(4009);
    });
  });
} else {
  describe('engines on a Redis scaler', () => {
    it('needs Redis', () => {
      console.warn(skipMessage);
      expect(inCI).toBe(false);
    });
  });
}
