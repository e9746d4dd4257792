import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createApp } from './app.js';
import { createStaticAppProvider } from './app-provider.js';
import { signChannel, signUser } from './signing.js';
import { createLocalScaler } from './local-scaler.js';
import { localNodeOf, RealtimeServer } from './realtime-server.js';
import { MemoryTransport, settle, type MemorySocket } from './testing/memory-transport.js';

/**
 * Hostile input, property-based: whatever a client sends, the engine never
 * throws, every frame it answers with is a well-formed Pusher frame, a
 * bystander only ever receives proper channel events, and a refused frame
 * changes no state.
 */

const app = createApp({ id: 'fuzz', key: 'fuzz-key', secret: 'fuzz-secret', maxChannelsPerConnection: 5, maxFramesPerSecond: 1_000, maxClientEventsPerSecond: 1_000 });

const channelNames = fc.oneof(
  fc.constantFrom('room', 'private-room', 'presence-room', 'private-encrypted-room', 'cache-room', '#server-to-user-u1', 'private-other', ''),
  fc.string({ maxLength: 200 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.constant('x'.repeat(300)),
  fc.constant('room\u0000'),
);

const nested = fc.integer({ min: 1, max: 5_000 }).chain((depth) =>
  fc.constantFrom('['.repeat(depth) + ']'.repeat(depth), '{"a":'.repeat(depth) + '1' + '}'.repeat(depth), '['.repeat(depth)),
);

const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 4 }),
  fc.anything({ maxDepth: 3, withNullPrototype: true }),
  fc.string({ maxLength: 100 }),
  fc.constant('x'.repeat(20_000)),
);

/** `data` for each client message type: sometimes valid, sometimes signed but hostile, often garbage. */
function dataFor(event: string) {
  switch (event) {
    case 'pusher:subscribe':
      return fc.record(
        {
          channel: channelNames,
          auth: fc.oneof(fc.constant('SIGN'), fc.string({ maxLength: 80 }), hostileValue),
          channel_data: fc.oneof(
            fc.record({ user_id: fc.oneof(fc.string({ maxLength: 200 }), fc.integer(), hostileValue), user_info: hostileValue }).map((v) => JSON.stringify(v)),
            nested.map((n) => `{"user_id":"u","user_info":${n}}`),
            fc.string({ maxLength: 50 }),
            hostileValue,
          ),
        },
        { requiredKeys: [] },
      );
    case 'pusher:unsubscribe':
      return fc.oneof(fc.record({ channel: channelNames }, { requiredKeys: [] }), hostileValue);
    case 'pusher:signin':
      return fc.record(
        {
          user_data: fc.oneof(
            fc.record({ id: fc.oneof(fc.string({ maxLength: 200 }), hostileValue) }).map((v) => JSON.stringify(v)),
            nested,
            fc.string({ maxLength: 50 }),
            hostileValue,
          ),
          auth: fc.oneof(fc.constant('SIGN'), fc.string({ maxLength: 80 })),
        },
        { requiredKeys: [] },
      );
    default:
      return hostileValue;
  }
}

const structuredFrame = fc
  .constantFrom('pusher:subscribe', 'pusher:unsubscribe', 'pusher:signin', 'pusher:ping', 'pusher:pong', 'client-x', 'pusher:bogus', 'pusher_internal:member_added', 'message')
  .chain((event) => fc.record({ event: fc.constant(event), channel: fc.oneof(channelNames, hostileValue), data: dataFor(event) }, { requiredKeys: ['event', 'data'] }));

type FrameInput = { text: string } | { frame: { event: string; channel?: unknown; data?: unknown } };

const frameInput: fc.Arbitrary<FrameInput> = fc.oneof(
  { weight: 5, arbitrary: structuredFrame.map((frame) => ({ frame })) },
  { weight: 1, arbitrary: fc.string({ maxLength: 200 }).map((text) => ({ text })) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 5 }).map((value) => ({ text: JSON.stringify(value) ?? 'null' })) },
  { weight: 1, arbitrary: nested.map((n) => ({ text: `{"event":"client-x","channel":"private-room","data":${n}}` })) },
  { weight: 1, arbitrary: nested.map((n) => ({ text: n })) },
  { weight: 1, arbitrary: fc.constantFrom('', '{}', '{"event":null}', '{"event":1}', '[]', 'null', '"x"', '{"event":"pusher:subscribe"}', '{"event":"pusher:subscribe","data":null}', '{"__proto__":{"event":"x"}}', '\u0000', '{"event":"client-x","event":"pusher:ping"}') .map((text) => ({ text })) },
);

/** Replaces the `SIGN` placeholder with a valid signature for this socket, so hostile payloads get past auth. */
function encode(input: FrameInput, socket: MemorySocket): string {
  if ('text' in input) return input.text;
  const { frame } = input;
  const data = frame.data as Record<string, unknown> | undefined;
  if (data && typeof data === 'object' && data['auth'] === 'SIGN') {
    if (frame.event === 'pusher:signin' && typeof data['user_data'] === 'string') {
      return JSON.stringify({ ...frame, data: { ...data, auth: signUser(app, socket.socketId, data['user_data']) } });
    }
    if (typeof data['channel'] === 'string') {
      const channelData = typeof data['channel_data'] === 'string' ? data['channel_data'] : undefined;
      return JSON.stringify({ ...frame, data: { ...data, auth: signChannel(app, socket.socketId, data['channel'], channelData) } });
    }
  }
  try {
    return JSON.stringify(frame);
  } catch {
    return String(frame.event);
  }
}

function expectWellFormed(frame: string): { event: string; channel?: unknown; data?: unknown } {
  const parsed = JSON.parse(frame) as unknown;
  expect(parsed).toBeTypeOf('object');
  const { event } = parsed as { event: unknown };
  expect(event).toBeTypeOf('string');
  return parsed as { event: string };
}

async function setup() {
  const scaler = createLocalScaler();
  const server = new RealtimeServer({ apps: createStaticAppProvider([app]), scaler });
  const transport = new MemoryTransport(server);
  // The per-frame catch is the last line of defence: no generated input may need it.
  const failures: unknown[] = [];
  server.events.on('handler.failed', ({ error }) => void failures.push(error));
  const bystander = await transport.connect({ appKey: app.key });
  bystander.receive({ event: 'pusher:subscribe', data: { channel: 'private-room', auth: signChannel(app, bystander.socketId, 'private-room') } });
  await settle();
  const snapshot = async () => ({
    channels: [...(await scaler.channels(app.id))].sort(),
    members: (await scaler.presenceMembers(app.id, 'presence-room')).map((m) => m.userId).sort(),
    connections: await scaler.connectionCount(app.id),
  });
  return { server, transport, bystander, snapshot, failures };
}

describe('hostile frames through the in-memory transport', () => {
  it('never throw, always answer with well-formed frames, and leave state unchanged when refused', async () => {
    let framesSent = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(frameInput, { minLength: 1, maxLength: 15 }), async (inputs) => {
        const { server, transport, bystander, snapshot, failures } = await setup();
        // A member of private-room, so hostile client events reach the relay, not only the membership check.
        const member = async () => {
          const joined = await transport.connect({ appKey: app.key });
          joined.receive({ event: 'pusher:subscribe', data: { channel: 'private-room', auth: signChannel(app, joined.socketId, 'private-room') } });
          await settle();
          return joined;
        };
        let socket = await member();
        for (const input of inputs) {
          if (socket.closed) socket = await member();
          const text = encode(input, socket);
          const before = await snapshot();
          const channelsBefore = (socket.connection?.channelNames() ?? []).sort();
          const answered = socket.frames.length;
          expect(() => socket.receive(text)).not.toThrow();
          framesSent++;
          await settle();
          const replies = socket.frames.slice(answered).map(expectWellFormed);
          const refused = replies.some((reply) => reply.event === 'pusher:error' || reply.event === 'pusher:subscription_error');
          if (refused && !socket.closed) {
            expect(await snapshot()).toEqual(before);
            expect((socket.connection?.channelNames() ?? []).sort()).toEqual(channelsBefore);
          }
        }
        for (const received of bystander.frames.slice(2).map(expectWellFormed)) {
          expect(received.event.startsWith('client-') || received.event.startsWith('pusher_internal:') || received.event === 'pusher:error').toBe(true);
          if (received.event.startsWith('client-')) expect(received.channel).toBe('private-room');
        }
        expect(failures).toEqual([]);
        expect(bystander.closed).toBeUndefined();
        expect(localNodeOf(server).connections.has(bystander.connection!.socketId)).toBe(true);
      }),
      { numRuns: 300 },
    );
    expect(framesSent).toBeGreaterThan(1_000);
  }, 60_000);
});
