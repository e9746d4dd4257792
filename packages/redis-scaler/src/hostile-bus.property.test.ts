import type { ClusterMessage } from '@org/protocol';
import fc from 'fast-check';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { decodeEnvelope, decodeMessage, encodeMessage, ownMessagePrefix, senderPrefix, sequencedPayload } from './bus-codec.js';
import { createRedisScaler, type ScalerLogger } from './index.js';
import { busMessageForTests } from './internal.js';
import { createKeys } from './keys.js';
import { redisClientFixture } from '../test/support/scaler-fixture.js';
import { inCI, skipMessage, testRedis, uniquePrefix } from '../test/support/test-redis.js';

/** Exactly the fields of a ClusterMessage, each a string: what a handler may rely on. */
function wellFormed(message: ClusterMessage): boolean {
  const keys = Object.keys(message).sort().join(',');
  const strings = Object.values(message).every((value) => typeof value === 'string');
  switch (message.type) {
    case 'broadcast':
      return strings && (keys === 'appId,channel,frame,type' || keys === 'appId,channel,exceptSocketId,frame,type');
    case 'subscription-count-changed':
      return strings && keys === 'appId,channel,type';
    case 'terminate-user':
    case 'user-online':
    case 'user-offline':
      return strings && keys === 'appId,type,userId';
    case 'restart':
      return keys === 'type';
    default:
      return false;
  }
}

const text = fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.constantFrom('', '\u0000', 'a\u0000b', '\ud800', '__proto__', 'constructor'));
const anyValue = fc.oneof(fc.anything({ maxDepth: 4 }), text, fc.constant(null), fc.integer(), fc.double());
const messageLike = fc.record(
  {
    type: fc.oneof(fc.constantFrom('broadcast', 'subscription-count-changed', 'terminate-user', 'user-online', 'user-offline', 'restart', 'other', ''), anyValue),
    appId: anyValue,
    channel: anyValue,
    frame: anyValue,
    exceptSocketId: anyValue,
    userId: anyValue,
    __proto__: anyValue,
  },
  { requiredKeys: [] },
);
const numberLike = fc.oneof(fc.integer(), fc.double(), fc.constantFrom(0, -1, 1, 1e308, '5', null, true));
const envelopeLike = fc.record({ n: anyValue, s: numberLike, p: numberLike, a: fc.oneof(numberLike, anyValue), m: fc.oneof(messageLike, anyValue) }, { requiredKeys: [] });
const validMessage: fc.Arbitrary<ClusterMessage> = fc.oneof(
  fc.record({ type: fc.constant('broadcast' as const), appId: text, channel: text, frame: text }),
  fc.record({ type: fc.constant('broadcast' as const), appId: text, channel: text, frame: text, exceptSocketId: text }),
  fc.record({ type: fc.constant('subscription-count-changed' as const), appId: text, channel: text }),
  fc.record({ type: fc.constant('terminate-user' as const), appId: text, userId: text }),
  fc.record({ type: fc.constantFrom('user-online' as const, 'user-offline' as const), appId: text, userId: text }),
  fc.constant({ type: 'restart' as const }),
);
const nested = (depth: number, open: string, close: string, inner = '1') => `{"n":"x","m":${open.repeat(depth)}${inner}${close.repeat(depth)}}`;
/** Payloads a hostile or broken publisher could put on the bus. */
const hostilePayload = fc.oneof(
  text,
  fc.json(),
  envelopeLike.map((value) => JSON.stringify(value)),
  fc.tuple(validMessage, fc.integer({ min: 1, max: 1_000 })).map(([message, seq]) => sequencedPayload(ownMessagePrefix('other'), seq, JSON.stringify(message))),
  // Routed senders' envelopes: a previous number on the topic (valid or not) and the bus-copy flag.
  fc
    .tuple(validMessage, fc.integer({ min: 1, max: 1_000 }), fc.integer({ min: -5, max: 1_005 }), fc.boolean())
    .map(([message, seq, prev, allCopy]) => sequencedPayload(ownMessagePrefix('other'), seq, JSON.stringify(message), prev, allCopy)),
  fc.integer({ min: 1, max: 5_000 }).map((depth) => nested(depth, '[', ']')),
  fc.integer({ min: 1, max: 5_000 }).map((depth) => nested(depth, '{"m":', '}')),
  fc.tuple(validMessage, fc.integer({ min: 0, max: 2_000 })).map(([message, cut]) => encodeMessage('other', message).slice(0, cut)),
);

describe('decoding a hostile bus', () => {
  it('never throws and answers a well-formed message or undefined, for any payload', () => {
    fc.assert(
      fc.property(hostilePayload, (payload) => {
        const message = decodeMessage(payload);
        expect(message === undefined || wellFormed(message)).toBe(true);
        const envelope = decodeEnvelope(payload);
        if (envelope?.seq !== undefined) expect(Number.isSafeInteger(envelope.seq) && envelope.seq > 0).toBe(true);
        if (envelope?.node !== undefined) expect(typeof envelope.node).toBe('string');
        if (envelope?.prev !== undefined) expect(Number.isSafeInteger(envelope.prev) && envelope.prev >= 0 && envelope.prev < envelope.seq!).toBe(true);
        if (envelope) expect(typeof envelope.allCopy).toBe('boolean');
      }),
      { numRuns: 1_000 },
    );
  });

  it('gives back exactly what was sent, with sender and number', () => {
    fc.assert(
      fc.property(validMessage, fc.string(), fc.string(), fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }), (message, node, epoch, seq) => {
        expect(decodeMessage(encodeMessage(node, message))).toEqual(message);
        // An older node's envelope: no previous number, no flag.
        expect(decodeEnvelope(sequencedPayload(ownMessagePrefix(node), seq, JSON.stringify(message)))).toEqual({ message, node, sender: node, seq, prev: undefined, allCopy: false });
        expect(decodeEnvelope(sequencedPayload(senderPrefix(node, epoch), seq, JSON.stringify(message)))).toEqual({ message, node, sender: `${node}\u0000${epoch}`, seq, prev: undefined, allCopy: false });
      }),
    );
  });

  it('gives back the previous number on the topic and the bus-copy flag of a routed sender, and refuses impossible ones', () => {
    fc.assert(
      fc.property(validMessage, fc.string(), fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }), fc.nat(), fc.boolean(), (message, node, seq, prevSeed, allCopy) => {
        const prev = prevSeed % seq; // 0 ≤ prev < seq
        const body = JSON.stringify(message);
        expect(decodeEnvelope(sequencedPayload(ownMessagePrefix(node), seq, body, prev, allCopy))).toEqual({ message, node, sender: node, seq, prev, allCopy });
        // A previous number not below the number, and any flag but 1, make the envelope invalid.
        expect(decodeEnvelope(sequencedPayload(ownMessagePrefix(node), seq, body, seq + (prevSeed % 3)))).toBeUndefined();
        expect(decodeEnvelope(`${ownMessagePrefix(node)}"s":${seq},"a":${JSON.stringify(prevSeed % 2 === 0 ? 2 : 'yes')},"m":${body}}`)).toBeUndefined();
      }),
    );
  });

  it('handles huge payloads: a 20 MB frame decodes, 20 MB of garbage is refused', () => {
    const frame = `{"event":"e","data":${JSON.stringify('x'.repeat(20_000_000))}}`;
    expect(decodeMessage(encodeMessage('n', { type: 'broadcast', appId: 'a', channel: 'c', frame }))).toMatchObject({ frame });
    expect(decodeMessage('{'.repeat(20_000_000))).toBeUndefined();
    expect(decodeMessage(nested(1_000_000, '[', ']'))).toBeUndefined();
  });
});

describe('a node receiving a hostile bus', () => {
  it('never throws for any payload and hands its handler only well-formed messages', async () => {
    const errors: string[] = [];
    const logger: ScalerLogger = { info() {}, warn() {}, error: (_fields, message) => errors.push(message) };
    // Not connected anywhere: the payload goes straight to the node's bus handler.
    const client = new Redis('redis://127.0.0.1:1', { lazyConnect: true });
    const node = createRedisScaler({ redis: client, prefix: 'hostile', commandTimeoutMs: 10, logger });
    const received: ClusterMessage[] = [];
    await node.start((message) => received.push(message));
    const deliver = (payload: string) => (node as unknown as Record<typeof busMessageForTests, (payload: string) => void>)[busMessageForTests](payload);
    fc.assert(
      fc.property(hostilePayload, (payload) => {
        expect(() => deliver(payload)).not.toThrow();
      }),
      { numRuns: 1_000 },
    );
    expect(received.every(wellFormed)).toBe(true);
    expect(errors).toEqual([]);
    expect(node.stats.invalidMessages).toBeGreaterThan(0);
    await node.close();
    client.disconnect();
  });

  it('routed: never throws for any payload on the bus or any topic, and hands over only well-formed messages', async () => {
    const errors: string[] = [];
    const logger: ScalerLogger = { info() {}, warn() {}, error: (_fields, message) => errors.push(message) };
    const client = new Redis('redis://127.0.0.1:1', { lazyConnect: true });
    const node = createRedisScaler({ redis: client, prefix: 'hostile', commandTimeoutMs: 10, logger });
    const received: ClusterMessage[] = [];
    await node.start((message) => received.push(message), undefined, { routing: 'subscribed' });
    const keys = createKeys('hostile');
    const deliver = (payload: string, topic: string) =>
      (node as unknown as Record<typeof busMessageForTests, (payload: string, topic: string) => void>)[busMessageForTests](payload, topic);
    const topic = fc.oneof(fc.constant(keys.bus), fc.tuple(fc.string(), fc.string()).map(([appId, channel]) => keys.topic(appId, channel)), text);
    fc.assert(
      fc.property(hostilePayload, topic, (payload, on) => {
        expect(() => deliver(payload, on)).not.toThrow();
      }),
      { numRuns: 1_000 },
    );
    expect(received.every(wellFormed)).toBe(true);
    // A flagged bus copy is never handed over by a routed node: it has the message from the channel's topic.
    const before = received.length;
    deliver(sequencedPayload(ownMessagePrefix('flagger'), 1, JSON.stringify({ type: 'broadcast', appId: 'a', channel: 'c', frame: 'f' }), 0, true), keys.bus);
    expect(received.length).toBe(before);
    expect(errors).toEqual([]);
    await node.close();
    client.disconnect();
  });
});

const redis = await testRedis();

if (redis) {
  const client = redisClientFixture(redis);

  describe('hostile payloads through Redis', () => {
    it('leave the receiving node delivering: each batch is followed by a valid message that arrives', async () => {
      const prefix = uniquePrefix('hostile');
      const received: ClusterMessage[] = [];
      const node = createRedisScaler({ redis: client, prefix });
      await node.start((message) => received.push(message));
      let sentinel = 0;
      await fc.assert(
        fc.asyncProperty(fc.array(hostilePayload.filter((payload) => payload.length < 100_000), { maxLength: 10 }), async (payloads) => {
          for (const payload of payloads) await client.publish(createKeys(prefix).bus, payload);
          const frame = `{"sentinel":${++sentinel}}`;
          await client.publish(createKeys(prefix).bus, encodeMessage('outside', { type: 'broadcast', appId: 'a', channel: 'c', frame }));
          await expect.poll(() => received.some((message) => message.type === 'broadcast' && message.frame === frame), { timeout: 2_000, interval: 5 }).toBe(true);
        }),
        { numRuns: 30 },
      );
      expect(received.every(wellFormed)).toBe(true);
      await node.close();
    });

    it('drops a resent message by its sequence number and counts the messages a node missed', async () => {
      const prefix = uniquePrefix('sequence');
      const received: string[] = [];
      const node = createRedisScaler({ redis: client, prefix });
      await node.start((message) => received.push(message.type === 'broadcast' ? message.frame : message.type));
      const payload = (seq: number) => sequencedPayload(ownMessagePrefix('sender'), seq, JSON.stringify({ type: 'broadcast', appId: 'a', channel: 'c', frame: `f${seq}` }));
      for (const seq of [1, 2, 2, 1, 3, 7]) await client.publish(createKeys(prefix).bus, payload(seq));
      await expect.poll(() => received, { timeout: 2_000 }).toEqual(['f1', 'f2', 'f3', 'f7']);
      expect(node.stats).toMatchObject({ duplicateMessages: 2, missedMessages: 3 });
      await node.close();
    });

    it('routed: drops a resend on a channel topic and counts one gap per missed run, by the previous number on that topic', async () => {
      const prefix = uniquePrefix('sequence-topic');
      const keys = createKeys(prefix);
      const received: string[] = [];
      const node = createRedisScaler({ redis: client, prefix, topicLingerMs: 0 });
      await node.start((message) => received.push(message.type === 'broadcast' ? message.frame : message.type), undefined, { routing: 'subscribed' });
      await node.addSubscription('a', 'c', '1.1');
      const payload = (seq: number, prev: number) => sequencedPayload(ownMessagePrefix('sender'), seq, JSON.stringify({ type: 'broadcast', appId: 'a', channel: 'c', frame: `f${seq}` }), prev);
      // 4..6 went to other topics (not a loss); 9 is resent; 12 and 13 were missed (one gap).
      for (const [seq, prev] of [[3, 0], [7, 3], [9, 7], [9, 7], [14, 13], [15, 14]] as const) await client.publish(keys.topic('a', 'c'), payload(seq, prev));
      await expect.poll(() => received, { timeout: 2_000 }).toEqual(['f3', 'f7', 'f9', 'f14', 'f15']);
      expect(node.stats).toMatchObject({ duplicateMessages: 1, missedMessages: 1 });
      await node.close();
    });
  });
} else {
  describe('hostile payloads through Redis', () => {
    it('needs Redis', () => {
      console.warn(skipMessage);
      expect(inCI).toBe(false);
    });
  });
}
