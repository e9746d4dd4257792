import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { nestsDeeperThan } from '@org/protocol';
import { signedFetch, startApi, type ApiFixture } from '../test/support/test-fixture.js';

const arrays = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

describe('nestsDeeperThan', () => {
  it('counts the outermost value as level 1', () => {
    expect(nestsDeeperThan('{}', 1)).toBe(false);
    expect(nestsDeeperThan('{"a":[]}', 1)).toBe(true);
    expect(nestsDeeperThan(arrays(64), 64)).toBe(false);
    expect(nestsDeeperThan(arrays(65), 64)).toBe(true);
    expect(nestsDeeperThan(`{"a":1,"b":${arrays(63)}}`, 64)).toBe(false);
  });

  it('counts siblings by their own depth, not their sum', () => {
    expect(nestsDeeperThan(`[${Array.from({ length: 100 }, () => arrays(3)).join(',')}]`, 4)).toBe(false);
  });

  it('ignores brackets inside strings, also after escaped quotes and backslashes', () => {
    expect(nestsDeeperThan(JSON.stringify({ data: arrays(5_000) }), 64)).toBe(false);
    expect(nestsDeeperThan(`{"a":"\\"[[[[","b":"\\\\"}`, 1)).toBe(false);
    expect(nestsDeeperThan(`{"a":"\\\\",[[]]}`, 2)).toBe(true);
  });
});

/** Nesting depth of a parsed value, without recursion (the outermost array or object is level 1). */
function depthOf(value: unknown): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [current, level] = stack.pop()!;
    if (typeof current !== 'object' || current === null) continue;
    deepest = Math.max(deepest, level);
    for (const child of Object.values(current)) stack.push([child, level + 1]);
  }
  return deepest;
}

describe('nestsDeeperThan agrees with the parsed value', () => {
  // Strings full of brackets, quotes and backslashes are what a text scan can get wrong.
  const trickyString = fc.string({ unit: fc.constantFrom('[', ']', '{', '}', '"', '\\', 'a', '\u00e9', '\\"') });
  const value = fc.letrec<{ value: unknown }>((tie) => ({
    value: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      fc.oneof(fc.integer(), fc.boolean(), fc.constant(null), trickyString),
      fc.array(tie('value'), { maxLength: 3 }),
      fc.dictionary(trickyString, tie('value'), { maxKeys: 3 }),
    ),
  })).value;

  it('for any JSON value and limit', () => {
    fc.assert(
      fc.property(value, fc.integer({ min: 1, max: 8 }), (json, limit) => {
        const text = JSON.stringify(json);
        expect(nestsDeeperThan(text, limit)).toBe(depthOf(json) > limit);
      }),
      { numRuns: 500 },
    );
  });

  it('on any text: never throws, and agrees with the parser whenever the text is JSON', () => {
    const text = fc.string({ unit: fc.constantFrom('[', ']', '{', '}', '"', '\\', ':', ',', '1', 'a', ' ', '\u0000'), maxLength: 200 });
    fc.assert(
      fc.property(text, fc.integer({ min: 1, max: 8 }), (candidate, limit) => {
        const exceeds = nestsDeeperThan(candidate, limit);
        let parsed: unknown;
        try {
          parsed = JSON.parse(candidate);
        } catch {
          return;
        }
        expect(exceeds).toBe(depthOf(parsed) > limit);
      }),
      { numRuns: 500 },
    );
  });
});

describe('maxJsonDepth on request bodies', () => {
  let api: ApiFixture | undefined;
  afterEach(async () => {
    await api?.close();
    api = undefined;
  });

  const post = (fixture: ApiFixture, path: string, body: string) => signedFetch(fixture.baseUrl, { method: 'POST', path: `/apps/app-1${path}`, body });

  // The minimal counterexample of the property tests: 5,000-level arrays where an event field should be.
  it('answers 400 naming the limit for 5,000-level arrays in event data, and publishes nothing', async () => {
    api = await startApi({ maxRequestSize: 20_000 });
    const socket = await api.subscriber('a');
    for (const [path, body] of [
      ['/events', `{"name":"e","channel":"a","data":${arrays(5_000)}}`],
      ['/batch_events', `{"batch":[{"name":"e","channel":"a","data":${arrays(5_000)}}]}`],
      ['/events', arrays(5_000)],
    ] as const) {
      const response = await post(api, path, body);
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ error: 'the request body nests JSON deeper than 64 levels (maxJsonDepth)', code: 400 });
    }
    expect(socket.events('e')).toEqual([]);
  });

  it('accepts a body exactly maxJsonDepth deep and refuses one level more', async () => {
    api = await startApi({ maxJsonDepth: 3 });
    const socket = await api.subscriber('a');
    const atLimit = await post(api, '/batch_events', '{"batch":[{"name":"e","channel":"a","data":"x"}]}');
    expect(atLimit.status).toBe(200);
    const over = await post(api, '/events', '{"name":"e","channel":"a","data":"x","extra":[[[]]]}');
    expect(over.status).toBe(400);
    expect(await over.json()).toEqual({ error: 'the request body nests JSON deeper than 3 levels (maxJsonDepth)', code: 400 });
    expect(socket.events('e')).toHaveLength(1);
  });

  it('refuses a data string that is deeply nested JSON (clients parse it and would overflow their stacks), publishing nothing', async () => {
    api = await startApi({ maxRequestSize: 20_000 });
    const socket = await api.subscriber('a');
    const response = await post(api, '/events', JSON.stringify({ name: 'e', channel: 'a', data: arrays(4_000) }));
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: 'event data nests JSON deeper than 64 levels', code: 400 });
    expect(socket.events('e')).toEqual([]);
  });
});
