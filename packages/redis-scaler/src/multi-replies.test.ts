import { describe, expect, it } from 'vitest';
import { MultiReplies } from './multi-replies.js';
import type { ScriptPipeline } from './scripts.js';
import { redisClientFixture } from '../test/support/scaler-fixture.js';
import { inCI, skipMessage, testRedis, uniquePrefix } from '../test/support/test-redis.js';

const redis = await testRedis();

if (redis) {
  const client = redisClientFixture(redis);

  describe('MULTI replies read by the command that asked', () => {
    it('hands each reply to the reader queued with its command, whatever came between', async () => {
      const key = uniquePrefix('multi');
      const batch = new MultiReplies(client.multi() as ScriptPipeline);
      const read: Record<string, unknown> = {};
      batch.queue((m) => m.set(`${key}:a`, 'one'));
      batch.queue((m) => m.incrby(`${key}:n`, 5), (reply) => (read['incr'] = reply));
      for (let i = 0; i < 10; i++) batch.queue((m) => m.sadd(`${key}:s`, String(i)));
      batch.queue((m) => m.get(`${key}:a`), (reply) => (read['get'] = reply));
      batch.queue((m) => m.scard(`${key}:s`), (reply) => (read['scard'] = reply));
      expect(batch.size).toBe(14);
      expect(batch.read(await batch.multi.exec())).toBeUndefined();
      expect(read).toEqual({ incr: 5, get: 'one', scard: 10 });
      await client.del(`${key}:a`, `${key}:n`, `${key}:s`);
    });

    it('reads nothing and returns the error when any command failed', async () => {
      const key = uniquePrefix('multi-fail');
      await client.set(`${key}:text`, 'not a number');
      const batch = new MultiReplies(client.multi() as ScriptPipeline);
      const read: unknown[] = [];
      batch.queue((m) => m.get(`${key}:text`), (reply) => read.push(reply));
      batch.queue((m) => m.incr(`${key}:text`), (reply) => read.push(reply));
      const error = batch.read(await batch.multi.exec());
      expect(error?.message).toMatch(/not an integer/);
      expect(read).toEqual([]);
      expect(batch.read(null)?.message).toMatch(/discarded/);
      await client.del(`${key}:text`);
    });
  });
} else {
  describe('MULTI replies', () => {
    it('needs Redis', () => {
      console.warn(skipMessage);
      expect(inCI).toBe(false);
    });
  });
}
