import { beforeAll, describe, expect, it } from 'vitest';
import { daemonConfig, testApp } from './helpers/apps.js';
import { backend, disconnect, pusherClient, subscribed } from './helpers/clients.js';
import { startDaemon, type RunningDaemon } from './helpers/daemon.js';
import { connectRaw, type RawSocket } from './helpers/raw-socket.js';
import { sleep, waitFor } from './helpers/wait.js';

const app = testApp('presence');
let daemon: RunningDaemon;

beforeAll(async () => {
  daemon = await startDaemon(daemonConfig([app]));
});

/** A raw socket joined to a presence channel as `member`; resolves with the parsed subscription data. */
async function joinRaw(channel: string, member: { user_id: string | number; user_info?: unknown }): Promise<{ socket: RawSocket; presence: unknown }> {
  const { socket, socketId } = await connectRaw(daemon, app.key);
  const channelData = JSON.stringify(member);
  const signed = backend(daemon, app).authorizeChannel(socketId, channel, member as { user_id: string });
  expect(signed.channel_data).toBe(channelData);
  socket.subscribe(channel, signed);
  const succeeded = await socket.next('pusher_internal:subscription_succeeded');
  expect(succeeded.channel).toBe(channel);
  expect(typeof succeeded.data).toBe('string');
  return { socket, presence: (JSON.parse(succeeded.data as string) as { presence: unknown }).presence };
}

async function userCount(channel: string): Promise<number> {
  const response = await backend(daemon, app).get({ path: `/channels/${channel}`, params: { info: 'user_count' } });
  return ((await response.json()) as { user_count: number }).user_count;
}

describe('presence channels', () => {
  it('lists members as {ids, hash, count} in pusher_internal:subscription_succeeded', async () => {
    const alice = await joinRaw('presence-team', { user_id: 'alice', user_info: { name: 'Alice' } });
    expect(alice.presence).toEqual({ ids: ['alice'], hash: { alice: { name: 'Alice' } }, count: 1 });
    const bob = await joinRaw('presence-team', { user_id: 'bob', user_info: { name: 'Bob', role: 'admin' } });
    expect(bob.presence).toEqual({
      ids: expect.arrayContaining(['alice', 'bob']),
      hash: { alice: { name: 'Alice' }, bob: { name: 'Bob', role: 'admin' } },
      count: 2,
    });
  });

  it('sends pusher_internal:member_added and member_removed to the others, not to the member itself', async () => {
    const alice = await joinRaw('presence-moves', { user_id: 'alice', user_info: { name: 'Alice' } });
    const bob = await joinRaw('presence-moves', { user_id: 'bob' });
    const added = await alice.socket.next('pusher_internal:member_added');
    expect(added).toEqual({ event: 'pusher_internal:member_added', channel: 'presence-moves', data: expect.any(String) });
    expect(JSON.parse(added.data as string)).toEqual({ user_id: 'bob', user_info: {} });

    bob.socket.close();
    const removed = await alice.socket.next('pusher_internal:member_removed');
    expect(JSON.parse(removed.data as string)).toEqual({ user_id: 'bob' });
    expect(bob.socket.received.some((frame) => frame.event === 'pusher_internal:member_added')).toBe(false);
  });

  it('sends member_removed when a member unsubscribes without disconnecting', async () => {
    const stayer = await joinRaw('presence-unsub', { user_id: 'stayer' });
    const leaver = await joinRaw('presence-unsub', { user_id: 'leaver' });
    await stayer.socket.next('pusher_internal:member_added');
    leaver.socket.send({ event: 'pusher:unsubscribe', data: { channel: 'presence-unsub' } });
    expect(JSON.parse((await stayer.socket.next('pusher_internal:member_removed')).data as string)).toEqual({ user_id: 'leaver' });
    expect(leaver.socket.isOpen).toBe(true);
  });

  it('turns a numeric user_id into a string member id', async () => {
    const member = await joinRaw('presence-numbers', { user_id: 42 });
    expect(member.presence).toEqual({ ids: ['42'], hash: { '42': {} }, count: 1 });
  });

  it('counts a user on two sockets as one member: added on the first, removed after the last', async () => {
    const watcher = await joinRaw('presence-tabs', { user_id: 'watcher' });
    const tab1 = await joinRaw('presence-tabs', { user_id: 'carol', user_info: { tab: 1 } });
    expect(JSON.parse((await watcher.socket.next('pusher_internal:member_added')).data as string)).toMatchObject({ user_id: 'carol' });
    const tab2 = await joinRaw('presence-tabs', { user_id: 'carol', user_info: { tab: 1 } });
    expect(tab2.presence).toMatchObject({ count: 2 });
    expect(await userCount('presence-tabs')).toBe(2);

    tab1.socket.close();
    await tab1.socket.closed;
    await sleep(200);
    expect(watcher.socket.received.filter((frame) => frame.event.startsWith('pusher_internal:member_')).length).toBe(1);
    expect(await userCount('presence-tabs')).toBe(2);

    tab2.socket.close();
    const removed = await watcher.socket.next('pusher_internal:member_removed');
    expect(JSON.parse(removed.data as string)).toEqual({ user_id: 'carol' });
    expect(await userCount('presence-tabs')).toBe(1);
  });

  it('keeps pusher-js channel.members in step: me, count, each, member_added and member_removed', async () => {
    const ann = pusherClient(daemon, app, { presence: { user_id: 'ann', user_info: { name: 'Ann' } } });
    const annChannel = await subscribed(ann, 'presence-js');
    const members = annChannel as unknown as { members: { count: number; me: { id: string; info: unknown }; each(cb: (m: { id: string; info: unknown }) => void): void } };
    expect(members.members.count).toBe(1);
    expect(members.members.me).toEqual({ id: 'ann', info: { name: 'Ann' } });

    const added: unknown[] = [];
    const removed: unknown[] = [];
    annChannel.bind('pusher:member_added', (member: unknown) => added.push(member));
    annChannel.bind('pusher:member_removed', (member: unknown) => removed.push(member));

    const ben = pusherClient(daemon, app, { presence: { user_id: 'ben', user_info: { name: 'Ben' } } });
    await subscribed(ben, 'presence-js');
    await waitFor(() => added[0], 'pusher:member_added at Ann');
    expect(added).toEqual([{ id: 'ben', info: { name: 'Ben' } }]);
    expect(members.members.count).toBe(2);
    const ids: string[] = [];
    members.members.each((member) => ids.push(member.id));
    expect(ids.sort()).toEqual(['ann', 'ben']);

    disconnect(ben);
    await waitFor(() => removed[0], 'pusher:member_removed at Ann');
    expect(removed).toEqual([{ id: 'ben', info: { name: 'Ben' } }]);
    expect(members.members.count).toBe(1);
  });

  it('lists presence users through the HTTP API', async () => {
    await joinRaw('presence-listed', { user_id: 'u-1' });
    await joinRaw('presence-listed', { user_id: 'u-2' });
    const response = await backend(daemon, app).get({ path: '/channels/presence-listed/users' });
    const body = (await response.json()) as { users: { id: string }[] };
    expect(body.users.map((user) => user.id).sort()).toEqual(['u-1', 'u-2']);
  });
});
