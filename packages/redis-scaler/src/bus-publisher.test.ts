import type { ClusterMessage } from '@org/protocol';
import { describe, expect, it } from 'vitest';
import { decodeEnvelope, senderPrefix } from './bus-codec.js';
import { BusPublisher } from './bus-publisher.js';
import { createKeys } from './keys.js';
import type { PubSub } from './pubsub.js';
import { SequenceTracker } from './sequence-tracker.js';
import { Topics } from './topics.js';

/**
 * A Redis stand-in for the publisher: it confirms each PUBLISH while up and refuses it while down.
 * What it confirmed is in `confirmed`; a test decides what a receiver actually got. With `state.manual`
 * a PUBLISH waits in `waiting` until the test answers it (`answer()`), as a slow Redis would.
 */
function fakeRedis() {
  const state = { up: true, manual: false };
  const confirmed: string[] = [];
  const waiting: { confirm(): void; fail(): void }[] = [];
  const pubsub: PubSub = {
    publish: (_topic, payload) => {
      if (!state.up) return Promise.reject(new Error('connection is closed'));
      const confirm = () => {
        confirmed.push(payload);
        return 1;
      };
      if (state.manual) {
        return new Promise((resolve, reject) => waiting.push({ confirm: () => resolve(confirm()), fail: () => reject(new Error('Command timed out')) }));
      }
      return Promise.resolve(confirm());
    },
    subscribe: () => Promise.resolve(),
    unsubscribe: () => Promise.resolve(),
    onMessage: () => {},
    ready: true,
    listeners: () => Promise.resolve(2),
    close: () => Promise.resolve(),
    disconnect: () => {},
  };
  const answer = () => waiting.shift()!.confirm();
  const timeOut = () => waiting.shift()!.fail();
  return { state, confirmed, waiting, answer, timeOut, pubsub };
}

const terminate = (n: number): ClusterMessage => ({ type: 'terminate-user', appId: 'app', userId: `u${n}` });
const userOf = (payload: string) => {
  const message = decodeEnvelope(payload)!.message;
  return message.type === 'terminate-user' ? message.userId : message.type;
};
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

function publisher(redis: ReturnType<typeof fakeRedis>, options: { replayWindowMs?: number; outboxMaxBytes?: number; outboxMaxAgeMs?: number } = {}) {
  const downs: unknown[] = [];
  const bus = new BusPublisher({
    pubsub: redis.pubsub,
    commandsReady: () => redis.state.up,
    topics: new Topics(createKeys('test')),
    ownPrefix: senderPrefix('node-a', 'epoch'),
    outboxMaxBytes: options.outboxMaxBytes ?? 1_000_000,
    outboxMaxAgeMs: options.outboxMaxAgeMs ?? 30_000,
    replayWindowMs: options.replayWindowMs ?? 1_000,
    onDown: (error) => downs.push(error),
  });
  return { bus, downs };
}

/** Redis is back and answers at once: flushes the outbox (which must empty) and returns who the messages it sent were for. */
async function flushAfterRecovery(redis: ReturnType<typeof fakeRedis>, bus: BusPublisher): Promise<string[]> {
  redis.state.up = true;
  redis.state.manual = false;
  redis.confirmed.length = 0;
  await expect(bus.flush()).resolves.toBe(true);
  return redis.confirmed.map(userOf);
}

/** What a receiver that got `payloads` hands to its engine: each message once, duplicates dropped by number. */
function delivered(payloads: readonly string[], tracker = new SequenceTracker()): string[] {
  return payloads.filter((payload) => {
    const { sender, seq, prev } = decodeEnvelope(payload)!;
    return tracker.accept(sender!, 'bus', seq!, prev);
  }).map(userOf);
}

describe('the bus publisher across an outage', () => {
  it('sends again what Redis confirmed just before the outage, ahead of what failed, so a message confirmed by a Redis that crashed before passing it on still arrives once', async () => {
    const redis = fakeRedis();
    const { bus, downs } = publisher(redis);
    for (let n = 1; n <= 5; n++) bus.publish(terminate(n));
    await settle();
    expect(redis.confirmed.map(userOf)).toEqual(['u1', 'u2', 'u3', 'u4', 'u5']);
    // Redis dies after confirming u4 and u5 but before writing them to the receiver: it got u1..u3.
    const receiver = new SequenceTracker();
    expect(delivered(redis.confirmed.slice(0, 3), receiver)).toEqual(['u1', 'u2', 'u3']);
    redis.state.up = false;
    bus.publish(terminate(6));
    await settle();
    expect(downs).toHaveLength(1);
    bus.publish(terminate(7));
    expect(bus.stats.outboxMessages).toBe(7); // u1..u5 again, u6 put back, u7 held

    expect(await flushAfterRecovery(redis, bus)).toEqual(['u1', 'u2', 'u3', 'u4', 'u5', 'u6', 'u7']);
    expect(delivered(redis.confirmed, receiver)).toEqual(['u4', 'u5', 'u6', 'u7']);
    expect(receiver.duplicates).toBe(3);
    expect(receiver.missed).toBe(0);
    expect(bus.stats).toMatchObject({ outboxMessages: 0, outboxDropped: 0, droppedMessages: 0, replayedMessages: 5 });
  });

  it('sends again a PUBLISH confirmed only after the outage was noticed, in its place', async () => {
    const redis = fakeRedis();
    const { bus } = publisher(redis);
    bus.publish(terminate(1));
    await settle();
    redis.state.manual = true;
    bus.publish(terminate(2)); // sent, not answered yet
    bus.hold(); // the outage noticed by another command
    bus.publish(terminate(3));
    redis.answer(); // u2 confirmed: as unsure as u1, and the replay was taken already
    await settle();
    expect(await flushAfterRecovery(redis, bus)).toEqual(['u1', 'u2', 'u3']);
    expect(bus.stats.replayedMessages).toBe(2);
  });

  it('sends again, in order, every PUBLISH sent before the outage was noticed and confirmed after it', async () => {
    const redis = fakeRedis();
    const { bus } = publisher(redis);
    redis.state.manual = true;
    for (let n = 1; n <= 5; n++) bus.publish(terminate(n));
    bus.hold();
    bus.publish(terminate(6));
    bus.publish(terminate(7));
    for (let n = 1; n <= 5; n++) redis.answer();
    await settle();
    expect(await flushAfterRecovery(redis, bus)).toEqual(['u1', 'u2', 'u3', 'u4', 'u5', 'u6', 'u7']);
    expect(bus.stats).toMatchObject({ replayedMessages: 5, outboxMessages: 0 });
  });

  it('sends again a message a flush had confirmed when the outage is noticed before that confirmation is handled', async () => {
    const redis = fakeRedis();
    const { bus } = publisher(redis);
    redis.state.up = false;
    bus.hold();
    bus.publish(terminate(1));
    redis.state.up = true;
    redis.state.manual = true;
    const flushed = bus.flush();
    await settle();
    // Redis confirms u1 and dies before writing it to the subscribers; the node notices before it handles the reply.
    redis.state.up = false;
    redis.answer();
    bus.hold();
    await expect(flushed).resolves.toBe(false);
    expect(bus.holding).toBe(true);
    expect(await flushAfterRecovery(redis, bus)).toEqual(['u1']);
  });

  it('keeps the age of a message sent again, so held messages behind it still expire in time', async () => {
    const redis = fakeRedis();
    const { bus } = publisher(redis, { outboxMaxAgeMs: 100 });
    redis.state.up = false;
    bus.hold();
    bus.publish(terminate(1));
    bus.publish(terminate(2));
    await new Promise((resolve) => setTimeout(resolve, 60));
    redis.state.up = true;
    redis.state.manual = true;
    const flushed = bus.flush();
    redis.answer(); // u1 confirmed by the flush
    redis.timeOut(); // u2 not: the outage again, u1 goes back in front of u2
    await expect(flushed).resolves.toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 60));
    // Both entered the outbox 120 ms ago, past its 100 ms bound.
    expect(await flushAfterRecovery(redis, bus)).toEqual([]);
    expect(bus.stats).toMatchObject({ outboxDropped: 1, droppedMessages: 1, replayedMessages: 1 }); // u2; u1 was confirmed
  });

  it('keeps only the last 1,024 confirmed messages to send again', async () => {
    const redis = fakeRedis();
    const { bus } = publisher(redis);
    for (let n = 1; n <= 1_500; n++) bus.publish(terminate(n));
    await settle();
    bus.hold();
    expect(await flushAfterRecovery(redis, bus)).toEqual(Array.from({ length: 1_024 }, (_, i) => `u${477 + i}`));
  });

  it('sends again only what was confirmed within the replay window', async () => {
    const redis = fakeRedis();
    const { bus } = publisher(redis, { replayWindowMs: 50 });
    bus.publish(terminate(1));
    await settle();
    await new Promise((resolve) => setTimeout(resolve, 80));
    bus.publish(terminate(2));
    await settle();
    redis.state.up = false;
    bus.hold(); // the outage noticed by another command, not a PUBLISH
    expect(await flushAfterRecovery(redis, bus)).toEqual(['u2']);
  });

  it('does not count messages confirmed before an outage as dropped when closed during it', async () => {
    const redis = fakeRedis();
    const { bus } = publisher(redis);
    for (let n = 1; n <= 3; n++) bus.publish(terminate(n));
    await settle();
    redis.state.up = false;
    bus.publish(terminate(4));
    await settle();
    expect(bus.stats.outboxMessages).toBe(4);
    expect(bus.discard()).toBe(1);
    expect(bus.stats.droppedMessages).toBe(1);
  });

  it('keeps nothing to send again when the outbox is disabled', async () => {
    const redis = fakeRedis();
    const { bus } = publisher(redis, { outboxMaxBytes: 0 });
    for (let n = 1; n <= 3; n++) bus.publish(terminate(n));
    await settle();
    redis.state.up = false;
    bus.publish(terminate(4));
    await settle();
    expect(await flushAfterRecovery(redis, bus)).toEqual([]);
    expect(bus.stats).toMatchObject({ outboxMessages: 0, outboxDropped: 1, droppedMessages: 1 });
  });
});
