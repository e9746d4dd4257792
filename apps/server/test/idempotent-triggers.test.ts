import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { daemonConfig, testApp, type TestApp } from './helpers/apps.js';
import { pusherClient, subscribed } from './helpers/clients.js';
import { startDaemon, type RunningDaemon } from './helpers/daemon.js';
import { inCI, redisServerInstalled, scalingConfig, startRedisServer, testScalingBackends, uniqueChannel, type ScalingBackend } from './helpers/redis.js';
import { signedQuery } from './helpers/signed-request.js';
import { sleep, waitFor } from './helpers/wait.js';

const backends = await testScalingBackends();
const app = testApp('idempotent');

interface Answer {
  status: number | undefined;
  replay: string | undefined;
  body: string;
}

/**
 * A signed trigger with `X-Idempotency-Key`, each on a connection of its own (no keep-alive), so
 * that with `--workers 2` retries land on either worker. The `pusher` SDK sends no custom headers.
 */
function send(daemon: RunningDaemon, path: string, body: object, key: string | string[] | undefined, target: TestApp = app): Promise<Answer> {
  const text = JSON.stringify(body);
  const fullPath = `/apps/${target.id}${path}`;
  return new Promise((resolve, reject) => {
    const sent = request(
      `${daemon.httpUrl}${fullPath}?${signedQuery(target, { method: 'POST', path: fullPath, body: text })}`,
      { method: 'POST', agent: false, headers: { 'content-type': 'application/json', ...(key === undefined ? {} : { 'x-idempotency-key': key }) } },
      (response) => {
        let answer = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (answer += chunk));
        response.on('end', () => resolve({ status: response.statusCode, replay: response.headers['x-idempotent-replay'] as string | undefined, body: answer }));
      },
    );
    sent.on('error', reject);
    sent.end(text);
  });
}

const trigger = (daemon: RunningDaemon, channel: string, key: string | string[] | undefined, data: object = { n: 1 }) =>
  send(daemon, '/events', { name: 'paid', channels: [channel], data: JSON.stringify(data), info: 'subscription_count' }, key);

/** A pusher-js subscriber of `channel` on `daemon`, and the `paid` events it received. */
async function listener(daemon: RunningDaemon, channel: string): Promise<unknown[]> {
  const received: unknown[] = [];
  const subscription = await subscribed(pusherClient(daemon, app), channel);
  subscription.bind('paid', (data: unknown) => received.push(data));
  return received;
}

/** Waits for `count` events, then a little longer to see that no more come. */
async function settled(received: unknown[], count: number, timeoutMs = 5_000): Promise<unknown[]> {
  await waitFor(() => (received.length >= count ? true : undefined), `${count} event(s)`, timeoutMs);
  await sleep(300);
  return received;
}

let keyCounter = 0;
const freshKey = (name: string) => `${name}-${process.pid}-${Date.now()}-${++keyCounter}`;

describe('idempotent triggers on one daemon', () => {
  let daemon: RunningDaemon;
  let shortWindow: RunningDaemon;
  beforeAll(async () => {
    [daemon, shortWindow] = await Promise.all([startDaemon(daemonConfig([app])), startDaemon(daemonConfig([app], { idempotency: { window_seconds: 1 } }))]);
  });

  it('delivers a trigger retried with the same key once to pusher-js, and answers the retries like the first', async () => {
    const received = await listener(daemon, 'orders');
    const key = freshKey('order');
    const answers = [];
    for (let i = 0; i < 6; i++) answers.push(await trigger(daemon, 'orders', key));
    expect(await settled(received, 1)).toEqual([{ n: 1 }]);
    expect(answers[0]).toEqual({ status: 200, replay: undefined, body: '{"channels":{"orders":{"subscription_count":1}}}' });
    for (const retry of answers.slice(1)) expect(retry).toEqual({ ...answers[0], replay: 'true' });
  });

  it('delivers a retried batch once', async () => {
    const received = await listener(daemon, 'batched');
    const key = freshKey('batch');
    const body = { batch: [{ name: 'paid', channel: 'batched', data: '{"n":1}' }, { name: 'paid', channel: 'batched', data: '{"n":2}' }] };
    const [first, retry] = [await send(daemon, '/batch_events', body, key), await send(daemon, '/batch_events', body, key)];
    expect(await settled(received, 2)).toEqual([{ n: 1 }, { n: 2 }]);
    expect(first).toEqual({ status: 200, replay: undefined, body: '{}' });
    expect(retry).toEqual({ ...first, replay: 'true' });
  });

  it('refuses a key reused for another trigger with 422 and publishes nothing, so a mistaken key is not a silent drop', async () => {
    const received = await listener(daemon, 'reused');
    const key = freshKey('reused');
    expect((await trigger(daemon, 'reused', key, { n: 1 })).status).toBe(200);
    const other = await trigger(daemon, 'reused', key, { n: 2 });
    expect(other.status).toBe(422);
    expect(JSON.parse(other.body)).toMatchObject({ code: 422 });
    expect((await trigger(daemon, 'reused', key, { n: 1 })).replay).toBe('true');
    expect(await settled(received, 1)).toEqual([{ n: 1 }]);
  });

  it('publishes again with another key or without one', async () => {
    const received = await listener(daemon, 'keys');
    await trigger(daemon, 'keys', freshKey('a'), { n: 1 });
    await trigger(daemon, 'keys', freshKey('b'), { n: 2 });
    await trigger(daemon, 'keys', undefined, { n: 3 });
    await trigger(daemon, 'keys', undefined, { n: 3 });
    expect(await settled(received, 4)).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }, { n: 3 }]);
  });

  it('publishes again once the window has passed', async () => {
    const received = await listener(shortWindow, 'late');
    const key = freshKey('late');
    expect((await trigger(shortWindow, 'late', key)).replay).toBeUndefined();
    expect((await trigger(shortWindow, 'late', key)).replay).toBe('true');
    await sleep(1_100);
    expect((await trigger(shortWindow, 'late', key)).replay).toBeUndefined();
    expect(await settled(received, 2)).toHaveLength(2);
  });

  it('refuses a malformed key with 400 in the API\'s JSON error shape, publishing nothing', async () => {
    const received = await listener(daemon, 'bad-key');
    const answer = await trigger(daemon, 'bad-key', 'k'.repeat(256));
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toEqual({ error: 'X-Idempotency-Key must be 1 to 255 printable ASCII characters, without a space at either end', code: 400 });
    await sleep(300);
    expect(received).toEqual([]);
  });

  it('takes a header sent twice as one key, its values joined with ", " as HTTP joins them', async () => {
    const received = await listener(daemon, 'twice');
    const key = freshKey('twice');
    const first = await trigger(daemon, 'twice', [key, 'again']);
    const joined = await trigger(daemon, 'twice', `${key}, again`);
    expect(first.replay).toBeUndefined();
    expect(joined).toEqual({ ...first, replay: 'true' });
    expect(await settled(received, 1)).toHaveLength(1);
  });

  it('counts replays in /metrics', async () => {
    const key = freshKey('counted');
    await trigger(daemon, 'counted', key);
    await trigger(daemon, 'counted', key);
    const text = await (await fetch(`${daemon.httpUrl}/metrics`)).text();
    const replays = Number(/^realtime_idempotent_replays_total\{app_id="idempotent-id"\} (\d+)/m.exec(text)?.[1]);
    expect(replays).toBeGreaterThanOrEqual(1);
    expect(text).toMatch(/^realtime_idempotency_keys \d+/m);
    expect(text).toContain('realtime_idempotency_store_failures_total{operation="claim"} 0');
  });
});

describe('idempotency.max_bytes', () => {
  let daemon: RunningDaemon;
  beforeAll(async () => {
    daemon = await startDaemon(daemonConfig([app], { idempotency: { max_bytes: 1_024 } }));
  });
  afterAll(() => daemon.kill());

  it('holds at most max_bytes of keys and answers: a large answer is not kept, a small one still is', async () => {
    const channels = Array.from({ length: 40 }, (_, n) => `bytes-bound-channel-${n}`);
    const received = await listener(daemon, channels[0]!);
    const big = freshKey('big');
    // `info` answers each channel's count: about 1.5 KB here, 15 KB with 100 long channel names.
    const bigTrigger = () => send(daemon, '/events', { name: 'paid', channels, data: '{}', info: 'subscription_count' }, big);
    const first = await bigTrigger();
    expect(first.status).toBe(200);
    expect(first.body.length).toBeGreaterThan(1_024);
    const retry = await bigTrigger();
    expect(retry).toEqual({ status: 200, replay: undefined, body: first.body });
    expect(await settled(received, 2)).toHaveLength(2);

    const small = freshKey('small');
    await trigger(daemon, 'bytes-bound-small', small);
    expect((await trigger(daemon, 'bytes-bound-small', small)).replay).toBe('true');

    const text = await (await fetch(`${daemon.httpUrl}/metrics`)).text();
    expect(Number(/^realtime_idempotency_bytes (\d+)/m.exec(text)?.[1])).toBeLessThanOrEqual(1_024);
    expect(Number(/^realtime_idempotency_keys_evicted_total (\d+)/m.exec(text)?.[1])).toBeGreaterThanOrEqual(1);
  });
});

describe('idempotency.enabled: false', () => {
  let daemon: RunningDaemon;
  beforeAll(async () => {
    daemon = await startDaemon(daemonConfig([app], { idempotency: { enabled: false } }));
  });

  it('ignores the header: every retry is published', async () => {
    const received = await listener(daemon, 'off');
    const key = freshKey('off');
    await trigger(daemon, 'off', key);
    await trigger(daemon, 'off', key);
    expect(await settled(received, 2)).toHaveLength(2);
  });
});

function acrossNodes(backend: ScalingBackend) {
  let one: RunningDaemon;
  let two: RunningDaemon;
  beforeAll(async () => {
    const deployment = backend.config(uniqueChannel('idempotency'));
    [one, two] = await Promise.all([startDaemon(daemonConfig([app], deployment)), startDaemon(daemonConfig([app], deployment))]);
  });
  afterAll(async () => {
    await Promise.all([one.kill(), two.kill()]);
  });

  it('delivers a trigger sent to one node and retried on the other once, to subscribers of both, with equal answers', async () => {
    const [onOne, onTwo] = [await listener(one, 'cluster-orders'), await listener(two, 'cluster-orders')];
    const key = freshKey('cluster');
    const first = await trigger(one, 'cluster-orders', key);
    const retry = await trigger(two, 'cluster-orders', key);
    expect(await settled(onOne, 1)).toEqual([{ n: 1 }]);
    expect(await settled(onTwo, 1)).toEqual([{ n: 1 }]);
    expect(first.status).toBe(200);
    expect(retry).toEqual({ ...first, replay: 'true' });
  });

  it('publishes once when the same key is sent to both nodes at once', async () => {
    const received = await listener(one, 'cluster-race');
    const key = freshKey('race');
    const answers = await Promise.all([trigger(one, 'cluster-race', key), trigger(two, 'cluster-race', key), trigger(one, 'cluster-race', key), trigger(two, 'cluster-race', key)]);
    expect(await settled(received, 1)).toHaveLength(1);
    // The first is published; each other one is a replay (200) or, while the first ran, a 409.
    expect(answers.filter((answer) => answer.status === 200 && answer.replay === undefined)).toHaveLength(1);
    expect(answers.every((answer) => answer.status === 200 || answer.status === 409)).toBe(true);
  });
}

for (const backend of backends) describe(`idempotent triggers on two daemons over ${backend.name} (scaling.enabled)`, () => acrossNodes(backend));

// Stops Redis under a daemon, so it runs a redis-server of its own instead of REDIS_URL's.
const redisInstalled = redisServerInstalled();
if (!redisInstalled && inCI) throw new Error('redis-server is not installed, but CI=true requires the idempotency outage test to run');

describe.skipIf(!redisInstalled)('idempotent triggers while Redis is down', () => {
  it('publishes every keyed trigger anyway (at least once, never lost) and counts the store failures', { timeout: 40_000 }, async () => {
    let redis = await startRedisServer();
    const daemon = await startDaemon(daemonConfig([app], { ...scalingConfig(redis.url, uniqueChannel('idem-outage')), idempotency: { store_timeout_ms: 200 } }));
    const received = await listener(daemon, 'outage');
    await redis.kill();
    const key = freshKey('outage');
    const answers = [await trigger(daemon, 'outage', key), await trigger(daemon, 'outage', key)];
    expect(answers.map((answer) => [answer.status, answer.replay])).toEqual([
      [200, undefined],
      [200, undefined],
    ]);
    const text = await (await fetch(`${daemon.httpUrl}/metrics`)).text();
    expect(Number(/^realtime_idempotency_store_failures_total\{operation="claim"\} (\d+)/m.exec(text)?.[1])).toBe(2);
    // With workers each is a node: a trigger taken by the other worker waits in its outbox for Redis.
    redis = await startRedisServer(redis.port);
    expect(await settled(received, 2, 15_000)).toEqual([{ n: 1 }, { n: 1 }]);
    await daemon.kill();
    await redis.kill();
  });
});
