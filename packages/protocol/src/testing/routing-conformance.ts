import type { ClusterMessage, Scaler } from '../scaler.js';
import type { TestRunner } from './test-runner.js';

export interface RoutingConformanceOptions {
  /** Creates a fresh scaler (one node), not started: the suite starts it with `{ routing: 'subscribed' }`. */
  create(): Promise<Scaler>;
  /** True when scalers from `create()` share state and a bus. Routing needs several nodes: without, the suite is skipped. */
  multiNode: boolean;
  /** How long the created scalers keep listening to a channel after its last local listener left, in ms. Default 0. */
  lingerMs?: number;
  /** A fresh app id per test keeps tests apart on a shared backend. */
  appId?: () => string;
}

let counter = 0;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A started node and what it received, in order. */
interface Node {
  scaler: Scaler;
  received: ClusterMessage[];
}

const broadcast = (appId: string, channel: string, frame: string, exceptSocketId?: string): ClusterMessage =>
  exceptSocketId === undefined ? { type: 'broadcast', appId, channel, frame } : { type: 'broadcast', appId, channel, frame, exceptSocketId };

/** Whether `received` holds a broadcast with this frame. */
const has = (node: Node, frame: string) => node.received.some((message) => message.type === 'broadcast' && message.frame === frame);

/**
 * The contract of `start(…, { routing: 'subscribed' })` (see `ScalerRouting`) for a scaler that routes:
 * a node hears a channel's `broadcast`, `member-added`, `member-removed` and `subscription-count-changed` only from the moment its
 * `addSubscription` or `joinPresence` for that channel resolved until its last local listener is gone
 * (plus the scaler's linger), and hears node-wide messages (`terminate-user`, `restart`,
 * `#server-to-user-` broadcasts) always; messages arrive exactly as published.
 *
 * Absence is checked without timing: node `c` (a witness, listening all along) proves a message was
 * delivered by the backend, then the subject listens (again) and must receive a later message on the
 * same channel but not the earlier one (messages of one channel keep their order). `@org/redis-scaler`
 * runs it; any scaler that routes should.
 */
export function runRoutingConformance(runner: TestRunner, name: string, options: RoutingConformanceOptions): void {
  const { afterEach, describe, expect, it } = runner;
  const lingerMs = options.lingerMs ?? 0;
  describe.skipIf(!options.multiNode)(`${name} routing conformance`, () => {
    const created: Scaler[] = [];
    const appId = options.appId ?? (() => `routing-${process.pid}-${Date.now()}-${++counter}`);
    afterEach(async () => {
      await Promise.all(created.splice(0).map((scaler) => scaler.close()));
    });

    const node = async (): Promise<Node> => {
      const scaler = await options.create();
      created.push(scaler);
      const received: ClusterMessage[] = [];
      await scaler.start((message) => received.push(message), undefined, { routing: 'subscribed' });
      return { scaler, received };
    };
    const nodes = async () => [await node(), await node(), await node()] as const;

    /** `from` publishes `message`; resolves once `witness` has it (the backend delivered it). */
    const publishSeen = async (from: Node, witness: Node, message: ClusterMessage) => {
      from.scaler.publish(message);
      await expect.poll(() => witness.received.some((m) => JSON.stringify(m) === JSON.stringify(message)), { timeout: 3_000, interval: 5 }).toBe(true);
    };

    it('delivers a channel\'s broadcasts to a node only once its addSubscription resolved, and from then on', async () => {
      const [a, b, c] = await nodes();
      const app = appId();
      await c.scaler.addSubscription(app, 'room', '3.1');
      await publishSeen(a, c, broadcast(app, 'room', 'before'));
      await b.scaler.addSubscription(app, 'room', '2.1');
      // Published right after the subscription resolved: it must arrive.
      const after = broadcast(app, 'room', 'after');
      a.scaler.publish(after);
      await expect.poll(() => has(b, 'after'), { timeout: 3_000, interval: 5 }).toBe(true);
      expect(b.received).toEqual([after]);
    });

    it('routes subscription-count-changed as a channel message: to a node only once its addSubscription resolved', async () => {
      const [a, b, c] = await nodes();
      const app = appId();
      const signal: ClusterMessage = { type: 'subscription-count-changed', appId: app, channel: 'room' };
      await c.scaler.addSubscription(app, 'room', '3.1');
      await publishSeen(a, c, signal);
      await b.scaler.addSubscription(app, 'room', '2.1');
      const after = broadcast(app, 'room', 'after');
      a.scaler.publish(signal);
      a.scaler.publish(after);
      await expect.poll(() => has(b, 'after'), { timeout: 3_000, interval: 5 }).toBe(true);
      expect(b.received).toEqual([signal, after]);
    });

    it('delivers member events (and broadcasts) of a presence channel to a node only once its joinPresence resolved', async () => {
      const [a, b, c] = await nodes();
      const app = appId();
      await c.scaler.joinPresence(app, 'presence-room', '3.1', { userId: 'witness', userInfo: '{}' }, 100);
      const before: ClusterMessage = { type: 'member-added', appId: app, channel: 'presence-room', userId: 'early', userInfo: '{"n":1}' };
      await publishSeen(a, c, before);
      const joined = await b.scaler.joinPresence(app, 'presence-room', '2.1', { userId: 'u2', userInfo: '{}' }, 100);
      expect(joined.status).toBe('joined');
      const removed: ClusterMessage = { type: 'member-removed', appId: app, channel: 'presence-room', userId: 'early' };
      const event = broadcast(app, 'presence-room', 'event');
      a.scaler.publish(removed);
      a.scaler.publish(event);
      await expect.poll(() => b.received.length, { timeout: 3_000, interval: 5 }).toBe(2);
      expect(b.received).toEqual([removed, event]);
    });

    it('delivers node-wide messages to every node, whatever it listens to', async () => {
      const [a, b] = [await node(), await node()];
      const app = appId();
      const messages: ClusterMessage[] = [
        { type: 'terminate-user', appId: app, userId: 'u1' },
        broadcast(app, '#server-to-user-u1', 'to-user'),
        { type: 'restart' },
      ];
      for (const message of messages) a.scaler.publish(message);
      await expect.poll(() => b.received.length, { timeout: 3_000, interval: 5 }).toBe(3);
      // Order is promised per channel only: on a Redis Cluster two channels' topics may live on different masters.
      const byChannel = (list: readonly ClusterMessage[]) => ['room', 'presence-room'].map((name) => list.filter((message) => 'channel' in message && message.channel === name));
      expect(byChannel(b.received)).toEqual(byChannel(messages));
      expect(a.received).toEqual([]);
    });

    it('hands over every field as published, exceptSocketId included (the receiver excludes the socket)', async () => {
      const [a, b] = [await node(), await node()];
      const app = appId();
      await b.scaler.addSubscription(app, 'room', '2.1');
      await b.scaler.joinPresence(app, 'presence-room', '2.1', { userId: 'u2', userInfo: '{}' }, 100);
      const messages: ClusterMessage[] = [
        broadcast(app, 'room', '{"event":"e","data":"{\\"x\\":1}"}', '2.1'),
        { type: 'member-added', appId: app, channel: 'presence-room', userId: 'u1', userInfo: '{"name":"ü"}', exceptSocketId: '1.1' },
        { type: 'member-removed', appId: app, channel: 'presence-room', userId: 'u1' },
      ];
      for (const message of messages) a.scaler.publish(message);
      await expect.poll(() => b.received.length, { timeout: 3_000, interval: 5 }).toBe(3);
      // Order is promised per channel only: on a Redis Cluster two channels' topics may live on different masters.
      const byChannel = (list: readonly ClusterMessage[]) => ['room', 'presence-room'].map((name) => list.filter((message) => 'channel' in message && message.channel === name));
      expect(byChannel(b.received)).toEqual(byChannel(messages));
    });

    it('keeps delivering while the node has another local listener in the channel', async () => {
      const [a, b] = [await node(), await node()];
      const app = appId();
      await b.scaler.addSubscription(app, 'room', '2.1');
      await b.scaler.joinPresence(app, 'room', '2.2', { userId: 'u', userInfo: '{}' }, 100);
      await b.scaler.addSubscription(app, 'room', '2.3');
      await b.scaler.removeSubscription(app, 'room', '2.1');
      await b.scaler.removeConnection(app, '2.3', [{ channel: 'room', presenceUserId: undefined }]);
      // Longer than any linger: a topic dropped by mistake would be gone by now.
      await sleep(lingerMs + 50);
      a.scaler.publish(broadcast(app, 'room', 'still'));
      await expect.poll(() => has(b, 'still'), { timeout: 3_000, interval: 5 }).toBe(true);
    });

    /**
     * The last local listener leaves (`leave`): after the linger the node stops hearing the channel. Each
     * round waits out the linger, has `a` publish a probe the witness receives, lets the subject listen
     * again (`listen`) and hear a sentinel: the probe, published before, must not have reached it. A
     * round may lose the race between the scaler's unsubscribe and the probe; one of them must not.
     */
    const stopsAfterLinger = async (label: string, listen: (b: Scaler, app: string, round: number) => Promise<void>, leave: (b: Scaler, app: string, round: number) => Promise<void>) => {
      const [a, b, c] = await nodes();
      const app = appId();
      await c.scaler.addSubscription(app, 'room', '3.1');
      await listen(b.scaler, app, 0);
      await leave(b.scaler, app, 0);
      for (let round = 1; round <= 20; round++) {
        await sleep(lingerMs + 20 * round);
        const probe = `${label}-probe-${round}`;
        await publishSeen(a, c, broadcast(app, 'room', probe));
        await listen(b.scaler, app, round);
        const sentinel = `${label}-sentinel-${round}`;
        a.scaler.publish(broadcast(app, 'room', sentinel));
        await expect.poll(() => has(b, sentinel), { timeout: 3_000, interval: 5 }).toBe(true);
        const heard = has(b, probe);
        await leave(b.scaler, app, round);
        if (!heard) return;
      }
      expect.fail(`${label}: the node kept receiving the channel after its last listener left and the linger (${lingerMs} ms) passed`);
    };

    it('stops delivering a channel after the last removeSubscription and the linger', async () => {
      await stopsAfterLinger(
        'unsubscribe',
        async (b, app, round) => void (await b.addSubscription(app, 'room', `2.${round}`)),
        async (b, app, round) => void (await b.removeSubscription(app, 'room', `2.${round}`)),
      );
    });

    it('stops delivering a presence channel after the last leavePresence and the linger', async () => {
      await stopsAfterLinger(
        'leave',
        async (b, app, round) => void (await b.joinPresence(app, 'room', `2.${round}`, { userId: `u${round}`, userInfo: '{}' }, 100)),
        async (b, app, round) => void (await b.leavePresence(app, 'room', `2.${round}`, `u${round}`)),
      );
    });

    it('stops delivering a channel after removeConnection took the last socket holding it, and the linger', async () => {
      await stopsAfterLinger(
        'close',
        async (b, app, round) => {
          await b.addConnection(app, `2.${round}`);
          await b.addSubscription(app, 'room', `2.${round}`);
          await b.joinPresence(app, 'room', `2.${round}`, { userId: `u${round}`, userInfo: '{}' }, 100);
        },
        async (b, app, round) => void (await b.removeConnection(app, `2.${round}`, [{ channel: 'room', presenceUserId: `u${round}` }])),
      );
    });
  });
}
