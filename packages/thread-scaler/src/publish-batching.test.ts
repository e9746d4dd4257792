import { describe, expect, it } from 'vitest';
import type { ClusterMessage } from '@org/protocol';
import { createPortScaler, type ScalerPort } from './port-scaler.js';
import { createScalerHub } from './scaler-hub.js';
import { handPort } from './testing/index.js';

const broadcast = (n: number): ClusterMessage => ({ type: 'broadcast', appId: 'app', channel: 'c', frame: String(n) });

describe('publishing between threads', () => {
  it('sends the messages of one event-loop turn as one port message, in order, before any later call', async () => {
    const { port, posted, deliver } = handPort<ScalerPort>();
    const scaler = createPortScaler(port, { nodeId: 'w' });
    for (let n = 0; n < 5; n++) scaler.publish(broadcast(n));
    expect(posted).toEqual([]);
    const counted = scaler.connectionCount('app');
    expect(posted[0]).toEqual({ k: 'publish', messages: [0, 1, 2, 3, 4].map(broadcast) });
    expect(posted[1]).toMatchObject({ k: 'call', m: 'connectionCount' });
    deliver({ k: 'reply', id: (posted[1] as { id: number }).id, ok: true, v: 0 });
    await counted;
    scaler.publish(broadcast(5));
    await new Promise((resolve) => setImmediate(resolve));
    expect(posted[2]).toEqual({ k: 'publish', messages: [broadcast(5)] });
  });

  it('delivers a batch to each other node in order, each message once, none back to the sender', async () => {
    const hub = createScalerHub();
    const [a, b, c] = [hub.node('a'), hub.node('b'), hub.node('c')];
    const received: Record<string, ClusterMessage[]> = { a: [], b: [], c: [] };
    await a.start((message) => received['a']!.push(message));
    await b.start((message) => received['b']!.push(message));
    await c.start((message) => received['c']!.push(message), undefined, { routing: 'subscribed' });
    for (let n = 0; n < 100; n++) a.publish(broadcast(n));
    await expect.poll(() => received['b']!.length).toBe(100);
    expect(received['b']).toEqual(Array.from({ length: 100 }, (_, n) => broadcast(n)));
    expect(received['a']).toEqual([]);
    // c routes by subscription and has none in `c`: nothing crossed to it.
    expect(received['c']).toEqual([]);
    expect(hub.stats).toMatchObject({ forwarded: 100, skipped: 100 });
    await Promise.all([a.close(), b.close(), c.close()]);
    hub.close();
  });
});

describe('what a worker does not send', () => {
  it('keeps a channel message at home while no other node listens, and sends it from the moment another node\'s subscription resolved', async () => {
    const hub = createScalerHub();
    const x = hub.node('x');
    const y = hub.node('y') as ReturnType<typeof hub.node> & { stats: { unsent: number } };
    const atX: ClusterMessage[] = [];
    await x.start((message) => atX.push(message), undefined, { routing: 'subscribed' });
    await y.start(() => {}, undefined, { routing: 'subscribed' });
    y.publish(broadcast(0));
    y.publish({ type: 'terminate-user', appId: 'app', userId: 'u' });
    expect(y.stats.unsent).toBe(1);
    for (let round = 1; round <= 200; round++) {
      // A channel nobody listened to until now: x's first subscriber.
      await x.addSubscription('app', `c${round}`, '1.1');
      // No wait: y's very next publish must already reach x.
      y.publish({ type: 'broadcast', appId: 'app', channel: `c${round}`, frame: String(round) });
    }
    await expect.poll(() => atX.filter((message) => message.type === 'broadcast').length).toBe(200);
    expect(atX[0]).toEqual({ type: 'terminate-user', appId: 'app', userId: 'u' });
    await Promise.all([x.close(), y.close()]);
    hub.close();
  });
});
