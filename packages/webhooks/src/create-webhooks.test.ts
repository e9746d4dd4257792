import { createHmac } from 'node:crypto';
import { createApp, createStaticAppProvider, RealtimeServer, signChannel, silentLogger } from '@org/protocol';
import { MemoryTransport, settle, type MemorySocket } from '@org/protocol/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createWebhooks, type Webhooks } from './create-webhooks.js';
import type { WebhookApp, WebhooksOptions } from './options.js';
import type { WebhookConfig } from './webhook-target.js';
import type { DeliveryObserver } from './target-queue.js';
import { startWebhookReceiver, type WebhookReceiver } from './testing/webhook-receiver.js';

const appConfig = { id: 'wh', key: 'wh-key', secret: 'wh-secret-1234' };
const app = createApp(appConfig);

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

async function receiver(answer?: (n: number) => number): Promise<WebhookReceiver> {
  const started = await startWebhookReceiver(appConfig, answer);
  cleanups.push(() => started.close());
  return started;
}

/** A real engine on the in-memory transport with webhooks attached; fast timings unless given. */
async function setup(webhooks: WebhookConfig[], options: Partial<WebhooksOptions> = {}, appOptions: Partial<WebhookApp> = {}) {
  const server = new RealtimeServer({ apps: createStaticAppProvider([app]) });
  const transport = new MemoryTransport(server);
  await server.start();
  const counts = { delivered: 0, failed: [] as string[], dropped: [] as string[] };
  const observer: DeliveryObserver = {
    delivered: (_app, events) => void (counts.delivered += events),
    failed: (_app, code) => void counts.failed.push(code),
    dropped: (_app, reason, events) => void counts.dropped.push(`${reason}:${events}`),
  };
  const hooks: Webhooks = createWebhooks({
    events: server.events,
    apps: [{ ...appConfig, ...appOptions, webhooks }],
    logger: silentLogger,
    observer,
    debounceMs: 150,
    batchWindowMs: 10,
    retry: { initialDelayMs: 20, maxDelayMs: 100 },
    ...options,
  });
  cleanups.push(async () => {
    await hooks.stop(Date.now() + 200);
    await server.stop();
  });
  return { server, transport, hooks, counts };
}

async function subscribe(socket: MemorySocket, channel: string, userId?: string) {
  const channelData = userId === undefined ? undefined : JSON.stringify({ user_id: userId });
  const auth = channel.startsWith('private-') || channel.startsWith('presence-') ? signChannel(app, socket.socketId, channel, channelData) : '';
  socket.receive({ event: 'pusher:subscribe', data: { channel, auth, ...(channelData ? { channel_data: channelData } : {}) } });
  await settle();
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('webhook delivery', () => {
  it('posts Pusher webhooks that the pusher SDK accepts, signed over the exact bytes sent', async () => {
    const hook = await receiver();
    const { transport } = await setup([{ url: hook.url }]);
    const socket = await transport.connect({ appKey: app.key });
    await subscribe(socket, 'presence-room', 'u1');
    await subscribe(socket, 'cache-prices');
    socket.receive({ event: 'client-typing', channel: 'presence-room', data: { text: 'hi' } });

    const events = await hook.waitForAccepted(5);
    expect(events).toEqual([
      { name: 'member_added', channel: 'presence-room', user_id: 'u1' },
      { name: 'channel_occupied', channel: 'presence-room' },
      { name: 'channel_occupied', channel: 'cache-prices' },
      { name: 'cache_miss', channel: 'cache-prices' },
      { name: 'client_event', channel: 'presence-room', event: 'client-typing', data: '{"text":"hi"}', socket_id: socket.socketId, user_id: 'u1' },
    ]);
    for (const request of hook.received) {
      expect(request.valid).toBe(true);
      expect(request.headers['content-type']).toBe('application/json');
      expect(request.headers['x-pusher-key']).toBe(app.key);
      expect(request.headers['x-pusher-signature']).toBe(createHmac('sha256', appConfig.secret).update(request.rawBody).digest('hex'));
      const body = JSON.parse(request.rawBody) as { time_ms: unknown; events: unknown[] };
      expect(typeof body.time_ms).toBe('number');
      expect(Object.keys(body)).toEqual(['time_ms', 'events']);
      expect(body.events).toHaveLength(1);
    }
  });

  it('sends client events of private channels without user_id', async () => {
    const hook = await receiver();
    const { transport } = await setup([{ url: hook.url, event_types: ['client_event'] }]);
    const socket = await transport.connect({ appKey: app.key });
    await subscribe(socket, 'private-doc');
    socket.receive({ event: 'client-edit', channel: 'private-doc', data: 'already text' });
    expect(await hook.waitForAccepted(1)).toEqual([
      { name: 'client_event', channel: 'private-doc', event: 'client-edit', data: 'already text', socket_id: socket.socketId },
    ]);
  });

  it('delivers a batch exactly once to a receiver that fails twice, resending the same signed bytes', async () => {
    const hook = await receiver((n) => (n <= 2 ? 503 : 200));
    const { transport, counts } = await setup([{ url: hook.url }]);
    const socket = await transport.connect({ appKey: app.key });
    await subscribe(socket, 'news');

    expect(await hook.waitForAccepted(1)).toEqual([{ name: 'channel_occupied', channel: 'news' }]);
    expect(hook.received.map((r) => r.status)).toEqual([503, 503, 200]);
    expect(new Set(hook.received.map((r) => r.rawBody)).size).toBe(1);
    expect(hook.received.every((r) => r.valid)).toBe(true);
    await sleep(100);
    expect(hook.received).toHaveLength(3);
    expect(counts).toMatchObject({ delivered: 1, failed: ['HTTP_STATUS', 'HTTP_STATUS'], dropped: [] });
  });

  it('retries a receiver that is not listening yet (connection refused)', async () => {
    const hook = await receiver();
    const closed = await receiver();
    const deadUrl = closed.url;
    await closed.close();
    const { transport, counts } = await setup([{ url: deadUrl }, { url: hook.url }], { retry: { initialDelayMs: 10, maxDelayMs: 20, retryWindowMs: 60 } });
    const socket = await transport.connect({ appKey: app.key });
    await subscribe(socket, 'news');
    await hook.waitForAccepted(1);
    await sleep(200);
    // The dead one gave up after its window; the live one was not held up by it.
    expect(counts.failed.every((code) => code === 'NETWORK')).toBe(true);
    expect(counts.failed.length).toBeGreaterThanOrEqual(2);
    expect(counts.dropped).toEqual(['expired:1']);
  });

  it('applies event_types and channel name filters to the payload it signs and sends', async () => {
    const presence = await receiver();
    const suffix = await receiver();
    const { transport } = await setup([
      { url: presence.url, event_types: ['member_added', 'channel_occupied'], filter: { channel_name_starts_with: 'presence-' } },
      { url: suffix.url, filter: { channel_name_ends_with: '-eu' } },
    ]);
    const socket = await transport.connect({ appKey: app.key });
    await subscribe(socket, 'presence-lobby', 'u7');
    await subscribe(socket, 'prices-eu');
    await subscribe(socket, 'prices-us');

    expect(await presence.waitForAccepted(2)).toEqual([
      { name: 'member_added', channel: 'presence-lobby', user_id: 'u7' },
      { name: 'channel_occupied', channel: 'presence-lobby' },
    ]);
    expect(await suffix.waitForAccepted(1)).toEqual([{ name: 'channel_occupied', channel: 'prices-eu' }]);
    await sleep(50);
    for (const request of [...presence.received, ...suffix.received]) {
      expect(request.valid).toBe(true);
      expect(request.rawBody).not.toContain('prices-us');
    }
    expect(suffix.accepted()).toHaveLength(1);
  });

  it('adds configured headers but never lets them replace the signature headers', async () => {
    const hook = await receiver();
    const { transport } = await setup([
      { url: hook.url, headers: { 'X-Custom': 'yes', 'x-pusher-key': 'forged', 'Content-Type': 'text/plain' } },
    ]);
    const socket = await transport.connect({ appKey: app.key });
    await subscribe(socket, 'news');
    await hook.waitForAccepted(1);
    expect(hook.received[0]!.headers['x-custom']).toBe('yes');
    expect(hook.received[0]!.headers['x-pusher-key']).toBe(app.key);
    expect(hook.received[0]!.headers['content-type']).toBe('application/json');
  });
});

describe('Pusher\'s webhook format: one event per request unless the app batches', () => {
  const occupyTwo = async (transport: MemoryTransport) => {
    const socket = await transport.connect({ appKey: app.key });
    await subscribe(socket, 'first');
    await subscribe(socket, 'second');
  };
  const bodies = (hook: WebhookReceiver) => hook.received.map((request) => JSON.parse(request.rawBody) as { time_ms: number; events: Record<string, unknown>[] });

  it('sends two channel_occupied events in two requests of one event each by default', async () => {
    const hook = await receiver();
    const { transport } = await setup([{ url: hook.url }], { batchWindowMs: 200 });
    await occupyTwo(transport);
    await hook.waitForAccepted(2);
    await sleep(250);
    expect(bodies(hook).map((body) => body.events)).toEqual([[{ name: 'channel_occupied', channel: 'first' }], [{ name: 'channel_occupied', channel: 'second' }]]);
    expect(hook.received.every((request) => request.valid)).toBe(true);
  });

  it('sends both in one request when the app enables batch_webhooks, after its window', async () => {
    const hook = await receiver();
    const { transport } = await setup([{ url: hook.url }], {}, { batch_webhooks: true, batch_webhooks_window_ms: 200 });
    const started = Date.now();
    await occupyTwo(transport);
    await hook.waitForAccepted(2);
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
    expect(bodies(hook).map((body) => body.events)).toEqual([[{ name: 'channel_occupied', channel: 'first' }, { name: 'channel_occupied', channel: 'second' }]]);
    expect(hook.received[0]!.valid).toBe(true);
  });
});

describe('debounced leaves', () => {
  it('sends nothing for a page reload: a re-join within the window cancels the leave and the join', async () => {
    const hook = await receiver();
    const { transport } = await setup([{ url: hook.url }], { debounceMs: 300 });
    const first = await transport.connect({ appKey: app.key });
    await subscribe(first, 'presence-room', 'u1');
    await hook.waitForAccepted(2);

    first.close(1000, 'reload');
    await settle();
    const second = await transport.connect({ appKey: app.key });
    await subscribe(second, 'presence-room', 'u1');
    await sleep(500);
    expect(hook.accepted()).toEqual([
      { name: 'member_added', channel: 'presence-room', user_id: 'u1' },
      { name: 'channel_occupied', channel: 'presence-room' },
    ]);
  });

  it('sends member_removed and channel_vacated once the window passes without a re-join', async () => {
    const hook = await receiver();
    const { transport } = await setup([{ url: hook.url }], { debounceMs: 100 });
    const socket = await transport.connect({ appKey: app.key });
    await subscribe(socket, 'presence-room', 'u1');
    await hook.waitForAccepted(2);
    const leftAt = Date.now();
    socket.close(1000, 'bye');

    const events = await hook.waitForAccepted(4);
    expect(Date.now() - leftAt).toBeGreaterThanOrEqual(100);
    expect(events.slice(2)).toEqual([
      { name: 'member_removed', channel: 'presence-room', user_id: 'u1' },
      { name: 'channel_vacated', channel: 'presence-room' },
    ]);
  });
});

describe('bounded queue and shutdown', () => {
  it('drops the oldest waiting requests once the queue holds more than maxQueueBytes, and counts their events', async () => {
    let release = false;
    const hook = await receiver(() => (release ? 200 : 500));
    // One channel_occupied request costs ~430 bytes here (body, headers, allowance): two fit, a third does not.
    const { transport, counts } = await setup([{ url: hook.url, max_queue_bytes: 1_024 }], { retry: { initialDelayMs: 150, maxDelayMs: 150 } });
    const socket = await transport.connect({ appKey: app.key });
    for (const channel of ['a', 'b', 'c', 'd']) {
      await subscribe(socket, channel);
      await sleep(15);
    }
    // 'a' is being retried (not dropped: it keeps its backoff), 'b' and 'c' waited, then 'd' pushed 'b' out.
    expect(counts.dropped).toEqual(['queue_full:1']);
    release = true;
    const events = await hook.waitForAccepted(3);
    expect(events.map((e) => e['channel'])).toEqual(['a', 'c', 'd']);
  });

  it('on stop sends held leaves and the events a batch webhook is collecting at once, before the deadline', async () => {
    const hook = await receiver();
    const { transport, hooks, server } = await setup([{ url: hook.url }], { debounceMs: 60_000 }, { batch_webhooks: true, batch_webhooks_window_ms: 60_000 });
    const socket = await transport.connect({ appKey: app.key });
    await subscribe(socket, 'news');
    socket.close(1000, 'bye');
    await settle();
    await server.stop();
    const started = Date.now();
    await hooks.stop(Date.now() + 2_000);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(hook.accepted()).toEqual([
      { name: 'channel_occupied', channel: 'news' },
      { name: 'channel_vacated', channel: 'news' },
    ]);
  });

  it('reports each app\'s requests in flight and bytes waiting, for the metrics gauges', async () => {
    const hook = await receiver(() => 500);
    const { transport, hooks } = await setup([{ url: hook.url }, { url: hook.url, event_types: ['member_added'] }], { retry: { initialDelayMs: 10_000, maxDelayMs: 10_000 } });
    expect(hooks.queues()).toEqual([{ appId: app.id, inFlight: 0, queuedBytes: 0 }]);
    const socket = await transport.connect({ appKey: app.key });
    await subscribe(socket, 'a');
    await subscribe(socket, 'b');
    await sleep(50);
    // The first webhook retries 'a' (its one slot) while 'b' waits; the second selects neither.
    const [queues] = hooks.queues();
    expect(queues).toMatchObject({ appId: app.id, inFlight: 1 });
    expect(queues!.queuedBytes).toBeGreaterThan(256);
  });

  it('gives up at the deadline on a receiver that keeps failing, and counts the dropped events', async () => {
    const hook = await receiver(() => 500);
    const { transport, hooks, counts } = await setup([{ url: hook.url }], { retry: { initialDelayMs: 30, maxDelayMs: 30 } });
    const socket = await transport.connect({ appKey: app.key });
    await subscribe(socket, 'news');
    await sleep(50);
    const started = Date.now();
    await hooks.stop(Date.now() + 150);
    const took = Date.now() - started;
    expect(took).toBeLessThan(1_000);
    expect(counts.dropped).toEqual(['shutdown:1']);
    expect(hook.accepted()).toEqual([]);
  });
});
