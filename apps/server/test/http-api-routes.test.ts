import { beforeAll, describe, expect, it } from 'vitest';
import { daemonConfig, testApp } from './helpers/apps.js';
import { backend, pusherClient, subscribed } from './helpers/clients.js';
import { startDaemon, type RunningDaemon } from './helpers/daemon.js';
import { connectRaw, type RawSocket } from './helpers/raw-socket.js';
import { sleep, waitFor } from './helpers/wait.js';

const app = testApp('api');
let daemon: RunningDaemon;

beforeAll(async () => {
  daemon = await startDaemon(daemonConfig([app]));
});

async function rawMember(channel: string, userId = 'u1'): Promise<{ socket: RawSocket; socketId: string }> {
  const connection = await connectRaw(daemon, app.key);
  const sdk = backend(daemon, app);
  if (channel.startsWith('presence-')) connection.socket.subscribe(channel, sdk.authorizeChannel(connection.socketId, channel, { user_id: userId }));
  else if (channel.startsWith('private-')) connection.socket.subscribe(channel, sdk.authorizeChannel(connection.socketId, channel));
  else connection.socket.subscribe(channel);
  await connection.socket.next('pusher_internal:subscription_succeeded');
  return connection;
}

async function json(response: { status: number; headers: { get(name: string): string | null }; json(): Promise<unknown> }): Promise<unknown> {
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  return response.json();
}

describe('HTTP API routes through the daemon, with the pusher SDK', () => {
  it('POST /events to one channel answers {} and delivers to pusher-js', async () => {
    const client = pusherClient(daemon, app);
    const channel = await subscribed(client, 'api-news');
    const received: unknown[] = [];
    channel.bind('story', (data: unknown) => received.push(data));
    expect(await json(await backend(daemon, app).trigger('api-news', 'story', { id: 1 }))).toEqual({});
    await waitFor(() => received[0], 'the event');
    expect(received).toEqual([{ id: 1 }]);
  });

  it('POST /events to several channels delivers the frame once per channel', async () => {
    const a = await rawMember('api-multi-a');
    const b = await rawMember('private-api-multi-b');
    await backend(daemon, app).trigger(['api-multi-a', 'private-api-multi-b'], 'both', 'payload');
    expect(await a.socket.next('both')).toEqual({ event: 'both', channel: 'api-multi-a', data: 'payload' });
    expect(await b.socket.next('both')).toEqual({ event: 'both', channel: 'private-api-multi-b', data: 'payload' });
  });

  it('POST /events with socket_id excludes that socket from delivery', async () => {
    const sender = await rawMember('api-excluded');
    const other = await rawMember('api-excluded');
    await backend(daemon, app).trigger('api-excluded', 'update', { n: 1 }, { socket_id: sender.socketId });
    expect((await other.socket.next('update')).data).toBe('{"n":1}');
    await sleep(150);
    expect(sender.socket.received.some((frame) => frame.event === 'update')).toBe(false);
  });

  it('POST /events with info returns subscription_count and user_count per channel', async () => {
    await rawMember('presence-api-info', 'p1');
    await rawMember('presence-api-info', 'p2');
    await rawMember('presence-api-info', 'p2');
    const response = await backend(daemon, app).trigger('presence-api-info', 'e', {}, { info: 'subscription_count,user_count' });
    expect(await json(response)).toEqual({ channels: { 'presence-api-info': { subscription_count: 3, user_count: 2 } } });
  });

  it('POST /batch_events answers {} and delivers every event', async () => {
    const a = await rawMember('api-batch-a');
    const b = await rawMember('api-batch-b');
    const response = await backend(daemon, app).triggerBatch([
      { channel: 'api-batch-a', name: 'one', data: '1' },
      { channel: 'api-batch-b', name: 'two', data: JSON.stringify({ two: 2 }) },
    ]);
    expect(await json(response)).toEqual({});
    expect((await a.socket.next('one')).data).toBe('1');
    expect((await b.socket.next('two')).data).toBe('{"two":2}');
  });

  it('POST /batch_events with info answers {batch: [...]} in order', async () => {
    await rawMember('api-batch-info');
    const response = await backend(daemon, app).triggerBatch([
      { channel: 'api-batch-info', name: 'e', data: '{}', info: 'subscription_count' },
      { channel: 'api-batch-empty', name: 'e', data: '{}', info: 'subscription_count' },
    ]);
    expect(await json(response)).toEqual({ batch: [{ subscription_count: 1 }, { subscription_count: 0 }] });
  });

  it('GET /channels lists occupied channels, filtered by prefix, with subscription_count', async () => {
    await rawMember('private-list-1');
    await rawMember('private-list-1');
    await rawMember('private-list-2');
    const sdk = backend(daemon, app);
    const all = (await json(await sdk.get({ path: '/channels' }))) as { channels: Record<string, unknown> };
    expect(all.channels).toMatchObject({ 'private-list-1': {}, 'private-list-2': {} });
    const filtered = await json(await sdk.get({ path: '/channels', params: { filter_by_prefix: 'private-list-', info: 'subscription_count' } }));
    expect(filtered).toEqual({ channels: { 'private-list-1': { subscription_count: 2 }, 'private-list-2': { subscription_count: 1 } } });
  });

  it('GET /channels?info=user_count works for presence- and is refused with 400 otherwise', async () => {
    await rawMember('presence-list-users', 'a');
    await rawMember('presence-list-users', 'b');
    const sdk = backend(daemon, app);
    const users = await json(await sdk.get({ path: '/channels', params: { filter_by_prefix: 'presence-list-', info: 'user_count' } }));
    expect(users).toEqual({ channels: { 'presence-list-users': { user_count: 2 } } });
    await expect(sdk.get({ path: '/channels', params: { info: 'user_count' } })).rejects.toMatchObject({ status: 400 });
  });

  it('GET /channels/{channel} reports occupied and subscription_count, and occupied:false when empty', async () => {
    await rawMember('api-one');
    const sdk = backend(daemon, app);
    expect(await json(await sdk.get({ path: '/channels/api-one', params: { info: 'subscription_count' } }))).toEqual({ occupied: true, subscription_count: 1 });
    expect(await json(await sdk.get({ path: '/channels/api-nobody' }))).toEqual({ occupied: false });
  });

  it('GET /channels/{presence} reports user_count', async () => {
    await rawMember('presence-api-one', 'x');
    expect(await json(await backend(daemon, app).get({ path: '/channels/presence-api-one', params: { info: 'user_count,subscription_count' } }))).toEqual({
      occupied: true,
      user_count: 1,
      subscription_count: 1,
    });
  });

  it('GET /channels/{cache channel}?info=cache returns the cached event', async () => {
    const sdk = backend(daemon, app);
    await sdk.trigger('cache-api', 'last', { v: 3 });
    const body = (await json(await sdk.get({ path: '/channels/cache-api', params: { info: 'cache' } }))) as { cache?: { data: string; ttl: number } };
    expect(body).toMatchObject({ occupied: false, cache: { data: '{"v":3}', ttl: expect.any(Number) } });
  });

  it('signs and serves channel names with every allowed punctuation character', async () => {
    const name = 'private-a_b-c=d@e,f.g;h';
    await rawMember(name);
    expect(await json(await backend(daemon, app).get({ path: `/channels/${name}`, params: { info: 'subscription_count' } }))).toEqual({
      occupied: true,
      subscription_count: 1,
    });
  });

  it('POST /batch_events honours socket_id per event', async () => {
    const sender = await rawMember('api-batch-excl');
    const other = await rawMember('api-batch-excl');
    await backend(daemon, app).triggerBatch([{ channel: 'api-batch-excl', name: 'b', data: '1', socket_id: sender.socketId }]);
    await other.socket.next('b');
    sender.socket.send({ event: 'pusher:ping', data: {} });
    await sender.socket.next('pusher:pong');
    expect(sender.socket.received.some((frame) => frame.event === 'b')).toBe(false);
  });

  it('GET /channels/{presence}/users lists the users once each, and 400 for a non-presence channel', async () => {
    await rawMember('presence-api-users', 'v1');
    await rawMember('presence-api-users', 'v2');
    await rawMember('presence-api-users', 'v2');
    const sdk = backend(daemon, app);
    const body = (await json(await sdk.get({ path: '/channels/presence-api-users/users' }))) as { users: { id: string }[] };
    expect(body.users.map((user) => user.id).sort()).toEqual(['v1', 'v2']);
    await expect(sdk.get({ path: '/channels/private-x/users' })).rejects.toMatchObject({ status: 400 });
  });

  it('POST /users/{id}/terminate_connections answers {} and closes that user', async () => {
    const { socket } = await rawMember('presence-api-term', 'to-go');
    expect(await json(await backend(daemon, app).terminateUserConnections('to-go'))).toEqual({});
    expect((await socket.closedWithin()).code).toBe(4009);
  });

  it('GET /connections counts the app connections', async () => {
    const sdk = backend(daemon, app);
    const before = ((await json(await sdk.get({ path: '/connections' }))) as { connections: number }).connections;
    const extra = await Promise.all([1, 2, 3].map(() => connectRaw(daemon, app.key)));
    expect(await json(await sdk.get({ path: '/connections' }))).toEqual({ connections: before + 3 });
    for (const { socket } of extra) socket.close();
    await expect.poll(async () => ((await (await sdk.get({ path: '/connections' })).json()) as { connections: number }).connections).toBe(before);
  });
});
