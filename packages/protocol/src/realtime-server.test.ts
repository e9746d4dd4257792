import { describe, expect, it, vi } from 'vitest';
import { createApp } from './app.js';
import { createStaticAppProvider } from './app-provider.js';
import { signChannel, signUser } from './signing.js';
import { ErrorCode } from './close-codes.js';
import { RealtimeServer } from './realtime-server.js';
import { MemoryTransport, settle, type MemorySocket } from './testing/memory-transport.js';

const app = createApp({ id: '1', key: 'key', secret: 'secret', maxConnections: 5, maxPresenceMembers: 2, maxClientEventsPerSecond: 3, maxMessageSize: 200 });
const quiet = createApp({ id: '2', key: 'quiet', secret: 'shh', enableClientMessages: false, allowedOrigins: ['*.example.com'] });

function setup() {
  const server = new RealtimeServer({ apps: createStaticAppProvider([app, quiet]) });
  return { server, transport: new MemoryTransport(server) };
}

async function subscribe(socket: MemorySocket, channel: string, channelData?: object) {
  const data = channelData === undefined ? undefined : JSON.stringify(channelData);
  const auth = channel.startsWith('private-') || channel.startsWith('presence-') ? signChannel(app, socket.socketId, channel, data) : '';
  socket.receive({ event: 'pusher:subscribe', data: { channel, auth, ...(data ? { channel_data: data } : {}) } });
  await settle();
}

describe('connecting', () => {
  it('sends connection_established with a digits.digits socket id and the activity timeout as a JSON string', async () => {
    const { transport } = setup();
    const socket = await transport.connect({ appKey: 'key' });
    const [frame] = socket.frames;
    expect(frame).toMatch(/^\{"event":"pusher:connection_established","data":"\{\\"socket_id\\":\\"\d+\.\d+\\",\\"activity_timeout\\":30\}"\}$/);
  });

  it('refuses an unknown app key with 4001', async () => {
    const { transport } = setup();
    const socket = await transport.connect({ appKey: 'nope' });
    expect(socket.events('pusher:error')[0]?.data).toEqual({ code: 4001, message: 'App key nope does not exist.' });
    expect(socket.closed?.code).toBe(ErrorCode.AppNotFound);
  });

  it('refuses another protocol version with 4007 and a foreign origin with 4009', async () => {
    const { transport } = setup();
    expect((await transport.connect({ appKey: 'key', protocol: '5' })).closed?.code).toBe(4007);
    expect((await transport.connect({ appKey: 'quiet', origin: 'https://evil.test' })).closed?.code).toBe(4009);
    expect((await transport.connect({ appKey: 'quiet', origin: 'https://app.example.com' })).closed).toBeUndefined();
  });

  it('refuses connections over the app quota with 4004, reported as a refusal and never as opened', async () => {
    const { server, transport } = setup();
    const refused: number[] = [];
    let opened = 0;
    server.events.on('connection.refused', ({ app, code }) => refused.push(app ? code : -1));
    server.events.on('connection.opened', () => opened++);
    const sockets = [];
    for (let i = 0; i < 6; i++) sockets.push(await transport.connect({ appKey: 'key' }));
    expect(sockets.slice(0, 5).every((s) => !s.closed)).toBe(true);
    expect(sockets[5]?.closed?.code).toBe(ErrorCode.OverConnectionQuota);
    expect(refused).toEqual([ErrorCode.OverConnectionQuota]);
    expect(opened).toBe(5);
  });
});

describe('frames', () => {
  it('answers pusher:ping with pusher:pong', async () => {
    const { transport } = setup();
    const socket = await transport.connect({ appKey: 'key' });
    socket.receive({ event: 'pusher:ping', data: {} });
    expect(socket.frames.at(-1)).toBe('{"event":"pusher:pong","data":{}}');
  });

  it.each([['not json'], ['[1,2]'], ['{"event":5}'], ['null']])('answers the malformed frame %s with a 4200 error and stays open', async (frame) => {
    const { transport } = setup();
    const socket = await transport.connect({ appKey: 'key' });
    socket.receive(frame);
    expect(socket.events('pusher:error').at(-1)?.data).toMatchObject({ code: 4200 });
    expect(socket.closed).toBeUndefined();
  });

  it('rejects unknown pusher events with 4200 and non-client events with 4301', async () => {
    const { transport } = setup();
    const socket = await transport.connect({ appKey: 'key' });
    socket.receive({ event: 'pusher:bogus' });
    socket.receive({ event: 'hello', channel: 'x', data: {} });
    expect(socket.events('pusher:error').map((e) => (e.data as { code: number }).code)).toEqual([4200, 4301]);
  });
});

describe('channels', () => {
  it('subscribes to a public channel and receives triggered events with string data', async () => {
    const { server, transport } = setup();
    const socket = await transport.connect({ appKey: 'key' });
    await subscribe(socket, 'news');
    expect(socket.frames.at(-1)).toBe('{"event":"pusher_internal:subscription_succeeded","channel":"news","data":"{}"}');
    await server.trigger(app, { name: 'update', data: '{"a":1}', channels: ['news'] });
    expect(socket.frames.at(-1)).toBe('{"event":"update","channel":"news","data":"{\\"a\\":1}"}');
  });

  it('refuses a private channel with a bad signature as a subscription_error with channel', async () => {
    const { transport } = setup();
    const socket = await transport.connect({ appKey: 'key' });
    socket.receive({ event: 'pusher:subscribe', data: { channel: 'private-x', auth: 'key:0000' } });
    await settle();
    expect(socket.events('pusher:subscription_error')[0]).toEqual({
      event: 'pusher:subscription_error',
      channel: 'private-x',
      data: { type: 'AuthError', error: 'Invalid signature for this socket and channel.', status: 401 },
    });
  });

  it('rejects invalid channel names', async () => {
    const { transport } = setup();
    const socket = await transport.connect({ appKey: 'key' });
    socket.receive({ event: 'pusher:subscribe', data: { channel: 'bad channel!' } });
    socket.receive({ event: 'pusher:subscribe', data: { channel: 'x'.repeat(165) } });
    await settle();
    expect(socket.events('pusher:subscription_error')).toHaveLength(2);
  });

  it('excludes the socket named by socket_id', async () => {
    const { server, transport } = setup();
    const [a, b] = [await transport.connect({ appKey: 'key' }), await transport.connect({ appKey: 'key' })];
    await subscribe(a, 'news');
    await subscribe(b, 'news');
    await server.trigger(app, { name: 'e', data: 'x', channels: ['news'], socketId: a.socketId });
    expect(a.events('e')).toHaveLength(0);
    expect(b.events('e')).toHaveLength(1);
  });

  it('replays the last event of a cache channel to a new subscriber, or sends cache_miss', async () => {
    const { server, transport } = setup();
    const first = await transport.connect({ appKey: 'key' });
    await subscribe(first, 'cache-prices');
    expect(first.events('pusher:cache_miss')).toHaveLength(1);
    await server.trigger(app, { name: 'price', data: '42', channels: ['cache-prices'] });
    const second = await transport.connect({ appKey: 'key' });
    await subscribe(second, 'cache-prices');
    expect(second.events('price')[0]?.data).toBe('42');
  });

  it('replays a presence cache channel\'s last event right after its member snapshot', async () => {
    const { server, transport } = setup();
    const first = await transport.connect({ appKey: 'key' });
    await subscribe(first, 'presence-cache-room', { user_id: 'a' });
    expect(first.messages.slice(1).map((frame) => frame.event)).toEqual(['pusher_internal:subscription_succeeded', 'pusher:cache_miss']);
    await server.trigger(app, { name: 'price', data: '42', channels: ['presence-cache-room'] });
    const second = await transport.connect({ appKey: 'key' });
    await subscribe(second, 'presence-cache-room', { user_id: 'b' });
    expect(second.messages.slice(1).map((frame) => frame.event)).toEqual(['pusher_internal:subscription_succeeded', 'price']);
  });

  it('counts subscriptions and lists occupied channels', async () => {
    const { server, transport } = setup();
    const socket = await transport.connect({ appKey: 'key' });
    await subscribe(socket, 'news');
    expect(await server.channel(app, 'news', ['subscription_count'])).toEqual({ occupied: true, subscription_count: 1 });
    socket.receive({ event: 'pusher:unsubscribe', data: { channel: 'news' } });
    await settle();
    expect(await server.channel(app, 'news')).toEqual({ occupied: false });
  });
});

describe('presence', () => {
  it('sends members, announces a new user once across its sockets and removes it after its last socket', async () => {
    const { transport } = setup();
    const watcher = await transport.connect({ appKey: 'key' });
    await subscribe(watcher, 'presence-room', { user_id: 'w', user_info: { name: 'W' } });
    const tab1 = await transport.connect({ appKey: 'key' });
    const tab2 = await transport.connect({ appKey: 'key' });
    await subscribe(tab1, 'presence-room', { user_id: 7, user_info: { name: 'Ann' } });
    await subscribe(tab2, 'presence-room', { user_id: 7, user_info: { name: 'Ann' } });

    const succeeded = tab2.events('pusher_internal:subscription_succeeded')[0];
    expect(JSON.parse(succeeded?.data as string)).toEqual({
      presence: { ids: ['w', '7'], hash: { w: { name: 'W' }, '7': { name: 'Ann' } }, count: 2 },
    });
    expect(watcher.events('pusher_internal:member_added').map((e) => JSON.parse(e.data as string))).toEqual([{ user_id: '7', user_info: { name: 'Ann' } }]);

    tab1.close(1000, 'bye');
    await settle();
    expect(watcher.events('pusher_internal:member_removed')).toHaveLength(0);
    tab2.close(1000, 'bye');
    await settle();
    expect(watcher.events('pusher_internal:member_removed').map((e) => JSON.parse(e.data as string))).toEqual([{ user_id: '7' }]);
  });

  it('refuses a new member when the channel is full', async () => {
    const { transport } = setup();
    for (const id of ['a', 'b']) await subscribe(await transport.connect({ appKey: 'key' }), 'presence-full', { user_id: id });
    const late = await transport.connect({ appKey: 'key' });
    await subscribe(late, 'presence-full', { user_id: 'c' });
    expect(late.events('pusher:subscription_error')[0]?.data).toMatchObject({ type: 'LimitReached', status: 4100 });
  });

  it('refuses an oversized user id', async () => {
    const { transport } = setup();
    const socket = await transport.connect({ appKey: 'key' });
    await subscribe(socket, 'presence-big', { user_id: 'x'.repeat(129) });
    expect(socket.events('pusher:subscription_error')[0]?.data).toMatchObject({ type: 'LimitReached' });
  });
});

describe('client events', () => {
  it('relays to other members with user_id on presence channels and never echoes', async () => {
    const { transport } = setup();
    const [a, b] = [await transport.connect({ appKey: 'key' }), await transport.connect({ appKey: 'key' })];
    await subscribe(a, 'presence-chat', { user_id: 'a' });
    await subscribe(b, 'presence-chat', { user_id: 'b' });
    a.receive({ event: 'client-typing', channel: 'presence-chat', data: { on: true } });
    expect(b.events('client-typing')).toEqual([{ event: 'client-typing', channel: 'presence-chat', data: { on: true }, user_id: 'a' }]);
    expect(a.events('client-typing')).toHaveLength(0);
  });

  it('rejects client events on public channels, unjoined channels, disabled apps and over the rate limit', async () => {
    const { transport } = setup();
    const socket = await transport.connect({ appKey: 'key' });
    await subscribe(socket, 'news');
    await subscribe(socket, 'private-ok');
    socket.receive({ event: 'client-x', channel: 'news', data: {} });
    socket.receive({ event: 'client-x', channel: 'private-other', data: {} });
    for (let i = 0; i < 4; i++) socket.receive({ event: 'client-x', channel: 'private-ok', data: {} });
    socket.receive({ event: 'client-big', channel: 'private-ok', data: 'x'.repeat(300) });
    const codes = socket.events('pusher:error').map((e) => (e.data as { code: number }).code);
    expect(codes).toEqual([4301, 4301, 4301, 4301]);

    const disabled = await transport.connect({ appKey: 'quiet', origin: 'https://a.example.com' });
    disabled.receive({ event: 'client-x', channel: 'private-y', data: {} });
    expect(disabled.events('pusher:error')[0]?.data).toMatchObject({ code: 4301, message: 'Client events are disabled for this app.' });
  });
  it('reports each client event dropped by the per-connection rate limit, and only those', async () => {
    const { server, transport } = setup();
    const limited: Array<{ channel: string; event: string; socketId: string }> = [];
    server.events.on('client.event.rate_limited', ({ channel, event, socketId }) => limited.push({ channel, event, socketId }));
    const socket = await transport.connect({ appKey: 'key' });
    await subscribe(socket, 'private-ok');
    socket.receive({ event: 'client-x', channel: 'news', data: {} });
    for (let i = 0; i < 5; i++) socket.receive({ event: 'client-x', channel: 'private-ok', data: {} });
    const { socketId } = socket;
    expect(limited).toEqual([
      { channel: 'private-ok', event: 'client-x', socketId },
      { channel: 'private-ok', event: 'client-x', socketId },
    ]);
  });
});

describe('user sign-in', () => {
  it('signs in, delivers #server-to-user events only to that user and terminates its connections', async () => {
    const { server, transport } = setup();
    const [user, other] = [await transport.connect({ appKey: 'key' }), await transport.connect({ appKey: 'key' })];
    const userData = JSON.stringify({ id: 'u1', name: 'U' });
    user.receive({ event: 'pusher:signin', data: { auth: signUser(app, user.socketId, userData), user_data: userData } });
    expect(user.events('pusher:signin_success')[0]?.data).toEqual({ user_data: userData });
    await subscribe(user, '#server-to-user-u1');
    await subscribe(other, '#server-to-user-u1');
    expect(other.events('pusher:subscription_error')).toHaveLength(1);

    await server.trigger(app, { name: 'hello', data: 'hi', channels: ['#server-to-user-u1'] });
    expect(user.events('hello')).toHaveLength(1);
    expect(other.events('hello')).toHaveLength(0);

    server.terminateUserConnections(app, 'u1');
    expect(user.closed?.code).toBe(4009);
    expect(other.closed).toBeUndefined();
  });

  it('closes the connection with 4009 on a bad sign-in', async () => {
    const { transport } = setup();
    const socket = await transport.connect({ appKey: 'key' });
    socket.receive({ event: 'pusher:signin', data: { auth: 'key:bad', user_data: '{"id":"1"}' } });
    expect(socket.closed?.code).toBe(4009);
  });
});

describe('trigger validation', () => {
  it('throws typed errors for oversized data, too many channels and bad names', async () => {
    const { server } = setup();
    await expect(server.trigger(app, { name: 'e', data: 'x'.repeat(201), channels: ['a'] })).rejects.toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
    await expect(server.trigger(app, { name: 'e', data: '', channels: Array.from({ length: 101 }, (_, i) => `c${i}`) })).rejects.toMatchObject({ code: 'TOO_MANY_CHANNELS' });
    await expect(server.trigger(app, { name: 'e', data: '', channels: ['bad name'] })).rejects.toMatchObject({ code: 'INVALID_CHANNEL' });
    await expect(server.trigger(app, { name: 'e'.repeat(201), data: '', channels: ['a'] })).rejects.toMatchObject({ code: 'INVALID_EVENT_NAME' });
    await expect(server.channels(app, { info: ['user_count'] })).rejects.toMatchObject({ code: 'NOT_A_PRESENCE_CHANNEL' });
  });

  it('refuses before publishing: user_count for a non-presence channel, string data nested past maxJsonDepth, data that cannot be encoded', async () => {
    const { server, transport } = setup();
    const socket = await transport.connect({ appKey: 'key' });
    await subscribe(socket, 'a');
    const cyclic: Record<string, unknown> = {};
    cyclic['self'] = cyclic;
    await expect(server.trigger(app, { name: 'e', data: 'x', channels: ['presence-r', 'a'], info: ['user_count'] })).rejects.toMatchObject({ code: 'NOT_A_PRESENCE_CHANNEL' });
    await expect(server.trigger(app, { name: 'e', data: '['.repeat(65) + ']'.repeat(65), channels: ['a'] })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    await expect(server.trigger(app, { name: 'e', data: cyclic, channels: ['a'] })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    expect(socket.events('e')).toEqual([]);
  });
});

describe('activity', () => {
  it('pings a silent connection and closes it with 4201 when no pong follows', async () => {
    const fast = createApp({ id: '3', key: 'fast', secret: 's', activityTimeout: 1, pingInterval: 1 });
    const server = new RealtimeServer({ apps: createStaticAppProvider([fast]), sweepIntervalMs: 100 });
    const transport = new MemoryTransport(server);
    await server.start();
    const socket = await transport.connect({ appKey: 'fast' });
    await expect.poll(() => socket.events('pusher:ping').length, { timeout: 3_000 }).toBe(1);
    await expect.poll(() => socket.closed?.code, { timeout: 3_000 }).toBe(4201);
    await server.stop();
  });

  it('never pings sooner than activity_timeout after the connection opened, whatever the sweep phase', async () => {
    // Only the clock and the sweep's interval are faked: the memory transport settles on real setImmediate.
    vi.useFakeTimers({ now: 0, toFake: ['Date', 'setInterval', 'clearInterval', 'setTimeout', 'clearTimeout'] });
    try {
      const fast = createApp({ id: '3', key: 'fast', secret: 's', activityTimeout: 1, pingInterval: 5 });
      const server = new RealtimeServer({ apps: createStaticAppProvider([fast]), sweepIntervalMs: 1_000 });
      const transport = new MemoryTransport(server);
      await server.start();
      vi.advanceTimersByTime(900); // the sweep last ran at 0: opening now, a stale clock would say 0
      const socket = await transport.connect({ appKey: 'fast' });
      vi.advanceTimersByTime(100); // the sweep at 1,000 ms: opened 100 ms ago
      expect(socket.events('pusher:ping')).toHaveLength(0);
      vi.advanceTimersByTime(1_000); // the sweep at 2,000 ms: silent for 1,100 ms
      expect(socket.events('pusher:ping')).toHaveLength(1);
      socket.close(1000, 'bye');
    } finally {
      vi.useRealTimers();
    }
  });

  it('stop() tells every client to reconnect with 4200', async () => {
    const { server, transport } = setup();
    await server.start();
    const socket = await transport.connect({ appKey: 'key' });
    await server.stop();
    expect(socket.events('pusher:error')[0]?.data).toMatchObject({ code: 4200 });
    expect(socket.closed?.code).toBe(4200);
  });
});
