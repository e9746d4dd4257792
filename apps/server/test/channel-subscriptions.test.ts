import { beforeAll, describe, expect, it } from 'vitest';
import { daemonConfig, testApp } from './helpers/apps.js';
import { backend, connected, pusherClient, subscribed } from './helpers/clients.js';
import { startDaemon, type RunningDaemon } from './helpers/daemon.js';
import { connectRaw, type Frame } from './helpers/raw-socket.js';
import { waitFor } from './helpers/wait.js';

const app = testApp('channels');
let daemon: RunningDaemon;

beforeAll(async () => {
  daemon = await startDaemon(daemonConfig([app]));
});

/** Collects what a pusher-js channel receives for one event name. */
function collect(channel: { bind(event: string, callback: (data: unknown) => void): unknown }, event: string): unknown[] {
  const received: unknown[] = [];
  channel.bind(event, (data: unknown) => received.push(data));
  return received;
}

describe('channels with pusher-js and the pusher SDK', () => {
  it('delivers a triggered event to a public channel subscriber', async () => {
    const client = pusherClient(daemon, app);
    const channel = await subscribed(client, 'public-news');
    const received = collect(channel, 'headline');
    await backend(daemon, app).trigger('public-news', 'headline', { title: 'hello' });
    await waitFor(() => received[0], 'the public event');
    expect(received).toEqual([{ title: 'hello' }]);
  });

  it('authorizes a private channel with the SDK signature and delivers events to it', async () => {
    const client = pusherClient(daemon, app);
    const channel = await subscribed(client, 'private-orders');
    const received = collect(channel, 'created');
    await backend(daemon, app).trigger('private-orders', 'created', { id: 7 });
    await waitFor(() => received[0], 'the private event');
    expect(received).toEqual([{ id: 7 }]);
  });

  it('answers a private subscription signed with the wrong secret with pusher:subscription_error {type, error, status} on the channel', async () => {
    const client = pusherClient(daemon, app, { signWithSecret: 'not-the-secret' });
    await connected(client);
    const channel = client.subscribe('private-secret-plans');
    const errors = collect(channel, 'pusher:subscription_error');
    const error = await waitFor(() => errors[0], 'pusher:subscription_error');
    expect(error).toEqual({ type: 'AuthError', error: expect.any(String), status: 401 });
    expect(channel.subscribed).toBe(false);
  });

  it('sends the exact subscription_error frame for a bad private signature', async () => {
    const { socket } = await connectRaw(daemon, app.key);
    socket.subscribe('private-raw', { auth: `${app.key}:${'0'.repeat(64)}` });
    const frame = await socket.next('pusher:subscription_error');
    expect(frame).toEqual({
      event: 'pusher:subscription_error',
      channel: 'private-raw',
      data: { type: 'AuthError', error: expect.any(String), status: 401 },
    });
  });

  it('refuses a presence subscription whose channel_data was not the signed one', async () => {
    const { socket, socketId } = await connectRaw(daemon, app.key);
    const signed = backend(daemon, app).authorizeChannel(socketId, 'presence-room', { user_id: 'alice' });
    socket.subscribe('presence-room', { auth: signed.auth, channel_data: JSON.stringify({ user_id: 'mallory' }) });
    const frame = await socket.next('pusher:subscription_error');
    expect(frame.data).toMatchObject({ type: 'AuthError', status: 401 });
  });

  it('refuses a private subscription authorized for another socket', async () => {
    const { socket } = await connectRaw(daemon, app.key);
    const other = await connectRaw(daemon, app.key);
    const signedForOther = backend(daemon, app).authorizeChannel(other.socketId, 'private-stolen');
    socket.subscribe('private-stolen', signedForOther);
    expect((await socket.next('pusher:subscription_error')).data).toMatchObject({ type: 'AuthError', status: 401 });
  });

  it('joins a presence channel and delivers triggered events', async () => {
    const client = pusherClient(daemon, app, { presence: { user_id: 'ann', user_info: { name: 'Ann' } } });
    const channel = await subscribed(client, 'presence-lobby');
    const received = collect(channel, 'notice');
    await backend(daemon, app).trigger('presence-lobby', 'notice', 'plain text');
    await waitFor(() => received[0], 'the presence event');
    expect(received).toEqual(['plain text']);
  });

  it('delivers end-to-end encrypted events that pusher-js decrypts, and relays only ciphertext', async () => {
    const client = pusherClient(daemon, app);
    const channel = await subscribed(client, 'private-encrypted-vault');
    const received = collect(channel, 'secret');
    // A raw subscriber sees what the server relays: it must be ciphertext.
    const { socket, socketId } = await connectRaw(daemon, app.key);
    socket.subscribe('private-encrypted-vault', backend(daemon, app).authorizeChannel(socketId, 'private-encrypted-vault'));
    await socket.next('pusher_internal:subscription_succeeded');

    await backend(daemon, app).trigger('private-encrypted-vault', 'secret', { pin: '1234' });
    await waitFor(() => received[0], 'the decrypted event');
    expect(received).toEqual([{ pin: '1234' }]);
    const relayed = await socket.next('secret');
    expect(JSON.parse(relayed.data as string)).toEqual({ nonce: expect.any(String), ciphertext: expect.any(String) });
    expect(JSON.stringify(relayed)).not.toContain('1234');
  });

  it('sends pusher:cache_miss to the first subscriber of an empty cache channel', async () => {
    const client = pusherClient(daemon, app);
    await connected(client);
    const channel = client.subscribe('cache-weather');
    const misses = collect(channel, 'pusher:cache_miss');
    await waitFor(() => (misses.length ? true : undefined), 'pusher:cache_miss');
    expect(channel.subscribed).toBe(true);
  });

  it('replays the last event of a cache channel to a new subscriber', async () => {
    const sdk = backend(daemon, app);
    await sdk.trigger('cache-prices', 'tick', { price: 1 });
    await sdk.trigger('cache-prices', 'tick', { price: 2 });
    const client = pusherClient(daemon, app);
    await connected(client);
    const channel = client.subscribe('cache-prices');
    const ticks = collect(channel, 'tick');
    const misses = collect(channel, 'pusher:cache_miss');
    await waitFor(() => ticks[0], 'the replayed event');
    expect(ticks).toEqual([{ price: 2 }]);
    expect(misses).toEqual([]);
  });

  it.each(['private-cache-ledger', 'presence-cache-room', 'private-encrypted-cache-box'])('replays the last event of %s', async (name) => {
    const sdk = backend(daemon, app);
    await sdk.trigger(name, 'state', { v: name });
    const client = pusherClient(daemon, app);
    await connected(client);
    const channel = client.subscribe(name);
    const states = collect(channel, 'state');
    await waitFor(() => states[0], `the replayed event on ${name}`);
    expect(states).toEqual([{ v: name }]);
  });

  it('sends subscription_succeeded before the replayed cache event, on the wire', async () => {
    await backend(daemon, app).trigger('cache-order', 'last', { n: 1 });
    const { socket } = await connectRaw(daemon, app.key);
    socket.subscribe('cache-order');
    await socket.next('last');
    const events = socket.received.map((frame: Frame) => frame.event);
    expect(events).toEqual(['pusher:connection_established', 'pusher_internal:subscription_succeeded', 'last']);
  });

  it('sends the exact pusher:cache_miss frame on the wire', async () => {
    const { socket } = await connectRaw(daemon, app.key);
    socket.subscribe('cache-empty-wire');
    await socket.next('pusher:cache_miss');
    // After subscription_succeeded, byte for byte; awaited by name, since with workers the cache is read over a thread hop.
    expect(socket.texts.slice(-2)).toEqual([
      '{"event":"pusher_internal:subscription_succeeded","channel":"cache-empty-wire","data":"{}"}',
      '{"event":"pusher:cache_miss","channel":"cache-empty-wire","data":"{}"}',
    ]);
  });

  it('sends the exact subscription_succeeded frame, once, even when the client subscribes twice', async () => {
    const { socket } = await connectRaw(daemon, app.key);
    socket.subscribe('public-twice');
    socket.subscribe('public-twice');
    await socket.next('pusher_internal:subscription_succeeded');
    socket.send({ event: 'pusher:ping', data: {} });
    await socket.next('pusher:pong');
    expect(socket.texts.filter((text) => text.includes('subscription_succeeded'))).toEqual([
      '{"event":"pusher_internal:subscription_succeeded","channel":"public-twice","data":"{}"}',
    ]);
  });

  it('answers pusher:unsubscribe with nothing and stops delivery to that socket', async () => {
    const { socket } = await connectRaw(daemon, app.key);
    socket.subscribe('public-quiet');
    await socket.next('pusher_internal:subscription_succeeded');
    socket.send({ event: 'pusher:unsubscribe', data: { channel: 'public-quiet' } });
    socket.send({ event: 'pusher:ping', data: {} });
    await socket.next('pusher:pong');
    await backend(daemon, app).trigger('public-quiet', 'e', {});
    socket.send({ event: 'pusher:ping', data: {} });
    await socket.next('pusher:pong');
    expect(socket.received.map((frame) => frame.event)).toEqual([
      'pusher:connection_established',
      'pusher_internal:subscription_succeeded',
      'pusher:pong',
      'pusher:pong',
    ]);
  });

  it('delivers events to one subscriber in the order they were triggered', async () => {
    const client = pusherClient(daemon, app);
    const received = collect(await subscribed(client, 'public-ordered'), 'n');
    const sdk = backend(daemon, app);
    for (let i = 0; i < 30; i++) await sdk.trigger('public-ordered', 'n', i);
    await waitFor(() => (received.length === 30 ? true : undefined), 'all 30 events');
    expect(received).toEqual(Array.from({ length: 30 }, (_, i) => i));
  });

  it('stops delivering after pusher-js unsubscribes', async () => {
    const client = pusherClient(daemon, app);
    const channel = await subscribed(client, 'public-leaving');
    const received = collect(channel, 'e');
    client.unsubscribe('public-leaving');
    const sdk = backend(daemon, app);
    await expect.poll(async () => {
      const response = await sdk.get({ path: '/channels/public-leaving', params: { info: 'subscription_count' } });
      return ((await response.json()) as { subscription_count: number }).subscription_count;
    }).toBe(0);
    await sdk.trigger('public-leaving', 'e', {});
    const watcher = pusherClient(daemon, app);
    const watched = collect(await subscribed(watcher, 'public-leaving'), 'e');
    await sdk.trigger('public-leaving', 'e', { second: true });
    await waitFor(() => watched[0], 'the second event at the watcher');
    expect(received).toEqual([]);
  });
});
