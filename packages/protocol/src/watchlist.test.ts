import { describe, expect, it } from 'vitest';
import { createApp, type App } from './app.js';
import { createStaticAppProvider } from './app-provider.js';
import { ErrorCode } from './close-codes.js';
import { RealtimeServer } from './realtime-server.js';
import type { NodeLossHandler, Scaler } from './scaler.js';
import { signUser } from './signing.js';
import { createMemoryCluster } from './testing/memory-cluster.js';
import { MemoryTransport, settle, type MemorySocket } from './testing/memory-transport.js';

const app = createApp({ id: 'w', key: 'watch-key', secret: 'watch-secret', enableWatchlistEvents: true, maxWatchlistSize: 3 });
const off = createApp({ id: 'o', key: 'off-key', secret: 'off-secret' });
const apps = [app, off];

type WatchlistEvent = { name: 'online' | 'offline'; user_ids: string[] };

/** The watchlist events a socket heard, flattened in arrival order (what pusher-js emits). */
function watchlistEvents(socket: MemorySocket): WatchlistEvent[] {
  return socket.events('pusher_internal:watchlist_events').flatMap((frame) => (JSON.parse(frame.data as string) as { events: WatchlistEvent[] }).events);
}

function signIn(socket: MemorySocket, on: App, user: object): void {
  const userData = JSON.stringify(user);
  socket.receive({ event: 'pusher:signin', data: { user_data: userData, auth: signUser(on, socket.socketId, userData) } });
}

/** `count` engines on one in-memory cluster, each with its transport. */
async function cluster(count: number): Promise<{ transports: MemoryTransport[]; scalers: Scaler[] }> {
  const memory = createMemoryCluster();
  const scalers = Array.from({ length: count }, () => memory.node());
  const transports = await Promise.all(
    scalers.map(async (scaler) => {
      const server = new RealtimeServer({ apps: createStaticAppProvider(apps), scaler });
      await server.start();
      return new MemoryTransport(server);
    }),
  );
  return { transports, scalers };
}

describe('watchlist events', () => {
  it('sends the watchlist\'s status in one frame after sign-in: the online users, then the others', async () => {
    const { transports: [node] } = await cluster(1);
    const bob = await node!.connect({ appKey: 'watch-key' });
    signIn(bob, app, { id: 'bob' });
    const ann = await node!.connect({ appKey: 'watch-key' });
    signIn(ann, app, { id: 'ann', watchlist: ['bob', 'cy', 'bob'] });
    await settle();
    expect(ann.events('pusher:signin_success')).toHaveLength(1);
    expect(ann.frames.filter((frame) => frame.includes('watchlist_events'))).toEqual([
      '{"event":"pusher_internal:watchlist_events","data":"{\\"events\\":[{\\"name\\":\\"online\\",\\"user_ids\\":[\\"bob\\"]},{\\"name\\":\\"offline\\",\\"user_ids\\":[\\"cy\\"]}]}"}',
    ]);
  });

  it('leaves out an entry with no ids and sends nothing for an empty watchlist', async () => {
    const { transports: [node] } = await cluster(1);
    const ann = await node!.connect({ appKey: 'watch-key' });
    signIn(ann, app, { id: 'ann', watchlist: ['cy'] });
    const dan = await node!.connect({ appKey: 'watch-key' });
    signIn(dan, app, { id: 'dan', watchlist: [] });
    await settle();
    expect(watchlistEvents(ann)).toEqual([{ name: 'offline', user_ids: ['cy'] }]);
    expect(watchlistEvents(dan)).toEqual([]);
  });

  it.each([1, 2])('tells watchers on %i node(s): online at a user\'s first socket anywhere, offline after their last', async (nodes) => {
    const { transports } = await cluster(nodes);
    const on = (index: number) => transports[index % nodes]!;
    const ann = await on(0).connect({ appKey: 'watch-key' });
    signIn(ann, app, { id: 'ann', watchlist: ['bob'] });
    await settle();
    expect(watchlistEvents(ann)).toEqual([{ name: 'offline', user_ids: ['bob'] }]);

    const bobTab1 = await on(1).connect({ appKey: 'watch-key' });
    signIn(bobTab1, app, { id: 'bob' });
    await settle();
    const bobTab2 = await on(0).connect({ appKey: 'watch-key' });
    signIn(bobTab2, app, { id: 'bob' });
    await settle();
    expect(watchlistEvents(ann).slice(1)).toEqual([{ name: 'online', user_ids: ['bob'] }]);

    bobTab1.close(1000, 'bye');
    await settle();
    expect(watchlistEvents(ann)).toHaveLength(2);
    bobTab2.close(1000, 'bye');
    await settle();
    expect(watchlistEvents(ann).slice(2)).toEqual([{ name: 'offline', user_ids: ['bob'] }]);
  });

  it('takes the previous user offline when their only socket signs in as someone else', async () => {
    const { transports: [node] } = await cluster(1);
    const ann = await node!.connect({ appKey: 'watch-key' });
    signIn(ann, app, { id: 'ann', watchlist: ['bob', 'cy'] });
    const socket = await node!.connect({ appKey: 'watch-key' });
    signIn(socket, app, { id: 'bob' });
    await settle();
    signIn(socket, app, { id: 'cy' });
    await settle();
    expect(watchlistEvents(ann)).toEqual([
      { name: 'offline', user_ids: ['bob', 'cy'] },
      { name: 'online', user_ids: ['bob'] },
      { name: 'offline', user_ids: ['bob'] },
      { name: 'online', user_ids: ['cy'] },
    ]);
  });

  it('replaces a watcher\'s watchlist when it signs in again and forgets it when it closes', async () => {
    const { transports: [node] } = await cluster(1);
    const ann = await node!.connect({ appKey: 'watch-key' });
    signIn(ann, app, { id: 'ann', watchlist: ['bob'] });
    await settle();
    signIn(ann, app, { id: 'ann', watchlist: ['cy'] });
    await settle();
    const bob = await node!.connect({ appKey: 'watch-key' });
    signIn(bob, app, { id: 'bob' });
    await settle();
    expect(watchlistEvents(ann)).toEqual([{ name: 'offline', user_ids: ['bob'] }, { name: 'offline', user_ids: ['cy'] }]);
    ann.close(1000, 'bye');
    await settle();
    const cy = await node!.connect({ appKey: 'watch-key' });
    signIn(cy, app, { id: 'cy' });
    await settle();
    expect(watchlistEvents(ann)).toHaveLength(2);
  });

  it('refuses a watchlist longer than max_watchlist_size with 4009 and a reason naming the limit', async () => {
    const { transports: [node], scalers: [scaler] } = await cluster(1);
    const refusals: string[] = [];
    node!.server.events.on('signin.refused', ({ reason }) => refusals.push(reason));
    const ann = await node!.connect({ appKey: 'watch-key' });
    signIn(ann, app, { id: 'ann', watchlist: ['a', 'b', 'c', 'd'] });
    await settle();
    expect(refusals).toEqual(['watchlist_too_long']);
    expect(ann.closed?.code).toBe(ErrorCode.Unauthorized);
    expect(ann.closed?.reason).toBe('user_data.watchlist holds more than 3 user ids, the limit of this app (max_watchlist_size).');
    expect(ann.events('pusher:signin_success')).toEqual([]);
    expect(await scaler!.onlineUsers(app.id, ['ann'])).toEqual([]);
  });

  it('refuses a user id or a watched id that is not Unicode text (a lone surrogate) before the scaler sees it', async () => {
    const { transports: [node], scalers: [scaler] } = await cluster(1);
    const refusals: string[] = [];
    node!.server.events.on('signin.refused', ({ reason }) => refusals.push(reason));
    // An encoder turns both into U+FFFD: the two would be one user in a scaler's keys.
    const lone = await node!.connect({ appKey: 'watch-key' });
    signIn(lone, app, { id: '\ud800' });
    const watcher = await node!.connect({ appKey: 'watch-key' });
    signIn(watcher, app, { id: 'watcher', watchlist: ['ok', 'x\udfff'] });
    await settle();
    expect(refusals).toEqual(['invalid_user_data', 'invalid_watchlist']);
    expect(lone.closed).toMatchObject({ code: ErrorCode.Unauthorized, reason: 'user_data.id must be Unicode text (it holds a lone UTF-16 surrogate).' });
    expect(watcher.closed?.code).toBe(ErrorCode.Unauthorized);
    expect(watcher.closed?.reason).toMatch(/^user_data\.watchlist\[1\] must be a user id/);
    expect(await scaler!.onlineUsers(app.id, ['\ud800', '\ufffd', 'watcher'])).toEqual([]);
  });

  it('ignores the watchlist of an app without watchlist events and records no sign-in', async () => {
    const { transports: [node], scalers: [scaler] } = await cluster(1);
    const ann = await node!.connect({ appKey: 'off-key' });
    signIn(ann, off, { id: 'ann', watchlist: 'not even a list' });
    const bob = await node!.connect({ appKey: 'off-key' });
    signIn(bob, off, { id: 'bob', watchlist: ['ann'] });
    await settle();
    expect(ann.events('pusher:signin_success')).toHaveLength(1);
    expect(watchlistEvents(bob)).toEqual([]);
    expect(await scaler!.onlineUsers(off.id, ['ann', 'bob'])).toEqual([]);
  });

  it('tells watchers, on every node, of the users a lost node took offline', async () => {
    let reportLoss: NodeLossHandler | undefined;
    const [a, b] = createMemoryClusterNodes(2);
    const reporting: Scaler = { ...a!, start: async (onMessage, onNodeLost, options) => ((reportLoss = onNodeLost), a!.start(onMessage, onNodeLost, options)) };
    const nodes = await Promise.all(
      [reporting, b!].map(async (scaler) => {
        const server = new RealtimeServer({ apps: createStaticAppProvider(apps), scaler });
        await server.start();
        return new MemoryTransport(server);
      }),
    );
    const here = await nodes[0]!.connect({ appKey: 'watch-key' });
    signIn(here, app, { id: 'ann', watchlist: ['bob'] });
    const there = await nodes[1]!.connect({ appKey: 'watch-key' });
    signIn(there, app, { id: 'cy', watchlist: ['bob'] });
    await settle();
    reportLoss!({ members: [], vacatedChannels: [], usersOffline: [{ appId: app.id, userId: 'bob' }] });
    await settle();
    expect(watchlistEvents(here).at(-1)).toEqual({ name: 'offline', user_ids: ['bob'] });
    expect(watchlistEvents(there)).toEqual([{ name: 'offline', user_ids: ['bob'] }, { name: 'offline', user_ids: ['bob'] }]);
  });
});

function createMemoryClusterNodes(count: number): Scaler[] {
  const memory = createMemoryCluster();
  return Array.from({ length: count }, () => memory.node());
}
