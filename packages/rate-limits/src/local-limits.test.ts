import { describe, expect, it } from 'vitest';
import { rateLimitCounters } from './allowances.js';
import { createRateLimits, type RateLimits } from './create-rate-limits.js';
import type { RateLimitRefusal } from './decision.js';
import { MAX_POINTS_PER_WINDOW } from './window-counters.js';

type Kind = 'backend_events' | 'read';

/** How many points of `kind` a key may spend at once before a refusal. */
async function allowance<K extends string>(limits: RateLimits<K>, key: string, kind: K): Promise<number> {
  let spent = 0;
  while ((await limits.consume(key, kind, 1)).allowed) spent++;
  return spent;
}

describe('local rate limits', () => {
  it('give each listed key its own allowance, else the default, resolved once when built', async () => {
    const allowances = { default: { backend_events: 2, read: 4 }, keys: { own: { backend_events: 3, read: 1 }, half: { read: 5 } } };
    const limits = createRateLimits({ allowances });
    // Built: later changes to the allowances object do not reach the limits (they are not looked up per request).
    allowances.keys.own.backend_events = 100;
    allowances.default.read = 100;
    expect(await allowance(limits, 'own', 'backend_events')).toBe(3);
    expect(await allowance(limits, 'own', 'read')).toBe(1);
    expect(await allowance(limits, 'half', 'backend_events')).toBe(2); // a kind left out takes the default
    expect(await allowance(limits, 'half', 'read')).toBe(5);
    expect(await allowance(limits, 'other', 'backend_events')).toBe(2);
    expect(await allowance(limits, 'other', 'read')).toBe(4);
    await limits.close();
  });

  it('answers a refusal with whole seconds to wait', async () => {
    const limits = createRateLimits({ allowances: { default: { read: 1 } } });
    expect(await limits.consume('x', 'read', 1)).toEqual({ allowed: true });
    expect(await limits.consume('x', 'read', 1)).toEqual({ allowed: false, retryAfterSeconds: 1 });
    await limits.close();
  });

  it('refuses a request costing more than the whole allowance with the limit, not a time to wait', async () => {
    const limits = createRateLimits({ allowances: { default: { backend_events: 3 } } });
    expect(await limits.consume('x', 'backend_events', 4)).toEqual({ allowed: false, limit: 3 });
    expect(await limits.consume('x', 'backend_events', 3)).toEqual({ allowed: true }); // and it spent nothing
    await limits.close();
  });

  it('caps an allowance beyond what a window can count, and says so in the limit', async () => {
    const limits = createRateLimits({ allowances: { default: { read: Number.MAX_SAFE_INTEGER } } });
    expect(await limits.consume('x', 'read', MAX_POINTS_PER_WINDOW + 1)).toEqual({ allowed: false, limit: MAX_POINTS_PER_WINDOW });
    expect(await limits.consume('x', 'read', MAX_POINTS_PER_WINDOW)).toEqual({ allowed: true });
  });

  it('counts every key it does not list in one set of counters, so its memory is fixed by the allowances', async () => {
    const limits = createRateLimits({ allowances: { default: { read: 2 }, keys: { listed: { read: 2 } } } });
    expect((await limits.consume('first-stranger', 'read', 1)).allowed).toBe(true);
    expect((await limits.consume('second-stranger', 'read', 1)).allowed).toBe(true);
    expect((await limits.consume('third-stranger', 'read', 1)).allowed).toBe(false);
    expect((await limits.consume('listed', 'read', 2)).allowed).toBe(true);
  });

  it('plugs into @org/rest-api as rateLimit: consume keyed by the app id', async () => {
    const limits = createRateLimits({ allowances: { default: { backend_events: 5, read: 5 }, keys: { chat: { backend_events: 1 } } } });
    expect(await limits.rateLimit({ id: 'chat' }, 'backend_events', 1)).toEqual({ allowed: true });
    expect(await limits.rateLimit({ id: 'chat' }, 'backend_events', 1)).toEqual({ allowed: false, retryAfterSeconds: 1 });
    expect(await limits.consume('chat', 'backend_events', 1)).toEqual({ allowed: false, retryAfterSeconds: 1 });
  });

  it('reports each refusal to onRefused, after deciding it, and nothing that was allowed', async () => {
    const refusals: [string, Kind, RateLimitRefusal][] = [];
    const limits = createRateLimits<Kind>({ allowances: { default: { backend_events: 2, read: 1 } }, onRefused: (key, kind, refusal) => refusals.push([key, kind, refusal]) });
    await limits.consume('a', 'read', 1);
    await limits.consume('a', 'read', 1);
    await limits.consume('a', 'backend_events', 3);
    await limits.consume('a', 'backend_events', 2);
    expect(refusals).toEqual([
      ['a', 'read', { allowed: false, retryAfterSeconds: 1 }],
      ['a', 'backend_events', { allowed: false, limit: 2 }],
    ]);
  });

  it('hold one allowance for every limiter built over the same shared counters, as worker threads do', async () => {
    const allowances = { default: { read: 3 }, keys: { app: { read: 4 } } };
    const counters = rateLimitCounters(allowances);
    // Each worker thread builds its own limits from the allowances and the buffer it was handed.
    const [one, two] = [createRateLimits({ allowances, counters }), createRateLimits({ allowances, counters })];
    const decisions = [];
    for (let i = 0; i < 6; i++) decisions.push((await (i % 2 ? two : one).consume('app', 'read', 1)).allowed);
    expect(decisions).toEqual([true, true, true, true, false, false]);
    // Without the buffer, a limiter counts on its own.
    expect((await createRateLimits({ allowances }).consume('app', 'read', 1)).allowed).toBe(true);
  });

  it('resolves ready() at once without Redis', async () => {
    const limits = createRateLimits({ allowances: { default: { read: 1 } } });
    await expect(limits.ready()).resolves.toBeUndefined();
  });
});

describe('local rate limits for keys named like Object properties', () => {
  it('give a key named __proto__ or constructor its own allowance', async () => {
    const keys = Object.fromEntries([['__proto__', { read: 1 }], ['constructor', { read: 2 }]]);
    const limits = createRateLimits({ allowances: { default: { read: 3 }, keys } });
    expect(await allowance(limits, '__proto__', 'read')).toBe(1);
    expect(await allowance(limits, 'constructor', 'read')).toBe(2);
    expect(await allowance(limits, 'toString', 'read')).toBe(3);
  });
});
