import fc from 'fast-check';
import { Cluster } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { hashedPart, keySlot, slotCount } from './key-slot.js';
import { clusterSkipMessage, inCI, testClusterNodes } from '../test/support/test-redis.js';

describe('key slot', () => {
  it('follows the CLUSTER KEYSLOT examples', () => {
    // Values Redis answers (CLUSTER KEYSLOT), and its hash tag rule.
    expect(keySlot('foo')).toBe(12182);
    expect(keySlot('{user1000}.following')).toBe(keySlot('user1000'));
    expect(hashedPart('foo{}{bar}')).toBe('foo{}{bar}');
    expect(hashedPart('foo{{bar}}zap')).toBe('{bar');
    expect(hashedPart('{realtime}:bus')).toBe('realtime');
  });

  it('never throws and stays within the slot range for any name', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (name) => {
        const slot = keySlot(name);
        expect(Number.isInteger(slot) && slot >= 0 && slot < slotCount).toBe(true);
      }),
    );
  });
});

const nodes = testClusterNodes();
if (nodes) {
  describe('key slot against a Redis Cluster', () => {
    const cluster = new Cluster(nodes);
    afterAll(() => cluster.disconnect());
    it('agrees with CLUSTER KEYSLOT on arbitrary names', async () => {
      await fc.assert(
        fc.asyncProperty(fc.string({ unit: 'grapheme', maxLength: 40 }), async (name) => {
          expect(keySlot(name)).toBe(await cluster.cluster('KEYSLOT', name));
        }),
        { numRuns: 200 },
      );
    });
  });
} else {
  describe('key slot against a Redis Cluster', () => {
    it('needs a Redis Cluster', () => {
      console.warn(clusterSkipMessage);
      expect(inCI).toBe(false);
    });
  });
}
