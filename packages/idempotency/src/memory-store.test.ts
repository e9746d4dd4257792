import * as vitest from 'vitest';
import { describe, expect, it } from 'vitest';
import { createMemoryStore } from './memory-store.js';
import { runIdempotencyStoreConformance } from './testing/index.js';

runIdempotencyStoreConformance(vitest, 'memory', {
  clients: (count, { windowMs, inFlightMs }) => {
    const store = createMemoryStore({ windowMs, inFlightMs });
    return Promise.resolve(Array.from({ length: count }, () => store));
  },
});

function fakeClock(start = 1_000_000) {
  let time = start;
  return { now: () => time, advance: (ms: number) => (time += ms) };
}

describe('the memory store', () => {
  it('remembers a key for exactly its window from the first claim', async () => {
    const clock = fakeClock();
    const store = createMemoryStore({ windowMs: 1_000, now: clock.now });
    const claim = await store.claim('app', 'k');
    if (claim.status !== 'first') throw new Error('expected first');
    clock.advance(500);
    await store.complete(claim.token, { status: 200, body: '{}' });
    clock.advance(499);
    expect((await store.claim('app', 'k')).status).toBe('done');
    clock.advance(1);
    expect((await store.claim('app', 'k')).status).toBe('first');
  });

  it('drops expired keys as claims come, so size counts only live ones', async () => {
    const clock = fakeClock();
    const store = createMemoryStore({ windowMs: 1_000, now: clock.now });
    for (let i = 0; i < 5; i++) await store.claim('app', `k${i}`);
    clock.advance(600);
    await store.claim('app', 'late');
    expect(store.size).toBe(6);
    clock.advance(400);
    expect(store.size).toBe(1);
  });

  it('at maxKeys forgets the oldest key first, so a retry with it is published again, never refused', async () => {
    const clock = fakeClock();
    const store = createMemoryStore({ windowMs: 60_000, maxKeys: 3, now: clock.now });
    for (const key of ['a', 'b', 'c']) {
      await store.claim('app', key);
      clock.advance(1);
    }
    expect((await store.claim('app', 'd')).status).toBe('first');
    expect(store.size).toBe(3);
    expect(store.evicted).toBe(1);
    expect((await store.claim('app', 'b')).status).toBe('in-flight');
    // `a` was forgotten early: its retry is first again (published twice rather than lost), and evicts `b`.
    expect((await store.claim('app', 'a')).status).toBe('first');
    expect(store.evicted).toBe(2);
    expect((await store.claim('app', 'c')).status).toBe('in-flight');
  });

  it('holds at most maxBytes of keys and answers: large answers evict the oldest keys, not grow memory', async () => {
    // An answer can be far larger than `{}` (a trigger to 100 channels with `info` answers every channel's counts):
    // counting keys alone let 100,000 such answers hold gigabytes.
    const clock = fakeClock();
    const store = createMemoryStore({ windowMs: 60_000, maxKeys: 1_000, maxBytes: 10_000, now: clock.now });
    const answer = { status: 200, body: `{"channels":{"${'c'.repeat(3_000)}":{"subscription_count":1}}}` };
    for (const key of ['a', 'b', 'c', 'd']) {
      const claim = await store.claim('app', key);
      if (claim.status !== 'first') throw new Error('expected first');
      await store.complete(claim.token, answer);
      clock.advance(1);
    }
    expect(store.bytes).toBeLessThanOrEqual(10_000);
    expect(store.size).toBe(3);
    expect(store.evicted).toBe(1);
    // The oldest was forgotten early (published again on a retry); the newest are replayed whole.
    expect((await store.claim('app', 'a')).status).toBe('first');
    expect(await store.claim('app', 'd')).toEqual({ status: 'done', answer });
    expect(store.bytes).toBeLessThanOrEqual(10_000);
  });

  it('counts the bytes it holds back down as keys expire, are released or the store closes', async () => {
    const clock = fakeClock();
    const store = createMemoryStore({ windowMs: 1_000, now: clock.now });
    expect(store.bytes).toBe(0);
    const kept = await store.claim('app', 'kept');
    const freed = await store.claim('app', 'freed');
    if (kept.status !== 'first' || freed.status !== 'first') throw new Error('expected first');
    await store.complete(kept.token, { status: 200, body: 'x'.repeat(500) });
    const held = store.bytes;
    expect(held).toBeGreaterThan(500);
    await store.release(freed.token);
    expect(store.bytes).toBeLessThan(held);
    clock.advance(1_000);
    expect(store.size).toBe(0);
    expect(store.bytes).toBe(0);
    await store.claim('app', 'again');
    await store.close();
    expect(store.bytes).toBe(0);
  });

  it('does not let an evicted claim complete its successor', async () => {
    const store = createMemoryStore({ maxKeys: 1 });
    const old = await store.claim('app', 'a');
    await store.claim('app', 'b');
    const again = await store.claim('app', 'a');
    expect(again.status).toBe('first');
    if (old.status === 'first') await store.complete(old.token, { status: 200, body: 'stale' });
    expect(await store.claim('app', 'a')).toEqual({ status: 'in-flight' });
  });

  it('refuses claims once closed', async () => {
    const store = createMemoryStore();
    await store.close();
    await expect(store.claim('app', 'k')).rejects.toMatchObject({ code: 'CLOSED' });
  });

  it('names the option it refuses', () => {
    expect(() => createMemoryStore({ windowMs: 0 })).toThrow(/invalid option windowMs: windowMs must be at least 1 ms/);
    expect(() => createMemoryStore({ maxKeys: 1.5 })).toThrow(/maxKeys must be an integer/);
    expect(() => createMemoryStore({ maxBytes: 100 })).toThrow(/invalid option maxBytes: maxBytes must be at least 1024/);
  });
});
