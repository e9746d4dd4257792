import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebhookReceiver, type WebhookReceiver } from '@org/webhooks/testing';
import { daemonConfig, testApp } from './helpers/apps.js';
import { backend } from './helpers/clients.js';
import { startDaemon, type RunningDaemon } from './helpers/daemon.js';
import { connectRaw, type RawSocket } from './helpers/raw-socket.js';
import { scalingConfig, testRedisUrl, uniqueChannel } from './helpers/redis.js';
import { sleep } from './helpers/wait.js';

const redisUrl = await testRedisUrl();
const app = testApp('cluster-webhooks');
let hook: WebhookReceiver;
let one: RunningDaemon;
let two: RunningDaemon;

beforeAll(async () => {
  if (!redisUrl) return;
  hook = await startWebhookReceiver(app);
  const config = daemonConfig([{ ...app, webhooks: [{ url: hook.url }] }], scalingConfig(redisUrl, uniqueChannel('webhooks')));
  [one, two] = (await Promise.all([startDaemon(config), startDaemon(config)])) as [RunningDaemon, RunningDaemon];
});

afterAll(async () => {
  await hook?.close();
});

async function join(daemon: RunningDaemon, channel: string, userId?: string): Promise<{ socket: RawSocket; socketId: string }> {
  const connection = await connectRaw(daemon, app.key);
  const signer = backend(daemon, app);
  const auth = channel.startsWith('presence-')
    ? signer.authorizeChannel(connection.socketId, channel, { user_id: userId ?? 'nobody' })
    : channel.startsWith('private-')
      ? signer.authorizeChannel(connection.socketId, channel)
      : {};
  connection.socket.subscribe(channel, auth);
  await connection.socket.next('pusher_internal:subscription_succeeded');
  return connection;
}

const named = (name: string) => hook.accepted().filter((event) => event['name'] === name);

describe.skipIf(!redisUrl)('webhooks with two daemons on one Redis', () => {
  it('sends each webhook once per cluster, not once per node', async () => {
    const onOne = await join(one, 'presence-shared', 'ann');
    const onTwo = await join(two, 'presence-shared', 'ann');
    await join(two, 'presence-shared', 'bob');
    onOne.socket.send({ event: 'client-wave', channel: 'presence-shared', data: { from: 'one' } });

    await hook.waitForAccepted(4);
    await sleep(300);
    expect(named('channel_occupied')).toEqual([{ name: 'channel_occupied', channel: 'presence-shared' }]);
    expect(named('member_added')).toEqual([
      { name: 'member_added', channel: 'presence-shared', user_id: 'ann' },
      { name: 'member_added', channel: 'presence-shared', user_id: 'bob' },
    ]);
    expect(named('client_event')).toEqual([
      { name: 'client_event', channel: 'presence-shared', event: 'client-wave', data: '{"from":"one"}', socket_id: onOne.socketId, user_id: 'ann' },
    ]);

    // ann leaves node one but is still on node two: no member_removed at all.
    onOne.socket.close();
    await sleep(300);
    onTwo.socket.close();
    const leaves = await hook.waitForAccepted(5, 8_000);
    await sleep(300);
    expect(leaves.slice(4)).toEqual([{ name: 'member_removed', channel: 'presence-shared', user_id: 'ann' }]);
    expect(hook.received.every((request) => request.valid)).toBe(true);
  });
});
