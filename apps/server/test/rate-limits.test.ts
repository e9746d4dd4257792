import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { daemonConfig, testApp, type TestApp } from './helpers/apps.js';
import { backend } from './helpers/clients.js';
import { startDaemon, type RunningDaemon } from './helpers/daemon.js';
import type { RawSocket } from './helpers/raw-socket.js';
import { subscribedRaw } from './helpers/subscribed-raw.js';
import { startRedisServer, testRedisUrl } from './helpers/redis.js';
import { signedFetch } from './helpers/signed-request.js';
import { sleep, waitFor } from './helpers/wait.js';

const redisUrl = await testRedisUrl();

/**
 * Limits are per second in fixed windows that start with the first request,
 * so each test uses its own app (its own window) and sends its burst at once.
 */
const limits = { max_backend_events_per_second: 3, max_read_requests_per_second: 2, max_frontend_events_per_second: 2 };
const triggers = testApp('rl-triggers', limits);
const reads = testApp('rl-reads', limits);
const chat = testApp('rl-chat', limits);
const defaults = testApp('rl-defaults');
const unlimited = testApp('rl-off', limits);
let daemon: RunningDaemon;
let withoutLimiter: RunningDaemon;

beforeAll(async () => {
  const rateLimiter = { enabled: true, driver: 'local', max_read_requests_per_second: 1 };
  [daemon, withoutLimiter] = await Promise.all([
    startDaemon(daemonConfig([triggers, reads, chat, defaults], { rate_limiter: rateLimiter })),
    startDaemon(daemonConfig([unlimited])),
  ]);
});

function trigger(on: RunningDaemon, app: TestApp, channels: string[], socketId?: string): Promise<Response> {
  const body = JSON.stringify({ name: 'tick', channels, data: '{}', ...(socketId ? { socket_id: socketId } : {}) });
  return signedFetch(on.httpUrl, app, { method: 'POST', path: `/apps/${app.id}/events`, body });
}

function listChannels(on: RunningDaemon, app: TestApp): Promise<Response> {
  return signedFetch(on.httpUrl, app, { method: 'GET', path: `/apps/${app.id}/channels` });
}

async function subscriber(app: TestApp, channel: string, on = daemon): Promise<RawSocket> {
  return (await subscribedRaw(on, app, channel)).socket;
}

async function metric(on: RunningDaemon, app: TestApp, kind: string): Promise<number> {
  const text = await (await fetch(`${on.httpUrl}/metrics`)).text();
  const line = text.split('\n').find((candidate) => candidate.startsWith(`realtime_rate_limited_total{app_id="${app.id}",kind="${kind}"}`));
  return line ? Number(line.split(' ').pop()) : 0;
}

const statuses = (responses: Response[]) => responses.map((response) => response.status).sort();

describe('rate limits, driver local', () => {
  it('refuses HTTP API triggers past max_backend_events_per_second (one point per channel) with 429, Retry-After and a JSON body, and drops the event', async () => {
    const listener = await subscriber(triggers, 'late');
    // Three channels in one trigger spend the app's three points for this second.
    const first = await trigger(daemon, triggers, ['a', 'b', 'c']);
    expect(first.status).toBe(200);
    const refused = await trigger(daemon, triggers, ['late']);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(refused.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await refused.json()).toEqual({ error: expect.stringMatching(/too many requests/), code: 429 });
    await sleep(200);
    expect(listener.received.filter((frame) => frame.event === 'tick')).toEqual([]);

    // A trigger costing more than the whole limit can never pass: no Retry-After, a message that says so.
    const never = await trigger(daemon, triggers, ['a', 'b', 'c', 'd']);
    expect(never.status).toBe(429);
    expect(never.headers.get('retry-after')).toBeNull();
    expect(await never.json()).toEqual({ error: 'this request costs 4 points, more than the 3 a second the limit allows; split it', code: 429 });

    // The official SDK surfaces the refusal as an error with the status.
    await expect(backend(daemon, triggers).trigger('late', 'tick', {})).rejects.toMatchObject({ status: 429 });
    expect(await metric(daemon, triggers, 'backend_events')).toBe(3);

    // The next window admits triggers again, and they are delivered.
    await sleep(1_100);
    expect((await trigger(daemon, triggers, ['late'])).status).toBe(200);
    await listener.next('tick');
  });

  it('refuses GET requests past max_read_requests_per_second, the app value winning over the limiter default', async () => {
    const burst = await Promise.all([1, 2, 3, 4].map(() => listChannels(daemon, reads)));
    expect(statuses(burst)).toEqual([200, 200, 429, 429]);
    const body = (await burst.find((response) => response.status === 429)!.json()) as { code: number };
    expect(body.code).toBe(429);
    expect(await metric(daemon, reads, 'read')).toBe(2);
  });

  it('falls back to the rate_limiter values for an app without its own', async () => {
    const burst = await Promise.all([1, 2].map(() => listChannels(daemon, defaults)));
    expect(statuses(burst)).toEqual([200, 429]);
  });

  it('drops client events past max_frontend_events_per_second with pusher:error 4301 to the sender only', async () => {
    const sender = await subscriber(chat, 'private-room');
    const receiver = await subscriber(chat, 'private-room');
    for (let n = 1; n <= 5; n++) sender.send({ event: 'client-msg', channel: 'private-room', data: { n } });
    const errors = await waitFor(() => {
      const found = sender.received.filter((frame) => frame.event === 'pusher:error');
      return found.length === 3 ? found : undefined;
    }, 'three 4301 errors');
    expect(errors.map((frame) => (frame.data as { code: number }).code)).toEqual([4301, 4301, 4301]);
    await sleep(200);
    expect(receiver.received.filter((frame) => frame.event === 'client-msg').map((frame) => frame.data)).toEqual([{ n: 1 }, { n: 2 }]);
    expect(await metric(daemon, chat, 'client_events')).toBe(3);
    expect(sender.isOpen).toBe(true);
  });

  it('limits nothing when rate_limiter.enabled is false, whatever the app says', async () => {
    const burst = await Promise.all([1, 2, 3, 4, 5].map(() => trigger(withoutLimiter, unlimited, ['x'])));
    expect(statuses(burst)).toEqual([200, 200, 200, 200, 200]);
    expect(statuses(await Promise.all([1, 2, 3].map(() => listChannels(withoutLimiter, unlimited))))).toEqual([200, 200, 200]);
  });
});

describe.skipIf(!redisUrl)('rate limits, driver redis', () => {
  it('shares one allowance between two daemons on the same Redis', async () => {
    // A fresh app id per run: the counters live in Redis, which other runs may share.
    const shared = testApp(`rl-shared-${randomBytes(3).toString('hex')}`, { max_backend_events_per_second: 4 });
    const config = daemonConfig([shared], { rate_limiter: { enabled: true, driver: 'redis', redis: { url: redisUrl } } });
    const [one, two] = await Promise.all([startDaemon(config), startDaemon(config)]);
    const burst = await Promise.all([
      trigger(one, shared, ['a']),
      trigger(one, shared, ['b']),
      trigger(two, shared, ['c']),
      trigger(two, shared, ['d']),
      trigger(two, shared, ['e']),
      trigger(one, shared, ['f']),
    ]);
    expect(statuses(burst)).toEqual([200, 200, 200, 200, 429, 429]);
    expect((await metric(one, shared, 'backend_events')) + (await metric(two, shared, 'backend_events'))).toBe(2);
  });

  it('logs an outage of its Redis once, limits per node meanwhile, and says when Redis is back', async () => {
    const redis = await startRedisServer();
    const app = testApp(`rl-outage-${randomBytes(3).toString('hex')}`, { max_backend_events_per_second: 2 });
    const node = await startDaemon(daemonConfig([app], { rate_limiter: { enabled: true, driver: 'redis', redis: { url: redis.url } } }));
    const outageLines = () => node.output.filter((line) => line.includes('rate limiter: Redis unreachable')).length;
    expect(outageLines()).toBe(0);

    await redis.kill();
    await node.waitForLog((line) => String(line.msg).startsWith('rate limiter: Redis unreachable'));
    // Still limited, now by this node's memory.
    const during = await Promise.all([1, 2, 3].map((n) => trigger(node, app, [`c${n}`])));
    expect(statuses(during)).toEqual([200, 200, 429]);
    await sleep(500);
    expect(outageLines()).toBe(1);

    await startRedisServer(redis.port);
    await node.waitForLog((line) => line.msg === 'rate limiter: Redis is back, limits are shared again', 10_000);
    expect(outageLines()).toBe(1);
  });
});
