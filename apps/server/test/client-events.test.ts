import { beforeAll, describe, expect, it } from 'vitest';
import { daemonConfig, testApp } from './helpers/apps.js';
import { pusherClient, subscribed } from './helpers/clients.js';
import { startDaemon, type RunningDaemon } from './helpers/daemon.js';
import { connectRaw, type RawSocket } from './helpers/raw-socket.js';
import { subscribedRaw } from './helpers/subscribed-raw.js';
import { sleep, waitFor } from './helpers/wait.js';

const chatty = testApp('chatty');
const quiet = testApp('quiet', { enable_client_messages: false });
const limited = testApp('limited', { max_client_events_per_second: 3 });
let daemon: RunningDaemon;

beforeAll(async () => {
  daemon = await startDaemon(daemonConfig([chatty, quiet, limited]));
});

/** A raw socket of `app` subscribed to `channel` (signed by the SDK when it needs auth). */
async function member(app: typeof chatty, channel: string, userId = 'u1'): Promise<RawSocket> {
  return (await subscribedRaw(daemon, app, channel, userId)).socket;
}

function isClientEventError(frame: { event: string; data?: unknown }): boolean {
  return frame.event === 'pusher:error' && (frame.data as { code?: number }).code === 4301;
}

describe('client events', () => {
  it('relays a client event between pusher-js clients on a private channel, never back to the sender', async () => {
    const sender = pusherClient(daemon, chatty);
    const receiver = pusherClient(daemon, chatty);
    const senderChannel = await subscribed(sender, 'private-chat');
    const receiverChannel = await subscribed(receiver, 'private-chat');
    const received: unknown[] = [];
    const echoed: unknown[] = [];
    receiverChannel.bind('client-typing', (data: unknown) => received.push(data));
    senderChannel.bind('client-typing', (data: unknown) => echoed.push(data));

    expect(senderChannel.trigger('client-typing', { who: 'sender' })).toBe(true);
    await waitFor(() => received[0], 'the client event at the receiver');
    expect(received).toEqual([{ who: 'sender' }]);
    await sleep(200);
    expect(echoed).toEqual([]);
  });

  it('relays the exact frame on the wire, with the data as sent', async () => {
    const sender = await member(chatty, 'private-wire');
    const receiver = await member(chatty, 'private-wire');
    sender.send({ event: 'client-move', channel: 'private-wire', data: { x: 1, y: [2, 3] } });
    const frame = await receiver.next('client-move');
    expect(frame).toEqual({ event: 'client-move', channel: 'private-wire', data: { x: 1, y: [2, 3] } });
    await sleep(100);
    expect(sender.received.some((f) => f.event === 'client-move')).toBe(false);
  });

  it('adds the sender user_id on presence channels, which pusher-js passes as metadata', async () => {
    const sender = pusherClient(daemon, chatty, { presence: { user_id: 'sally' } });
    const receiver = pusherClient(daemon, chatty, { presence: { user_id: 'rick' } });
    const senderChannel = await subscribed(sender, 'presence-room');
    const receiverChannel = await subscribed(receiver, 'presence-room');
    const received: [unknown, unknown][] = [];
    receiverChannel.bind('client-wave', (data: unknown, metadata: unknown) => received.push([data, metadata]));
    senderChannel.trigger('client-wave', { hi: 1 });
    await waitFor(() => received[0], 'the presence client event');
    expect(received).toEqual([[{ hi: 1 }, { user_id: 'sally' }]]);

    const raw = await member(chatty, 'presence-room', 'rawuser');
    senderChannel.trigger('client-wave', { hi: 2 });
    expect(await raw.next('client-wave')).toEqual({ event: 'client-wave', channel: 'presence-room', data: { hi: 2 }, user_id: 'sally' });
  });

  it('rejects client events with 4301 when the app disables them, and delivers nothing', async () => {
    const sender = await member(quiet, 'private-off');
    const receiver = await member(quiet, 'private-off');
    sender.send({ event: 'client-x', channel: 'private-off', data: {} });
    const error = await sender.next('pusher:error');
    expect(error.data).toEqual({ code: 4301, message: expect.any(String) });
    await sleep(100);
    expect(receiver.received.some((frame) => frame.event === 'client-x')).toBe(false);
    expect(sender.isOpen).toBe(true);
  });

  it('surfaces the 4301 rejection to pusher-js as a connection error', async () => {
    const client = pusherClient(daemon, quiet);
    const channel = await subscribed(client, 'private-off-js');
    const errors: unknown[] = [];
    client.connection.bind('error', (error: unknown) => errors.push(error));
    channel.trigger('client-x', {});
    await waitFor(() => errors[0], 'the pusher:error at pusher-js');
    expect(errors[0]).toMatchObject({ type: 'PusherError', data: { code: 4301 } });
    expect(client.connection.state).toBe('connected');
  });

  it('rejects client events on public channels with 4301 (unlike some peers)', async () => {
    const sender = await member(chatty, 'public-square');
    const receiver = await member(chatty, 'public-square');
    sender.send({ event: 'client-shout', channel: 'public-square', data: {} });
    expect((await sender.next('pusher:error')).data).toMatchObject({ code: 4301 });
    await sleep(100);
    expect(receiver.received.some((frame) => frame.event === 'client-shout')).toBe(false);
  });

  it('rejects client events on encrypted channels with 4301', async () => {
    const sender = await member(chatty, 'private-encrypted-box');
    sender.send({ event: 'client-leak', channel: 'private-encrypted-box', data: 'plaintext' });
    expect((await sender.next('pusher:error')).data).toMatchObject({ code: 4301 });
  });

  it('rejects client events to a channel the sender has not joined with 4301', async () => {
    await member(chatty, 'private-members-only');
    const { socket: outsider } = await connectRaw(daemon, chatty.key);
    outsider.send({ event: 'client-sneak', channel: 'private-members-only', data: {} });
    expect((await outsider.next('pusher:error')).data).toMatchObject({ code: 4301 });
  });

  it('rejects an event name without the client- prefix with 4301', async () => {
    const sender = await member(chatty, 'private-prefix');
    sender.send({ event: 'typing', channel: 'private-prefix', data: {} });
    expect((await sender.next('pusher:error')).data).toMatchObject({ code: 4301 });
  });

  it('rejects a client event without a channel with 4301', async () => {
    const { socket } = await connectRaw(daemon, chatty.key);
    socket.send({ event: 'client-nowhere', data: {} });
    expect((await socket.next('pusher:error')).data).toMatchObject({ code: 4301 });
  });

  it('relays at most 10 client events per second per connection (default limit), rejecting the rest with 4301', async () => {
    const sender = await member(chatty, 'private-burst');
    const receiver = await member(chatty, 'private-burst');
    const burst = 25;
    for (let i = 0; i < burst; i++) sender.send({ event: 'client-n', channel: 'private-burst', data: { i } });
    await waitFor(
      () => (receiver.received.filter((f) => f.event === 'client-n').length + sender.received.filter(isClientEventError).length === burst ? true : undefined),
      'every burst event to be relayed or rejected',
    );
    const relayed = receiver.received.filter((f) => f.event === 'client-n').length;
    // A burst takes milliseconds, so it spans at most two one-second windows.
    expect(relayed).toBeGreaterThanOrEqual(10);
    expect(relayed).toBeLessThanOrEqual(20);
    expect(sender.received.filter(isClientEventError).length).toBe(burst - relayed);
    expect(sender.isOpen).toBe(true);
  });

  it('applies a configured max_client_events_per_second and accepts events again in the next second', async () => {
    const sender = await member(limited, 'private-slow');
    const receiver = await member(limited, 'private-slow');
    for (let i = 0; i < 10; i++) sender.send({ event: 'client-n', channel: 'private-slow', data: { i } });
    await waitFor(() => (sender.received.filter(isClientEventError).length >= 4 ? true : undefined), 'rejections over the limit of 3');
    const firstBurst = receiver.received.filter((f) => f.event === 'client-n').length;
    expect(firstBurst).toBeGreaterThanOrEqual(3);
    expect(firstBurst).toBeLessThanOrEqual(6);

    await sleep(2_100);
    sender.send({ event: 'client-n', channel: 'private-slow', data: { later: true } });
    expect((await receiver.next((f) => f.event === 'client-n' && (f.data as { later?: boolean }).later === true)).data).toEqual({ later: true });
  });
});
