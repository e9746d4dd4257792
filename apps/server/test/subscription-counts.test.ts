import { startWebhookReceiver, type WebhookReceiver } from '@org/webhooks/testing';
import type Pusher from 'pusher-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { daemonConfig, testApp, type TestApp } from './helpers/apps.js';
import { disconnect, pusherClient, subscribed } from './helpers/clients.js';
import { startDaemon, type RunningDaemon } from './helpers/daemon.js';
import { testScalingBackends, uniqueChannel, type ScalingBackend } from './helpers/redis.js';
import { sleep, waitFor } from './helpers/wait.js';

const stores = await testScalingBackends();
/** A short interval keeps the trailing updates of these tests quick; the rule is the same at the default 1 s. */
const counted = testApp('counted', { enable_subscription_count: true, subscription_count_interval_ms: 100 });
const uncounted = testApp('uncounted');

/** A pusher-js channel with what `pusher:subscription_count` told it, in order. */
interface CountedChannel {
  channel: ReturnType<Pusher['subscribe']>;
  counts: number[];
}

async function subscribeCounting(daemon: RunningDaemon, app: TestApp, name: string, userId = 'u1'): Promise<{ client: Pusher; counted: CountedChannel }> {
  const client = pusherClient(daemon, app, { presence: { user_id: userId } });
  const counts: number[] = [];
  const channel = client.subscribe(name);
  channel.bind('pusher:subscription_count', (data: { subscription_count: number }) => counts.push(data.subscription_count));
  await subscribed(client, name);
  return { client, counted: { channel, counts } };
}

/** Resolves once every channel's `subscriptionCount` (pusher-js's own) is `count`, and its last event said so. */
async function allSee(channels: CountedChannel[], count: number): Promise<void> {
  await waitFor(
    () => (channels.every(({ channel, counts }) => (channel as unknown as { subscriptionCount: unknown }).subscriptionCount === count && counts.at(-1) === count) ? true : undefined),
    `every subscriber to see subscriptionCount ${count}`,
  );
}

describe('subscription counts on one daemon, through pusher-js', () => {
  let daemon: RunningDaemon;
  beforeAll(async () => {
    daemon = await startDaemon(daemonConfig([counted, uncounted]));
  });

  it('fire pusher:subscription_count and keep channel.subscriptionCount, up on subscribe, down on unsubscribe and disconnect', async () => {
    const first = await subscribeCounting(daemon, counted, 'lobby');
    await allSee([first.counted], 1);
    const second = await subscribeCounting(daemon, counted, 'lobby');
    const third = await subscribeCounting(daemon, counted, 'lobby');
    await allSee([first.counted, second.counted, third.counted], 3);

    third.client.unsubscribe('lobby');
    await allSee([first.counted, second.counted], 2);
    disconnect(second.client);
    await allSee([first.counted], 1);
  });

  it('count private and encrypted channels too', async () => {
    const [a, b] = [await subscribeCounting(daemon, counted, 'private-team'), await subscribeCounting(daemon, counted, 'private-team')];
    await allSee([a.counted, b.counted], 2);
    const [c, d] = [await subscribeCounting(daemon, counted, 'private-encrypted-vault'), await subscribeCounting(daemon, counted, 'private-encrypted-vault')];
    await allSee([c.counted, d.counted], 2);
  });

  it('send no count on presence channels, nor for an app with the option off', async () => {
    const presence = [await subscribeCounting(daemon, counted, 'presence-room', 'ann'), await subscribeCounting(daemon, counted, 'presence-room', 'bob')];
    const off = [await subscribeCounting(daemon, uncounted, 'lobby'), await subscribeCounting(daemon, uncounted, 'lobby')];
    // A counted channel subscribed afterwards proves count frames flow meanwhile.
    const witness = await subscribeCounting(daemon, counted, 'witness');
    await allSee([witness.counted], 1);
    await sleep(400);
    expect([...presence, ...off].map(({ counted: { counts } }) => counts)).toEqual([[], [], [], []]);
  });
});

describe('the subscription_count webhook from the daemon', () => {
  let hook: WebhookReceiver;
  afterAll(async () => {
    await hook.close();
  });

  it("sends Pusher's payload, signed, to a webhook whose event_types include subscription_count", async () => {
    const app = testApp('counted-hooks', { enable_subscription_count: true, subscription_count_interval_ms: 100 });
    hook = await startWebhookReceiver(app);
    const daemon = await startDaemon(daemonConfig([{ ...app, webhooks: [{ url: hook.url, event_types: ['subscription_count'] }] }]));
    await subscribeCounting(daemon, app, 'hooked');
    await subscribeCounting(daemon, app, 'hooked');
    // With two workers each reports its own changes; the receiver may get them in any order, the count 2 among them.
    await waitFor(() => (hook.received.some((request) => request.rawBody.includes('"subscription_count":2')) ? true : undefined), 'a subscription_count webhook with 2');
    const events = hook.received.flatMap((request) => (JSON.parse(request.rawBody) as { events: unknown[] }).events);
    expect(events).toContainEqual({ name: 'subscription_count', channel: 'hooked', subscription_count: 2 });
    expect(events.every((event) => (event as { name: string }).name === 'subscription_count')).toBe(true);
    expect(hook.received.every((request) => request.valid)).toBe(true);
  });
});

/** The same tests on each backend: one Redis, and a Redis Cluster (sharded pub/sub). */
function clusterTests(store: ScalingBackend) {
  let one: RunningDaemon;
  let two: RunningDaemon;
  let doomed: RunningDaemon;

  beforeAll(async () => {
    const deployment = store.config(uniqueChannel('subscription-counts'));
    [one, two, doomed] = await Promise.all([0, 1, 2].map(() => startDaemon(daemonConfig([counted], deployment)))) as [RunningDaemon, RunningDaemon, RunningDaemon];
  });

  it('give every subscriber, on either node, the cluster-wide count as it goes up and down', async () => {
    const onOne = await subscribeCounting(one, counted, 'stadium');
    await allSee([onOne.counted], 1);
    const onTwo = await subscribeCounting(two, counted, 'stadium');
    await allSee([onOne.counted, onTwo.counted], 2);
    const more = [await subscribeCounting(two, counted, 'stadium'), await subscribeCounting(one, counted, 'stadium')];
    const everyone = [onOne, onTwo, ...more].map(({ counted }) => counted);
    await allSee(everyone, 4);

    more[0]!.client.unsubscribe('stadium');
    await allSee([onOne.counted, onTwo.counted, more[1]!.counted], 3);
    disconnect(more[1]!.client);
    await allSee([onOne.counted, onTwo.counted], 2);
    disconnect(onOne.client);
    await allSee([onTwo.counted], 1);
  });

  it('give the survivors the lower count after a node with subscribers is SIGKILLed, once its loss is detected', async () => {
    const survivors = [await subscribeCounting(one, counted, 'arena'), await subscribeCounting(two, counted, 'arena')];
    await subscribeCounting(doomed, counted, 'arena');
    await subscribeCounting(doomed, counted, 'arena');
    await allSee(survivors.map(({ counted }) => counted), 4);
    await doomed.kill();
    await waitFor(
      () => (survivors.every(({ counted: { counts } }) => counts.at(-1) === 2) ? true : undefined),
      'the survivors to see the count without the dead node\'s subscribers',
      15_000,
    );
  }, 30_000);
}

for (const store of stores) describe(`subscription counts across two daemons on ${store.name}`, () => clusterTests(store));
describe.skipIf(stores.length > 0)('subscription counts across two daemons on Redis', () => {
  it('needs Redis (skipped outside CI)', () => {});
});
