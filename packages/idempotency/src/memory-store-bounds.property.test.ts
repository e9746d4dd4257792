import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createMemoryStore } from './memory-store.js';
import type { ClaimToken } from './store.js';

type Step =
  | { op: 'claim'; key: number }
  | { op: 'complete'; key: number; bodyLength: number }
  | { op: 'release'; key: number }
  | { op: 'advance'; ms: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ op: fc.constant('claim' as const), key: fc.integer({ min: 0, max: 30 }) }),
  fc.record({ op: fc.constant('complete' as const), key: fc.integer({ min: 0, max: 30 }), bodyLength: fc.integer({ min: 0, max: 3_000 }) }),
  fc.record({ op: fc.constant('release' as const), key: fc.integer({ min: 0, max: 30 }) }),
  fc.record({ op: fc.constant('advance' as const), ms: fc.integer({ min: 0, max: 400 }) }),
);

describe('the memory store\'s bounds, against a model of what it holds', () => {
  it('never holds more than maxKeys keys or maxBytes bytes, whatever the claims, answers and releases, and counts its bytes back to 0 as keys expire', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 80 }), fc.integer({ min: 1, max: 8 }), fc.integer({ min: 1_024, max: 8_000 }), async (steps, maxKeys, maxBytes) => {
        let time = 1_000_000;
        const store = createMemoryStore({ windowMs: 1_000, maxKeys, maxBytes, now: () => time });
        // The model: the tokens of the claims still held, and whether each was answered.
        const tokens = new Map<number, ClaimToken>();
        for (const next of steps) {
          if (next.op === 'advance') time += next.ms;
          else if (next.op === 'claim') {
            const claim = await store.claim('app', `k${next.key}`);
            if (claim.status === 'first') tokens.set(next.key, claim.token);
          } else {
            const token = tokens.get(next.key);
            if (!token) continue;
            if (next.op === 'complete') await store.complete(token, { status: 200, body: 'x'.repeat(next.bodyLength), request: 'digest' });
            else await store.release(token);
          }
          expect(store.size).toBeLessThanOrEqual(maxKeys);
          expect(store.bytes).toBeLessThanOrEqual(maxBytes);
          expect(store.bytes).toBeGreaterThanOrEqual(store.size * 200);
          if (store.size === 0) expect(store.bytes).toBe(0);
        }
        time += 1_000;
        expect(store.size).toBe(0);
        expect(store.bytes).toBe(0);
      }),
      { numRuns: 200 },
    );
  });
});
