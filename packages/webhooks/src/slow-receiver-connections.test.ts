import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp, createStaticAppProvider, RealtimeServer, silentLogger } from '@org/protocol';
import { MemoryTransport, settle } from '@org/protocol/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createWebhooks } from './create-webhooks.js';
import { maxConcurrentRequestsPerWebhook } from './options.js';
import type { DeliveryObserver } from './target-queue.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

/** A receiver that answers every webhook 200 after `delayMs`, and counts the requests it is answering at once. */
async function slowReceiver(delayMs: number) {
  let open = 0;
  const seen = { answered: 0, mostAtOnce: 0 };
  const server = createServer((req, res) => {
    open++;
    seen.mostAtOnce = Math.max(seen.mostAtOnce, open);
    req.resume();
    req.on('end', () =>
      setTimeout(() => {
        open--;
        seen.answered++;
        res.writeHead(200).end('ok');
      }, delayMs),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

describe('webhooks of several targets on one origin', () => {
  it('give each request its whole timeout with the receiver, not a wait for a socket another target holds', async () => {
    // Two apps (or webhooks) pointing at one backend, each allowed the most requests at once: together more than
    // one origin's pool used to hold, so half of them waited for a socket while their timeout ran.
    const receiver = await slowReceiver(400);
    const apps = [createApp({ id: 'a1', key: 'a1-key', secret: 'a1-secret-1234' }), createApp({ id: 'a2', key: 'a2-key', secret: 'a2-secret-1234' })];
    const server = new RealtimeServer({ apps: createStaticAppProvider(apps) });
    const transport = new MemoryTransport(server);
    await server.start();
    const counts = { delivered: 0, failed: [] as string[] };
    const observer: DeliveryObserver = {
      delivered: (_app, events) => void (counts.delivered += events),
      failed: (_app, code) => void counts.failed.push(code),
      dropped: () => {},
    };
    const hooks = createWebhooks({
      events: server.events,
      apps: apps.map((app, index) => ({
        id: app.id,
        key: app.key,
        secret: app.secret,
        webhooks: [{ url: `${receiver.origin}/hooks/${index}`, event_types: ['channel_occupied'], max_concurrent_requests: maxConcurrentRequestsPerWebhook }],
      })),
      logger: silentLogger,
      observer,
      timeoutMs: 700,
      retry: { initialDelayMs: 5_000, maxDelayMs: 5_000 },
    });
    cleanups.push(async () => {
      await hooks.stop(Date.now() + 100);
      await server.stop();
    });

    const perApp = maxConcurrentRequestsPerWebhook;
    for (const app of apps) {
      const socket = await transport.connect({ appKey: app.key });
      for (let n = 0; n < perApp; n++) socket.receive({ event: 'pusher:subscribe', data: { channel: `room-${n}` } });
    }
    await settle();
    const deadline = Date.now() + 3_000;
    while (counts.delivered + counts.failed.length < 2 * perApp && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));

    expect(counts.failed).toEqual([]);
    expect(counts.delivered).toBe(2 * perApp);
    expect(receiver.seen.mostAtOnce).toBe(2 * perApp);
  });
});
