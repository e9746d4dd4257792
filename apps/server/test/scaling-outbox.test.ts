import { beforeAll, describe, expect, it } from 'vitest';
import { daemonConfig, testApp } from './helpers/apps.js';
import { backend, pusherClient, subscribed } from './helpers/clients.js';
import { startDaemon, type RunningDaemon } from './helpers/daemon.js';
import { inCI, redisServerInstalled, scalingConfig, startRedisServer, uniqueChannel, type RedisProcess } from './helpers/redis.js';
import { sleep, waitFor } from './helpers/wait.js';

// This file SIGKILLs and restarts Redis, so it runs a redis-server of its own instead of REDIS_URL's.
const installed = redisServerInstalled();
if (!installed && inCI) throw new Error('redis-server is not installed, but CI=true requires the Redis outage tests to run');

const app = testApp('outbox');
let redis: RedisProcess;
let one: RunningDaemon;
let two: RunningDaemon;

beforeAll(async () => {
  if (!installed) return;
  redis = await startRedisServer();
  const deployment = scalingConfig(redis.url, uniqueChannel('outbox'));
  [one, two] = (await Promise.all([startDaemon(daemonConfig([app], deployment)), startDaemon(daemonConfig([app], deployment))])) as [RunningDaemon, RunningDaemon];
});

/** Each channel is triggered through one node, so "in order" has one meaning: the order of its triggers. */
const channels = [
  { name: 'ticker-a', via: () => one },
  { name: 'ticker-b', via: () => one },
  { name: 'ticker-c', via: () => two },
  { name: 'ticker-d', via: () => two },
];
const intervalMs = 25;

async function metric(daemon: RunningDaemon, name: string): Promise<number> {
  const body = await (await fetch(`${daemon.httpUrl}/metrics`)).text();
  const line = body.split('\n').find((row) => row.startsWith(`${name} `));
  return line === undefined ? Number.NaN : Number(line.slice(name.length + 1));
}

describe.skipIf(!installed)('a 3 s Redis outage under steady traffic to two daemons', () => {
  it('loses nothing: every subscriber on both nodes gets every event exactly once and in order per channel', async () => {
    // Two pusher-js subscribers per node, each on every channel; what they receive, per channel, in arrival order.
    const subscribers = await Promise.all(
      [one, one, two, two].map(async (daemon, index) => {
        const client = pusherClient(daemon, app);
        const received = new Map<string, number[]>();
        for (const { name } of channels) {
          const channel = await subscribed(client, name);
          received.set(name, []);
          channel.bind('tick', (data: { n: number }) => received.get(name)!.push(data.n));
        }
        return { label: `${index < 2 ? 'one' : 'two'}#${index % 2}`, received };
      }),
    );

    // A backend triggering numbered events on every channel at a steady rate, each channel through its node.
    let running = true;
    const sent = new Map<string, number>(channels.map(({ name }) => [name, 0]));
    const failures: string[] = [];
    const producers = channels.map(async ({ name, via }) => {
      const sdk = backend(via(), app);
      while (running) {
        const n = sent.get(name)!;
        const response = await sdk.trigger(name, 'tick', { n });
        if (response.status === 200) sent.set(name, n + 1);
        else failures.push(`${name} #${n}: ${response.status}`);
        await sleep(intervalMs);
      }
    });

    // More than one heartbeat (2 s) of traffic first, so each node knows how many nodes to wait for afterwards.
    await sleep(2_500);
    await redis.kill();
    const sentAtKill = [...sent.values()].reduce((sum, n) => sum + n, 0);
    await sleep(3_000);
    redis = await startRedisServer(redis.port);
    await one.waitForLog((line) => String(line['msg']).startsWith('redis reachable again'), 10_000);
    await two.waitForLog((line) => String(line['msg']).startsWith('redis reachable again'), 10_000);
    await sleep(1_500);
    running = false;
    await Promise.all(producers);

    const expected = subscribers.length * [...sent.values()].reduce((sum, n) => sum + n, 0);
    const delivered = () => subscribers.reduce((sum, s) => sum + [...s.received.values()].reduce((total, list) => total + list.length, 0), 0);
    await waitFor(() => (delivered() >= expected ? true : undefined), `${expected} deliveries`, 10_000).catch(() => undefined);
    await sleep(300); // a duplicate would arrive now
    console.info(`[scaling-outbox] events triggered: ${expected / subscribers.length} (${sentAtKill} before the outage), deliveries: ${delivered()} of ${expected} expected (${subscribers.length} subscribers)`);

    expect(failures).toEqual([]);
    for (const subscriber of subscribers) {
      for (const { name } of channels) {
        const numbers = Array.from({ length: sent.get(name)! }, (_, n) => n);
        expect({ subscriber: subscriber.label, channel: name, received: subscriber.received.get(name) }).toEqual({ subscriber: subscriber.label, channel: name, received: numbers });
      }
    }
    expect(sentAtKill).toBeGreaterThan(0);
    for (const daemon of [one, two]) {
      expect(await metric(daemon, 'realtime_scaling_outbox_messages')).toBe(0);
      expect(await metric(daemon, 'realtime_scaling_outbox_dropped_total')).toBe(0);
      expect(await metric(daemon, 'realtime_scaling_messages_dropped_total')).toBe(0);
    }
    expect(one.output.filter((line) => line.includes('redis unreachable'))).toHaveLength(1);
  }, 30_000);
});
