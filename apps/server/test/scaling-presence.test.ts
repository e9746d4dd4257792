import { beforeAll, describe, expect, it } from 'vitest';
import { daemonConfig, testApp } from './helpers/apps.js';
import { backend } from './helpers/clients.js';
import { startDaemon, type RunningDaemon } from './helpers/daemon.js';
import type { RawSocket } from './helpers/raw-socket.js';
import { subscribedRaw } from './helpers/subscribed-raw.js';
import { testScalingBackends, uniqueChannel, type ScalingBackend } from './helpers/redis.js';
import { sleep } from './helpers/wait.js';

const stores = await testScalingBackends();
const app = testApp('cluster-presence');

/** A raw socket on `daemon` joined to a presence channel as `userId`. */
async function join(daemon: RunningDaemon, channel: string, userId: string): Promise<RawSocket> {
  return (await subscribedRaw(daemon, app, channel, { user_id: userId, user_info: { name: userId } })).socket;
}

const memberEvents = (socket: RawSocket, event: 'pusher_internal:member_added' | 'pusher_internal:member_removed', userId: string) =>
  socket.received.filter((frame) => frame.event === event && (JSON.parse(frame.data as string) as { user_id: string }).user_id === userId).length;

async function channelInfo(daemon: RunningDaemon, channel: string) {
  const response = await backend(daemon, app).get({ path: `/channels/${channel}`, params: { info: 'user_count,subscription_count' } });
  return response.json();
}

async function users(daemon: RunningDaemon, channel: string) {
  const response = await backend(daemon, app).get({ path: `/channels/${channel}/users` });
  return ((await response.json()) as { users: { id: string }[] }).users.map((user) => user.id).sort();
}

/** The same tests on each backend: one Redis, and a Redis Cluster (sharded pub/sub). */
function presenceTests(store: ScalingBackend) {
  let one: RunningDaemon;
  let two: RunningDaemon;
  let doomed: RunningDaemon;

  beforeAll(async () => {
    const deployment = store.config(uniqueChannel('presence'));
    [one, two, doomed] = (await Promise.all([0, 1, 2].map(() => startDaemon(daemonConfig([app], deployment))))) as [RunningDaemon, RunningDaemon, RunningDaemon];
  });

  it('count a user with sockets on two nodes once: user_count, /users, one member_added, one member_removed', async () => {
    const channel = 'presence-team';
    const watcher = await join(one, channel, 'watcher');
    const tabOnOne = await join(one, channel, 'ann');
    await watcher.next((frame) => frame.event === 'pusher_internal:member_added');
    const tabOnTwo = await join(two, channel, 'ann');

    expect(await channelInfo(two, channel)).toEqual({ occupied: true, user_count: 2, subscription_count: 3 });
    expect(await users(one, channel)).toEqual(['ann', 'watcher']);
    expect(await users(two, channel)).toEqual(['ann', 'watcher']);
    await sleep(300);
    expect(memberEvents(watcher, 'pusher_internal:member_added', 'ann')).toBe(1);

    tabOnOne.close();
    await sleep(300);
    expect(memberEvents(watcher, 'pusher_internal:member_removed', 'ann')).toBe(0);
    expect(await users(two, channel)).toEqual(['ann', 'watcher']);

    tabOnTwo.close();
    await watcher.next('pusher_internal:member_removed');
    expect(await users(two, channel)).toEqual(['watcher']);
    expect(await channelInfo(one, channel)).toEqual({ occupied: true, user_count: 1, subscription_count: 1 });
  });

  it('remove the members and connections of a SIGKILLed node cluster-wide, with member_removed to the others, within 10 s', async () => {
    const channel = 'presence-crash';
    const watcherOne = await join(one, channel, 'w1');
    const watcherTwo = await join(two, channel, 'w2');
    // 'ghost' lives only on the doomed node; 'both' also has a socket on node one and must stay.
    await join(doomed, channel, 'ghost');
    await join(doomed, channel, 'both');
    await join(one, channel, 'both');
    expect(await users(one, channel)).toEqual(['both', 'ghost', 'w1', 'w2']);

    const killedAt = Date.now();
    await doomed.kill();
    const removedOnOne = await watcherOne.next((frame) => frame.event === 'pusher_internal:member_removed', 10_000);
    const detectedAfterMs = Date.now() - killedAt;
    console.info(`[server] SIGKILLed node's members removed after ${detectedAfterMs} ms`);
    expect(JSON.parse(removedOnOne.data as string)).toEqual({ user_id: 'ghost' });
    await watcherTwo.next('pusher_internal:member_removed');
    expect(detectedAfterMs).toBeLessThan(10_000);

    await sleep(500);
    expect(memberEvents(watcherOne, 'pusher_internal:member_removed', 'ghost')).toBe(1);
    expect(memberEvents(watcherTwo, 'pusher_internal:member_removed', 'ghost')).toBe(1);
    expect(memberEvents(watcherOne, 'pusher_internal:member_removed', 'both')).toBe(0);
    expect(await users(two, channel)).toEqual(['both', 'w1', 'w2']);
    expect(await channelInfo(two, channel)).toEqual({ occupied: true, user_count: 3, subscription_count: 3 });
  }, 20_000);
}

for (const store of stores) describe(`presence across daemons on ${store.name}`, () => presenceTests(store));
describe.skipIf(stores.length > 0)('presence across daemons', () => {
  it('needs Redis (skipped outside CI)', () => {});
});
