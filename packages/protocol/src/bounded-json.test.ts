import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nestsDeeperThan, parseBoundedJson, stringifyOrUndefined } from './bounded-json.js';

/** Nesting depth of a parsed value, iteratively (the values here can be deeper than the stack allows). */
function depthOf(value: unknown): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!;
    if (typeof current !== 'object' || current === null) continue;
    deepest = Math.max(deepest, depth + 1);
    for (const child of Object.values(current)) stack.push([child, depth + 1]);
  }
  return deepest;
}

describe('nestsDeeperThan', () => {
  it('agrees with the depth of the parsed value for any JSON', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 12 }), fc.integer({ min: 0, max: 12 }), (value, limit) => {
        const text = JSON.stringify(value);
        expect(nestsDeeperThan(text, limit)).toBe(depthOf(value) > limit && text.length > 2 * limit);
      }),
    );
  });

  it('does not count brackets inside strings, escaped quotes included', () => {
    expect(nestsDeeperThan(JSON.stringify({ a: '[[[[[[[[[[[[', b: '\\"[[[[[[[[[[[[' }), 2)).toBe(false);
    expect(nestsDeeperThan('[[["\\\\"]]]', 2)).toBe(true);
  });

  it('never throws on arbitrary text', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 200 }), fc.nat(100), (text, limit) => void nestsDeeperThan(text, limit)));
  });
});

describe('parseBoundedJson', () => {
  it('refuses 100,000 levels before parsing, and parses what is within the limit', () => {
    expect(parseBoundedJson('['.repeat(100_000) + ']'.repeat(100_000), 64)).toEqual({ ok: false, problem: 'depth' });
    expect(parseBoundedJson('[[1]]', 64)).toEqual({ ok: true, value: [[1]] });
    expect(parseBoundedJson('{"a":', 64)).toEqual({ ok: false, problem: 'syntax' });
  });

  it('never throws, and whatever it accepts can be stringified again', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 300 }), fc.jsonValue().map((v) => JSON.stringify(v)), fc.nat(3_000).map((n) => '{"a":'.repeat(n) + '0' + '}'.repeat(n))), (text) => {
        const parsed = parseBoundedJson(text, 64);
        if (parsed.ok) expect(typeof stringifyOrUndefined(parsed.value)).toBe('string');
      }),
    );
  });
});

describe('stringifyOrUndefined', () => {
  it('answers undefined for cycles, BigInt and stack-deep values instead of throwing', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic['self'] = cyclic;
    const deep = JSON.parse('['.repeat(20_000) + ']'.repeat(20_000)) as unknown;
    expect(stringifyOrUndefined(cyclic)).toBeUndefined();
    expect(stringifyOrUndefined(1n)).toBeUndefined();
    expect(stringifyOrUndefined(deep)).toBeUndefined();
    expect(stringifyOrUndefined({ a: 1 })).toBe('{"a":1}');
  });
});
