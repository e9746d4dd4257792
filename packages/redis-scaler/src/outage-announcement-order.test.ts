import type { ClusterMessage } from '@org/protocol';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { createRedisScaler } from './index.js';
import { redisServerInstalled, startRedisServer, uniquePrefix } from '../test/support/test-redis.js';

const label = (message: ClusterMessage) => (message.type === 'broadcast' ? message.frame : `${message.type}:${'userId' in message ? message.userId : ''}`);

if (redisServerInstalled()) {
  describe('a presence change of an outage announced after it', () => {
    it('goes behind a message sent before the outage and put back, so neither is counted missed or dropped as a duplicate', { timeout: 30_000 }, async () => {
      let server = await startRedisServer();
      const port = server.port;
      const client = () => new Redis(server.url, { maxRetriesPerRequest: null, retryStrategy: () => 100 });
      const prefix = uniquePrefix('announce-order');
      const timing = { heartbeatIntervalMs: 100, nodeTimeoutMs: 5_000, commandTimeoutMs: 300 };
      const receiver = createRedisScaler({ redis: client(), prefix, nodeId: 'receiver', ...timing });
      const sender = createRedisScaler({ redis: client(), prefix, nodeId: 'sender', ...timing });
      const received: string[] = [];
      try {
        await receiver.start((message) => received.push(label(message)), undefined, { routing: 'subscribed' });
        await receiver.addConnection('app', 'r.1');
        await receiver.addSubscription('app', 'presence-p', 'r.1');
        await sender.start(() => {}, undefined, { routing: 'subscribed' });
        sender.publish({ type: 'broadcast', appId: 'app', channel: 'presence-p', frame: 'before' });
        await expect.poll(() => received).toEqual(['before']);

        // Redis stops answering: this PUBLISH is sent, times out unanswered and is put back, numbered.
        process.kill(server.pid, 'SIGSTOP');
        sender.publish({ type: 'broadcast', appId: 'app', channel: 'presence-p', frame: 'in-flight' });
        await expect.poll(() => sender.connected, { timeout: 5_000 }).toBe(false);
        // A user joins during the outage: announced to the other nodes once the sender is back.
        await sender.addConnection('app', 's.1');
        await sender.joinPresence('app', 'presence-p', 's.1', { userId: 'u9', userInfo: '{}' }, 100);

        // Killed while stopped: it never runs the PUBLISH it holds, so the resend is the only copy.
        await server.kill();
        server = await startRedisServer(port);
        await expect.poll(() => received.length, { timeout: 15_000 }).toBe(3);
        // The announcement may go first or after the resent message; both must arrive, once.
        expect([...received].sort()).toEqual(['before', 'in-flight', 'member-added:u9']);
        expect(receiver.stats.missedMessages).toBe(0);
        // Only what Redis had confirmed before the outage and the sender sent again arrives twice: dropped, counted.
        expect(receiver.stats.duplicateMessages).toBe(sender.stats.replayedMessages);
      } finally {
        await Promise.all([receiver.close(), sender.close()]);
        await server.kill();
      }
    });
  });
}
