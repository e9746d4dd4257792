import { afterEach, describe, expect, it, vi } from 'vitest';
import type { HubPort } from './hub-node.js';
import { createScalerHub, type ScalerHub } from './scaler-hub.js';
import { handPort } from './testing/index.js';
import { ScalerHubError } from './errors.js';

let hub: ScalerHub | undefined;
afterEach(() => {
  hub?.close();
  vi.useRealTimers();
});

/** Whether `promise` settles within a few real loop turns (the hub's ack timer is faked, so only a call that does not wait can). */
async function settlesSoon(promise: Promise<unknown>): Promise<boolean> {
  let settled = false;
  void promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  for (let turn = 0; turn < 50 && !settled; turn++) await new Promise((resolve) => setImmediate(resolve));
  return settled;
}

describe('a node that does not ack interest changes', () => {
  it('delays one first subscription by the ack bound, then no other until it acks again', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    hub = createScalerHub();
    const stuck = handPort<HubPort>();
    hub.attach(stuck.port, 'stuck');
    stuck.deliver({ k: 'start', id: 0, routing: 'subscribed' });
    const healthy = hub.node('healthy');
    await healthy.start(() => {}, undefined, { routing: 'subscribed' });

    const first = healthy.addSubscription('app', 'one', '1.1');
    expect(await settlesSoon(first)).toBe(false);
    vi.advanceTimersByTime(1_000);
    expect(await settlesSoon(first)).toBe(true);

    // Past the missed ack, nobody waits for it.
    expect(await settlesSoon(healthy.addSubscription('app', 'two', '1.1'))).toBe(true);

    // Once it acks again, calls wait for it again.
    stuck.deliver({ k: 'ack', id: 12345 });
    const third = healthy.addSubscription('app', 'three', '1.1');
    expect(await settlesSoon(third)).toBe(false);
    const told = stuck.posted.findLast((message) => (message as { k: string }).k === 'interest') as { id: number };
    stuck.deliver({ k: 'ack', id: told.id });
    expect(await settlesSoon(third)).toBe(true);
  });
});

describe('a call after close', () => {
  it('is answered HUB_GONE instead of never', async () => {
    hub = createScalerHub();
    const node = handPort<HubPort>();
    hub.attach(node.port, 'closing');
    node.deliver({ k: 'close', id: 1 });
    node.deliver({ k: 'call', id: 2, m: 'connectionCount', a: ['app'] });
    expect(node.posted.at(-1)).toEqual({ k: 'reply', id: 2, ok: false, code: 'HUB_GONE', message: 'this node was closed' });
    expect(new ScalerHubError('HUB_GONE', 'x').code).toBe('HUB_GONE');
  });
});
