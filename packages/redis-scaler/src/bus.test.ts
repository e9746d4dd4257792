import type { ClusterMessage } from '@org/protocol';
import { describe, expect, it } from 'vitest';
import { createRedisScaler, publishClusterMessage, type ScalerLogger } from './index.js';
import { createKeys } from './keys.js';
import { scalerFixture } from '../test/support/scaler-fixture.js';
import { inCI, skipMessage, testRedis, uniquePrefix } from '../test/support/test-redis.js';

const redis = await testRedis();

if (redis) {
  const { client, opened } = scalerFixture(redis);

  const warnings: string[] = [];
  const errors: string[] = [];
  const logger: ScalerLogger = { info() {}, warn: (_f, message) => warnings.push(message), error: (_f, message) => errors.push(message) };

  async function pair(onMessage: (message: ClusterMessage) => void) {
    const prefix = uniquePrefix('bus');
    const sender = createRedisScaler({ redis: client, prefix });
    const receiver = createRedisScaler({ redis: client, prefix, logger });
    opened.push(sender, receiver);
    // Both started, as in a cluster: an unstarted node holds what it publishes until its first resync.
    await Promise.all([receiver.start(onMessage), sender.start(() => {})]);
    return { prefix, sender };
  }

  describe('the cluster bus', () => {
    it('hears a node restarted under the same configured nodeId (its numbering starts anew)', async () => {
      const prefix = uniquePrefix('bus-restart');
      const received: ClusterMessage[] = [];
      const receiver = createRedisScaler({ redis: client, prefix, nodeId: 'pod-a' });
      opened.push(receiver);
      await receiver.start((message) => received.push(message));
      const first = createRedisScaler({ redis: client, prefix, nodeId: 'pod-b' });
      await first.start(() => {});
      for (let i = 0; i < 5; i++) first.publish({ type: 'terminate-user', appId: 'a', userId: `before-${i}` });
      await expect.poll(() => received.length, { timeout: 3_000 }).toBe(5);
      await first.close();

      const restarted = createRedisScaler({ redis: client, prefix, nodeId: 'pod-b' });
      opened.push(restarted);
      await restarted.start(() => {});
      for (let i = 0; i < 3; i++) restarted.publish({ type: 'terminate-user', appId: 'a', userId: `after-${i}` });
      await expect.poll(() => received.length, { timeout: 3_000 }).toBe(8);
      expect(receiver.stats.duplicateMessages).toBe(0);
    });

    it('carries every message type and large frames intact, in order', async () => {
      const received: ClusterMessage[] = [];
      const { sender } = await pair((message) => received.push(message));
      const big = `{"event":"big","data":${JSON.stringify('x'.repeat(100_000))}}`;
      const sent: ClusterMessage[] = [
        { type: 'broadcast', appId: 'a', channel: 'c', frame: big, exceptSocketId: '9.9' },
        { type: 'terminate-user', appId: 'a', userId: 'u' },
        { type: 'restart' },
      ];
      for (const message of sent) sender.publish(message);
      await expect.poll(() => received.length, { timeout: 3_000 }).toBe(3);
      expect(received).toEqual(sent);
    });

    it('ignores malformed payloads with one warning and keeps delivering', async () => {
      warnings.length = 0;
      const received: ClusterMessage[] = [];
      const { prefix, sender } = await pair((message) => received.push(message));
      for (const garbage of ['nope', '{"n":"x","m":{"type":"broadcast"}}', '[]']) await client.publish(createKeys(prefix).bus, garbage);
      sender.publish({ type: 'restart' });
      await expect.poll(() => received, { timeout: 3_000 }).toEqual([{ type: 'restart' }]);
      expect(warnings).toEqual(['ignored a malformed message on the bus']);
    });

    it('delivers a message published from outside the cluster to every node, and counts the nodes', async () => {
      const prefix = uniquePrefix('bus-external');
      const receivedBy: string[] = [];
      const nodes = [createRedisScaler({ redis: client, prefix }), createRedisScaler({ redis: client, prefix })];
      opened.push(...nodes);
      await Promise.all(nodes.map((node) => node.start((message) => receivedBy.push(`${node.nodeId}:${message.type}`))));
      await expect(publishClusterMessage(client, prefix, { type: 'restart' })).resolves.toBe(2);
      await expect.poll(() => receivedBy.sort(), { timeout: 3_000 }).toEqual(nodes.map((node) => `${node.nodeId}:restart`).sort());
      await expect(publishClusterMessage(client, uniquePrefix('nobody'), { type: 'restart' })).resolves.toBe(0);
    });

    it('logs a throwing handler and still delivers the next message', async () => {
      errors.length = 0;
      let calls = 0;
      const { sender } = await pair(() => {
        calls++;
        if (calls === 1) throw new Error('handler bug');
      });
      sender.publish({ type: 'restart' });
      sender.publish({ type: 'restart' });
      await expect.poll(() => calls, { timeout: 3_000 }).toBe(2);
      expect(errors).toEqual(['the cluster message handler threw']);
    });
  });
} else {
  describe('the cluster bus', () => {
    it('needs Redis', () => {
      console.warn(skipMessage);
      expect(inCI).toBe(false);
    });
  });
}
