import { afterAll, describe, expect, it } from 'vitest';
import { startWebhookReceiver, type WebhookReceiver } from '@org/webhooks/testing';
import { daemonConfig, testApp } from './helpers/apps.js';
import { connected, disconnect, pusherClient, subscribed } from './helpers/clients.js';
import { startDaemon } from './helpers/daemon.js';
import { sleep, waitFor } from './helpers/wait.js';

const receivers: WebhookReceiver[] = [];
afterAll(async () => {
  await Promise.all(receivers.map((receiver) => receiver.close()));
});

async function receiver(app: { id: string; key: string; secret: string }, answer?: (n: number) => number) {
  const started = await startWebhookReceiver(app, answer);
  receivers.push(started);
  return started;
}

describe('webhooks from the daemon', () => {
  it('sends presence, occupancy and client events that the pusher SDK verifies, filtered per webhook', async () => {
    const app = testApp('webhooks');
    const all = await receiver(app);
    const clientEventsOnly = await receiver(app);
    const daemon = await startDaemon(
      daemonConfig([
        {
          ...app,
          webhooks: [
            { url: all.url, event_types: ['channel_occupied', 'member_added', 'client_event'] },
            { url: clientEventsOnly.url, event_types: ['client_event'], filter: { channel_name_starts_with: 'presence-' } },
          ],
        },
      ]),
    );
    const client = pusherClient(daemon, app, { presence: { user_id: 'ann' } });
    const socketId = await connected(client);
    const channel = await subscribed(client, 'presence-chat');
    await subscribed(client, 'private-notes');
    channel.trigger('client-typing', { text: 'hello' });
    client.channel('private-notes').trigger('client-draft', { n: 1 });

    const events = await all.waitForAccepted(5);
    expect(events).toEqual(
      expect.arrayContaining([
        { name: 'member_added', channel: 'presence-chat', user_id: 'ann' },
        { name: 'channel_occupied', channel: 'presence-chat' },
        { name: 'channel_occupied', channel: 'private-notes' },
        { name: 'client_event', channel: 'presence-chat', event: 'client-typing', data: '{"text":"hello"}', socket_id: socketId, user_id: 'ann' },
        { name: 'client_event', channel: 'private-notes', event: 'client-draft', data: '{"n":1}', socket_id: socketId },
      ]),
    );
    expect(await clientEventsOnly.waitForAccepted(1)).toEqual([
      { name: 'client_event', channel: 'presence-chat', event: 'client-typing', data: '{"text":"hello"}', socket_id: socketId, user_id: 'ann' },
    ]);
    for (const request of [...all.received, ...clientEventsOnly.received]) {
      expect(request.valid).toBe(true);
      expect(request.headers['content-type']).toBe('application/json');
    }
    await sleep(100);
    expect(clientEventsOnly.accepted()).toHaveLength(1);
    disconnect(client);
  });

  it('delivers exactly once to a receiver that fails twice, and counts it in /metrics', async () => {
    const app = testApp('webhooks-retry');
    const flaky = await receiver(app, (n) => (n <= 2 ? 500 : 200));
    const daemon = await startDaemon(daemonConfig([{ ...app, webhooks: [{ url: flaky.url, event_types: ['channel_occupied'] }] }]));
    const client = pusherClient(daemon, app);
    await subscribed(client, 'orders');
    const inFlight = async () => {
      const line = (await (await fetch(`${daemon.httpUrl}/metrics`)).text()).split('\n').find((row) => row.startsWith(`realtime_webhook_requests_in_flight{app_id="${app.id}"}`));
      return Number(line?.split(' ').at(-1));
    };
    // Between the attempts the request holds its webhook's one slot.
    await waitFor(() => (flaky.received.length === 1 ? true : undefined), 'the first attempt');
    expect(await inFlight()).toBe(1);

    expect(await flaky.waitForAccepted(1, 15_000)).toEqual([{ name: 'channel_occupied', channel: 'orders' }]);
    expect(flaky.received.map((r) => r.status)).toEqual([500, 500, 200]);
    // The receiver has answered; the daemon counts once it has read that answer.
    const delivered = `realtime_webhook_deliveries_total{app_id="${app.id}"} 1`;
    let metrics = '';
    for (let i = 0; i < 50 && !metrics.includes(delivered); i++) {
      metrics = await (await fetch(`${daemon.httpUrl}/metrics`)).text();
      if (!metrics.includes(delivered)) await sleep(20);
    }
    expect(metrics).toContain(delivered);
    expect(metrics).toContain(`realtime_webhook_failures_total{app_id="${app.id}",reason="http_status"} 2`);
    expect(metrics).toContain(`realtime_webhook_requests_in_flight{app_id="${app.id}"} 0`);
    disconnect(client);
  });

  it('sends nothing for a page reload, and sends the held leaves when stopped with SIGTERM', async () => {
    const app = testApp('webhooks-reload');
    const hook = await receiver(app);
    const daemon = await startDaemon(daemonConfig([{ ...app, webhooks: [{ url: hook.url }] }]));
    const first = pusherClient(daemon, app, { presence: { user_id: 'bob' } });
    await subscribed(first, 'presence-room');
    await hook.waitForAccepted(2);

    // The reload: the old page goes, the new one joins within the 3 s window.
    disconnect(first);
    const second = pusherClient(daemon, app, { presence: { user_id: 'bob' } });
    await subscribed(second, 'presence-room');
    await sleep(3_500);
    expect(hook.accepted()).toEqual([
      { name: 'member_added', channel: 'presence-room', user_id: 'bob' },
      { name: 'channel_occupied', channel: 'presence-room' },
    ]);

    // Shutdown closes the last socket; its leaves are sent at once, before the process exits.
    expect(await daemon.stop()).toBe(0);
    expect(hook.accepted().slice(2)).toEqual([
      { name: 'member_removed', channel: 'presence-room', user_id: 'bob' },
      { name: 'channel_vacated', channel: 'presence-room' },
    ]);
    disconnect(second);
  });

  it('sends one event per request by default (Pusher\'s format: events[0] is the only event)', async () => {
    const app = testApp('webhooks-unbatched');
    const hook = await receiver(app);
    const daemon = await startDaemon(daemonConfig([{ ...app, webhooks: [{ url: hook.url, event_types: ['channel_occupied'] }] }]));
    const client = pusherClient(daemon, app);
    await connected(client);
    client.subscribe('first');
    client.subscribe('second');
    await hook.waitForAccepted(2);
    await sleep(200);
    const requests = hook.received.map((request) => JSON.parse(request.rawBody) as { time_ms: number; events: { channel: string }[] });
    expect(requests).toHaveLength(2);
    expect(requests.map((request) => request.events.length)).toEqual([1, 1]);
    expect(requests.map((request) => request.events[0]!.channel).sort()).toEqual(['first', 'second']);
    expect(hook.received.every((request) => request.valid)).toBe(true);
    disconnect(client);
  });

  it('sends the events of batch_webhooks_window_ms in one request when the app enables batch_webhooks', async () => {
    const app = testApp('webhooks-batched', { batch_webhooks: true, batch_webhooks_window_ms: 500 });
    const hook = await receiver(app);
    const daemon = await startDaemon(daemonConfig([{ ...app, webhooks: [{ url: hook.url, event_types: ['channel_occupied'] }] }]));
    const client = pusherClient(daemon, app);
    await connected(client);
    client.subscribe('first');
    client.subscribe('second');
    const events = await hook.waitForAccepted(2);
    expect(hook.received).toHaveLength(1);
    expect(events).toEqual(expect.arrayContaining([{ name: 'channel_occupied', channel: 'first' }, { name: 'channel_occupied', channel: 'second' }]));
    expect(hook.received[0]!.valid).toBe(true);
    disconnect(client);
  });
});
