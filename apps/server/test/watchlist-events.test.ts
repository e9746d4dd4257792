import { beforeAll, describe, expect, it } from 'vitest';
import { daemonConfig, testApp, type TestApp } from './helpers/apps.js';
import { backend, disconnect, pusherClient } from './helpers/clients.js';
import { startDaemon, type RunningDaemon } from './helpers/daemon.js';
import { connectRaw } from './helpers/raw-socket.js';
import { testScalingBackends, uniqueChannel, type ScalingBackend } from './helpers/redis.js';
import { sleep, waitFor } from './helpers/wait.js';

/**
 * Pusher's watchlist events ("Watchlist events" in Pusher's user authentication docs), through
 * pusher-js's own API: `pusher.user.watchlist.bind('online' | 'offline')`. A user is online while
 * one of its connections is signed in anywhere in the cluster.
 */

const stores = await testScalingBackends();
const app = testApp('watchlist', { enable_watchlist_events: true, max_watchlist_size: 3 });
const plain = testApp('watchlist-off');
let run = 0;

type WatchlistEvent = { name: 'online' | 'offline'; user_ids: string[] };

/** pusher-js signed in as `id` with `watchlist`, collecting what `user.watchlist` emits. */
async function watcher(daemon: RunningDaemon, id: string, watchlist: string[], on: TestApp = app) {
  const client = pusherClient(daemon, on, { user: { id, watchlist } });
  const events: WatchlistEvent[] = [];
  client.user.watchlist.bind('online', (event: WatchlistEvent) => events.push({ name: 'online', user_ids: event.user_ids }));
  client.user.watchlist.bind('offline', (event: WatchlistEvent) => events.push({ name: 'offline', user_ids: event.user_ids }));
  client.signin();
  await waitFor(() => (client.user.serverToUserChannel?.subscribed ? true : undefined), `${id} to sign in`);
  return { client, events };
}

/** A pusher-js tab signed in as `id` (no watchlist). */
async function tab(daemon: RunningDaemon, id: string, on: TestApp = app) {
  return (await watcher(daemon, id, [], on)).client;
}

/** The same cases with the watcher on `here` and the watched users on `there` (one daemon: the same). */
function watchlistTests(daemons: () => { here: RunningDaemon; there: RunningDaemon }) {
  const user = (name: string) => `${name}-${++run}`;

  it('sends the watched users\' status once signed in: those online now, then the others', async () => {
    const { here, there } = daemons();
    const [bob, cy] = [user('bob'), user('cy')];
    await tab(there, bob);
    const ann = await watcher(here, user('ann'), [bob, cy]);
    await waitFor(() => (ann.events.length >= 2 ? true : undefined), 'the initial status');
    expect(ann.events).toEqual([
      { name: 'online', user_ids: [bob] },
      { name: 'offline', user_ids: [cy] },
    ]);
  });

  it('says online at a watched user\'s first connection, nothing for a second tab, offline only after the last one closed', async () => {
    const { here, there } = daemons();
    const dan = user('dan');
    const ann = await watcher(here, user('ann'), [dan]);
    await waitFor(() => (ann.events.length === 1 ? true : undefined), 'the initial status');
    expect(ann.events).toEqual([{ name: 'offline', user_ids: [dan] }]);

    const first = await tab(there, dan);
    await waitFor(() => (ann.events.length === 2 ? true : undefined), `${dan} online`);
    expect(ann.events[1]).toEqual({ name: 'online', user_ids: [dan] });
    const second = await tab(here, dan);
    await sleep(300);
    expect(ann.events).toHaveLength(2);

    disconnect(first);
    await sleep(300);
    expect(ann.events).toHaveLength(2);
    disconnect(second);
    await waitFor(() => (ann.events.length === 3 ? true : undefined), `${dan} offline`);
    expect(ann.events[2]).toEqual({ name: 'offline', user_ids: [dan] });
  });
}

describe('watchlist events on one daemon', () => {
  let daemon: RunningDaemon;
  beforeAll(async () => {
    daemon = await startDaemon(daemonConfig([app, plain]));
  });

  watchlistTests(() => ({ here: daemon, there: daemon }));

  it('refuses a watchlist longer than max_watchlist_size with 4009 and a reason naming the limit', async () => {
    const { socket, socketId } = await connectRaw(daemon, app.key);
    socket.send({ event: 'pusher:signin', data: backend(daemon, app).authenticateUser(socketId, { id: 'greedy', watchlist: ['a', 'b', 'c', 'd'] }) });
    const error = await socket.next('pusher:error');
    const reason = 'user_data.watchlist holds more than 3 user ids, the limit of this app (max_watchlist_size).';
    expect(error.data).toEqual({ code: 4009, message: reason });
    expect(await socket.closedWithin()).toMatchObject({ code: 4009, reason });
  });

  it('sends no watchlist events for an app without enable_watchlist_events', async () => {
    const { socket, socketId } = await connectRaw(daemon, plain.key);
    socket.send({ event: 'pusher:signin', data: backend(daemon, plain).authenticateUser(socketId, { id: 'quiet-ann', watchlist: ['quiet-bob'] }) });
    await socket.next('pusher:signin_success');
    await tab(daemon, 'quiet-bob', plain);
    await sleep(300);
    expect(socket.received.filter((frame) => frame.event === 'pusher_internal:watchlist_events')).toEqual([]);
  });
});

function onTwoDaemons(store: ScalingBackend) {
  let one: RunningDaemon;
  let two: RunningDaemon;
  let doomed: RunningDaemon;
  beforeAll(async () => {
    const deployment = store.config(uniqueChannel('watchlist'));
    const start = () => startDaemon(daemonConfig([app], deployment));
    [one, two, doomed] = await Promise.all([start(), start(), start()]);
  });
  watchlistTests(() => ({ here: one, there: two }));

  it('says offline, once, about a user whose last connection was on a SIGKILLed daemon, and nothing about one still signed in elsewhere', async () => {
    const [ghost, both] = [`ghost-${++run}`, `both-${run}`];
    await tab(doomed, ghost);
    await tab(doomed, both);
    await tab(one, both);
    const ann = await watcher(two, `ann-${run}`, [ghost, both]);
    await waitFor(() => (ann.events.length === 1 ? true : undefined), 'the initial status');
    expect(ann.events).toEqual([{ name: 'online', user_ids: [ghost, both] }]);

    await doomed.kill();
    await waitFor(() => (ann.events.length === 2 ? true : undefined), `${ghost} offline after the daemon died`, 12_000);
    await sleep(500);
    expect(ann.events.slice(1)).toEqual([{ name: 'offline', user_ids: [ghost] }]);
  }, 25_000);
}

for (const store of stores) describe(`watchlist events across two daemons on ${store.name}`, () => onTwoDaemons(store));
