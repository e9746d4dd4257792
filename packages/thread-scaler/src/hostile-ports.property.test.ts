import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createPortScaler, type ScalerPort } from './port-scaler.js';
import type { HubPort } from './hub-node.js';
import { createScalerHub } from './scaler-hub.js';
import { handPort, snapshot } from './testing/index.js';
import { ScalerHubError } from './errors.js';
import { isClusterMessage, isNodeLoss } from './value-checks.js';
import { hubMethods, type HubMethod } from './wire.js';

const methods = Object.keys(hubMethods) as HubMethod[];

/** A value of the kind an argument needs. */
const validArgument = (kind: string): unknown =>
  kind === 'member' ? { userId: 'u', userInfo: '{}' } : kind === 'string' || kind === 'optional-string' ? 's' : kind === 'held' ? [] : kind === 'strings' ? ['u'] : 1;

/** A value that is not of the kind an argument needs. */
const wrongFor = (kind: string): fc.Arbitrary<unknown> => {
  const anyNonString = fc.oneof(fc.integer(), fc.constant(null), fc.boolean(), fc.array(fc.string(), { maxLength: 2 }), fc.dictionary(fc.string(), fc.string(), { maxKeys: 2 }));
  switch (kind) {
    case 'string':
      return anyNonString;
    case 'optional-string':
      return fc.oneof(fc.integer(), fc.constant(null), fc.boolean(), fc.array(fc.string(), { maxLength: 2 }));
    case 'strings':
      return fc.oneof(fc.string(), fc.constant(undefined), fc.constant(null), fc.constant([1]), fc.constant(['u', null]), fc.dictionary(fc.string(), fc.string(), { maxKeys: 2 }));
    case 'held':
      return fc.oneof(fc.string(), fc.integer(), fc.constant([{ channel: 1 }]), fc.constant([{ channel: 'c', presenceUserId: 5 }]), fc.constant([null]));
    case 'member':
      return fc.oneof(fc.string(), fc.constant(null), fc.constant({ userId: 1, userInfo: '{}' }), fc.constant({ userId: 'u' }));
    case 'limit':
      return fc.oneof(fc.string(), fc.constant(Number.NaN), fc.constant(-1), fc.constant(null));
    default:
      return fc.oneof(fc.string(), fc.constant(0), fc.constant(-5), fc.constant(Number.POSITIVE_INFINITY), fc.constant(Number.NaN));
  }
};

/** A call of a real method with a readable id and exactly one argument of the wrong kind (or too many arguments). */
const malformedCall = fc
  .record({ method: fc.constantFrom(...methods), id: fc.nat(), seed: fc.nat(), extra: fc.boolean() })
  .chain(({ method, id, seed, extra }): fc.Arbitrary<{ message: unknown; id: number }> => {
    const kinds: readonly string[] = hubMethods[method];
    const args = kinds.map((kind) => validArgument(kind));
    if (extra) return fc.constant({ message: { k: 'call', id, m: method, a: [...args, 'one too many'] }, id });
    const at = seed % kinds.length;
    return wrongFor(kinds[at]!).map((wrong) => ({ message: { k: 'call', id, m: method, a: args.map((arg, index) => (index === at ? wrong : arg)) }, id }));
  });

/** Requests with a readable id but an unreadable rest, and things that are no request at all. */
const unreadableWithId: fc.Arbitrary<{ message: unknown; id: number }> = fc.oneof(
  malformedCall,
  fc.record({ id: fc.nat(), m: fc.string() }).map(({ id, m }) => ({ message: { k: 'call', id, m: methods.includes(m as HubMethod) ? `${m}!` : m, a: [] }, id })),
  fc.record({ id: fc.nat(), routing: fc.anything() }).map(({ id, routing }) => ({ message: { k: 'start', id, routing: routing === 'all' || routing === 'subscribed' ? 'some' : routing }, id })),
  fc.record({ id: fc.nat(), k: fc.string() }).map(({ id, k }) => ({ message: { k: ['call', 'start', 'close', 'publish', 'ack'].includes(k) ? `${k}?` : k, id }, id })),
);
const noRequest = fc.oneof(
  fc.anything(),
  fc.record({ k: fc.constant('publish'), messages: fc.anything() }),
  fc.record({ k: fc.constant('publish'), messages: fc.array(fc.record({ type: fc.constantFrom('broadcast', 'member-added', 'terminate-user'), appId: fc.anything(), channel: fc.anything() }), { minLength: 1, maxLength: 3 }) }),
  // One unreadable message refuses the whole batch: nothing of it is forwarded.
  fc.anything().map((bad) => ({ k: 'publish', messages: [{ type: 'broadcast', appId: 'a', channel: 'c', frame: '{}' }, { bad }] })),
  fc.record({ k: fc.constantFrom('call', 'start', 'close'), id: fc.oneof(fc.constant(-1), fc.constant(1.5), fc.string(), fc.constant(null)) }),
);

async function seededHub() {
  const hub = createScalerHub();
  const node = hub.node('seeded');
  await node.addConnection('app', '1.1');
  await node.addSubscription('app', 'presence-room', '1.1');
  await node.joinPresence('app', 'presence-room', '1.1', { userId: 'alice', userInfo: '{}' }, 10);
  await node.storeCachedEvent('app', 'cache-x', '{}', 60);
  return hub;
}

describe("the hub's port under hostile input", () => {
  it('answers a request with a readable id but unreadable content with one INVALID_REQUEST reply, changing nothing', async () => {
    const hub = await seededHub();
    const before = snapshot(hub.state);
    const { port, deliver, posted } = handPort<HubPort>();
    hub.attach(port, 'hostile');
    fc.assert(
      fc.property(unreadableWithId, ({ message, id }: { message: unknown; id: number }) => {
        posted.length = 0;
        expect(() => deliver(message)).not.toThrow();
        expect(posted).toEqual([{ k: 'reply', id, ok: false, code: 'INVALID_REQUEST', message: expect.any(String) }]);
        expect(snapshot(hub.state)).toEqual(before);
      }),
      { numRuns: 500 },
    );
    expect(hub.stats.invalid).toBeGreaterThan(0);
    hub.close();
  });

  it('ignores what is no request at all (no reply, no throw, nothing changed, nothing forwarded)', async () => {
    const hub = await seededHub();
    const before = snapshot(hub.state);
    const { port, deliver, posted } = handPort<HubPort>();
    hub.attach(port, 'hostile');
    const other = handPort<HubPort>();
    hub.attach(other.port, 'listener');
    other.deliver({ k: 'start', id: 0, routing: 'all' });
    // The hub asked the hostile node to send everything to the new 'all' node; it never answers, and the start is answered after a bound.
    await expect.poll(() => other.posted.some((message) => (message as { k: string }).k === 'reply'), { timeout: 5_000 }).toBe(true);
    other.posted.length = 0;
    posted.length = 0;
    fc.assert(
      fc.property(noRequest, (message) => {
        expect(() => deliver(message)).not.toThrow();
        expect(posted).toEqual([]);
        expect(other.posted).toEqual([]);
        expect(snapshot(hub.state)).toEqual(before);
      }),
      { numRuns: 500 },
    );
    hub.close();
  });
});

describe("a worker's scaler port under hostile input", () => {
  it('never throws, never hands an unreadable message to the engine, and fails a call whose answer is unreadable with INVALID_REPLY', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.anything(), { maxLength: 20 }), fc.constantFrom(...methods), fc.anything(), async (garbage, method, answer) => {
        const { port, deliver, posted } = handPort<ScalerPort>();
        const scaler = createPortScaler(port, { nodeId: 'w' });
        const handed: unknown[] = [];
        const lost: unknown[] = [];
        const started = scaler.start((message) => handed.push(message), (loss) => lost.push(loss));
        deliver({ k: 'reply', id: 0, ok: true, v: undefined });
        await started;
        for (const value of garbage) expect(() => deliver(value)).not.toThrow();
        expect(() => deliver({ k: 'messages', messages: [{ type: 'broadcast', appId: 1 }, null, 'x'] })).not.toThrow();
        expect(() => deliver({ k: 'lost', loss: { members: 'all' } })).not.toThrow();
        // Only what passed the checks reaches the engine.
        expect(handed.every(isClusterMessage)).toBe(true);
        expect(lost.every(isNodeLoss)).toBe(true);

        const kinds: readonly string[] = hubMethods[method];
        const args = kinds.map((kind) => validArgument(kind));
        const call = (scaler[method] as (...a: unknown[]) => Promise<unknown>)(...args);
        const { id } = posted.at(-1) as { id: number };
        // An answer of the wrong shape for this method: a number where a count is due is valid, so wrap it.
        deliver({ k: 'reply', id, ok: true, v: { unreadable: answer } });
        await expect(call).rejects.toSatisfy((error) => error instanceof ScalerHubError && error.code === 'INVALID_REPLY');
      }),
      { numRuns: 200 },
    );
  });

  it('fails the calls in flight with HUB_GONE when the port closes, and every later call too', async () => {
    const { port, closeFromOtherSide } = handPort<ScalerPort>();
    const scaler = createPortScaler(port, { nodeId: 'w' });
    const inFlight = scaler.connectionCount('app');
    closeFromOtherSide();
    await expect(inFlight).rejects.toMatchObject({ code: 'HUB_GONE' });
    await expect(scaler.addConnection('app', '1.1')).rejects.toMatchObject({ code: 'HUB_GONE' });
    await expect(scaler.close()).resolves.toBeUndefined();
  });
});
