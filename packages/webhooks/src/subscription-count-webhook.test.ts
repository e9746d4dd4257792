import { createApp, createStaticAppProvider, RealtimeServer, silentLogger } from '@org/protocol';
import { MemoryTransport, settle } from '@org/protocol/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createWebhooks } from './create-webhooks.js';
import { startWebhookReceiver } from './testing/webhook-receiver.js';

const appConfig = { id: 'counted', key: 'counted-key', secret: 'counted-secret-1234' };
const app = createApp({ ...appConfig, enableSubscriptionCount: true, subscriptionCountIntervalMs: 20 });

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

describe('the subscription_count webhook', () => {
  it("sends Pusher's payload, signed, to a receiver whose event_types include it, and nothing to one whose do not", async () => {
    const [wanting, other] = [await startWebhookReceiver(appConfig), await startWebhookReceiver(appConfig)];
    const server = new RealtimeServer({ apps: createStaticAppProvider([app]) });
    const transport = new MemoryTransport(server);
    await server.start();
    const hooks = createWebhooks({
      events: server.events,
      apps: [{ ...appConfig, webhooks: [{ url: wanting.url, event_types: ['subscription_count'] }, { url: other.url, event_types: ['channel_occupied'] }] }],
      logger: silentLogger,
    });
    cleanups.push(async () => {
      await hooks.stop(Date.now() + 200);
      await server.stop();
      await Promise.all([wanting.close(), other.close()]);
    });

    const socket = await transport.connect({ appKey: app.key });
    socket.receive({ event: 'pusher:subscribe', data: { channel: 'news' } });
    await settle();
    expect(await wanting.waitForAccepted(1)).toEqual([{ name: 'subscription_count', channel: 'news', subscription_count: 1 }]);
    expect(wanting.received.every((request) => request.valid)).toBe(true);
    expect(await other.waitForAccepted(1)).toEqual([{ name: 'channel_occupied', channel: 'news' }]);
  });
});
