import { beforeAll, describe, expect, it } from 'vitest';
import { daemonConfig, testApp } from './helpers/apps.js';
import { backend, pusherClient, subscribed } from './helpers/clients.js';
import { startDaemon, type RunningDaemon } from './helpers/daemon.js';
import { connectRaw, openRaw, type RawSocket } from './helpers/raw-socket.js';
import { subscribedRaw } from './helpers/subscribed-raw.js';
import { testScalingBackends, uniqueChannel, type ScalingBackend } from './helpers/redis.js';
import { sleep, waitFor } from './helpers/wait.js';

const stores = await testScalingBackends();
const app = testApp('cluster');
const limited = testApp('cluster-limited', { max_connections: 3 });

/** A raw socket on `daemon` subscribed to `channel`, signed by the SDK when it needs auth. */
async function member(daemon: RunningDaemon, channel: string, userId = 'u1'): Promise<{ socket: RawSocket; socketId: string }> {
  return subscribedRaw(daemon, app, channel, userId);
}

const count = (socket: RawSocket, event: string) => socket.received.filter((frame) => frame.event === event).length;

/** The same tests on each backend: one Redis, and a Redis Cluster (sharded pub/sub). */
function deliveryTests(store: ScalingBackend) {
  let one: RunningDaemon;
  let two: RunningDaemon;
  /** Another deployment on the same Redis, same app credentials, other `scaling.channel`. */
  let stranger: RunningDaemon;

  beforeAll(async () => {
    const deployment = store.config(uniqueChannel('delivery'));
    [one, two, stranger] = await Promise.all([
      startDaemon(daemonConfig([app, limited], deployment)),
      startDaemon(daemonConfig([app, limited], deployment)),
      startDaemon(daemonConfig([app], store.config(uniqueChannel('stranger')))),
    ]);
  });

  it('deliver an HTTP API event triggered on one node to pusher-js on the other, exactly once', async () => {
    const client = pusherClient(two, app);
    const channel = await subscribed(client, 'orders');
    const received: unknown[] = [];
    channel.bind('shipped', (data: unknown) => received.push(data));
    await backend(one, app).trigger('orders', 'shipped', { id: 7 });
    await waitFor(() => (received.length === 1 ? true : undefined), 'the event on the other node');
    await sleep(200);
    expect(received).toEqual([{ id: 7 }]);
  });

  it('honour socket_id exclusion for the sender, whichever node it is on', async () => {
    const sender = await member(two, 'exclusive');
    const sameNode = await member(two, 'exclusive');
    const otherNode = await member(one, 'exclusive');
    await backend(one, app).trigger('exclusive', 'note', { n: 1 }, { socket_id: sender.socketId });
    await otherNode.socket.next('note');
    await sameNode.socket.next('note');
    await sleep(200);
    expect(count(sender.socket, 'note')).toBe(0);
    expect(count(sameNode.socket, 'note')).toBe(1);
    expect(count(otherNode.socket, 'note')).toBe(1);
  });

  it('relay a client event to the other node, not back to the sender', async () => {
    const sender = await member(one, 'private-room');
    const receiver = await member(two, 'private-room');
    sender.socket.send({ event: 'client-typing', channel: 'private-room', data: { who: 'a' } });
    const relayed = await receiver.socket.next('client-typing');
    expect(relayed).toEqual({ event: 'client-typing', channel: 'private-room', data: { who: 'a' } });
    await sleep(200);
    expect(count(sender.socket, 'client-typing')).toBe(0);
  });

  it('replay the last event of a cache channel to a subscriber on the other node', async () => {
    await backend(one, app).trigger('cache-prices', 'price', { p: 42 });
    const { socket } = await connectRaw(two, app.key);
    socket.subscribe('cache-prices');
    await socket.next('pusher_internal:subscription_succeeded');
    const replayed = await socket.next('price');
    expect(JSON.parse(replayed.data as string)).toEqual({ p: 42 });
    expect(count(socket, 'pusher:cache_miss')).toBe(0);
  });

  it('deliver sendToUser to the user signed in on the other node, and terminate their connections there', async () => {
    const { socket, socketId } = await connectRaw(two, app.key);
    socket.send({ event: 'pusher:signin', data: backend(two, app).authenticateUser(socketId, { id: 'erin' }) });
    await socket.next('pusher:signin_success');
    await backend(one, app).sendToUser('erin', 'direct', { note: 'hi' });
    const direct = await socket.next('direct');
    expect(JSON.parse(direct.data as string)).toEqual({ note: 'hi' });

    await backend(one, app).terminateUserConnections('erin');
    const closed = await socket.closedWithin(5_000);
    expect(closed.code).toBe(4009);
  });

  it('count connections cluster-wide for max_connections and the HTTP API', async () => {
    const held = [await connectRaw(one, limited.key), await connectRaw(two, limited.key), await connectRaw(one, limited.key)];
    const connections = await backend(two, limited).get({ path: '/connections' });
    expect(await connections.json()).toEqual({ connections: 3 });
    const refused = await openRaw(two, limited.key);
    const error = await refused.next('pusher:error');
    expect((error.data as { code: number }).code).toBe(4004);
    expect((await refused.closedWithin()).code).toBe(4004);
    for (const { socket } of held) socket.close();
  });

  it('keep two deployments sharing one Redis apart: no events, no counts across', async () => {
    const outsider = await member(stranger, 'orders-isolated');
    const insider = await member(one, 'orders-isolated');
    await backend(two, app).trigger('orders-isolated', 'shipped', { id: 1 });
    await insider.socket.next('shipped');
    await sleep(300);
    expect(count(outsider.socket, 'shipped')).toBe(0);
    const response = await backend(stranger, app).get({ path: '/channels/orders-isolated', params: { info: 'subscription_count' } });
    expect(await response.json()).toEqual({ occupied: true, subscription_count: 1 });
  });
}

for (const store of stores) describe(`two daemons on ${store.name} (scaling.enabled)`, () => deliveryTests(store));
describe.skipIf(stores.length > 0)('two daemons on Redis', () => {
  it('needs Redis (skipped outside CI)', () => {});
});
