import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createRateLimits } from './create-rate-limits.js';
import type { RateLimitDecision } from './decision.js';

afterEach(() => {
  vi.useRealTimers();
});

const kinds = ['read', 'write'] as const;
type Kind = (typeof kinds)[number];

describe('local rate limits against a model', () => {
  it('decide every consume as a model of per-key windows does, unlisted keys sharing one, and report each refusal', async () => {
    const allowance = fc.integer({ min: 1, max: 30 });
    const step = fc.record({
      key: fc.constantFrom('a', 'b', 'stranger-1', 'stranger-2'),
      kind: fc.constantFrom(...kinds),
      points: fc.integer({ min: 1, max: 35 }),
      // Mostly within the same second; sometimes a jump, forward or back.
      advanceMs: fc.oneof(fc.integer({ min: 0, max: 300 }), fc.integer({ min: -3_000, max: 30_000 })),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.record({ read: allowance, write: allowance }),
        fc.record({ read: allowance }),
        fc.array(step, { maxLength: 120 }),
        async (defaults, ofA, steps) => {
          vi.useFakeTimers({ toFake: ['Date'] });
          let now = Date.UTC(2026, 0, 1);
          vi.setSystemTime(now);
          const refusals: [string, Kind, RateLimitDecision][] = [];
          const limits = createRateLimits<Kind>({
            allowances: { default: defaults, keys: { a: ofA, b: {} } },
            onRefused: (key, kind, refusal) => refusals.push([key, kind, refusal]),
          });
          const windows = new Map<string, { start: number; spent: number }>();
          const expectedRefusals: [string, Kind, RateLimitDecision][] = [];
          for (const { key, kind, points, advanceMs } of steps) {
            now += advanceMs;
            vi.setSystemTime(now);
            const counter = `${key.startsWith('stranger') ? 'others' : key}/${kind}`;
            const limit = key === 'a' && kind === 'read' ? ofA.read : defaults[kind];
            const window = windows.get(counter);
            const open = window !== undefined && Math.abs(now - window.start) < 1_000;
            const spent = open ? window.spent : 0;
            let expected: RateLimitDecision;
            if (points > limit) expected = { allowed: false, limit };
            else if (spent + points > limit) expected = { allowed: false, retryAfterSeconds: 1 };
            else {
              expected = { allowed: true };
              windows.set(counter, { start: open ? window.start : now, spent: spent + points });
            }
            if (!expected.allowed) expectedRefusals.push([key, kind, expected]);
            expect(await limits.consume(key, kind, points)).toEqual(expected);
          }
          expect(refusals).toEqual(expectedRefusals);
          vi.useRealTimers();
        },
      ),
    );
  });
});
