import { afterAll, describe, expect, it } from 'vitest';
import { startWebhookReceiver, type WebhookReceiver } from '@org/webhooks/testing';
import { daemonConfig, testApp } from './helpers/apps.js';
import { startDaemon, type RunningDaemon } from './helpers/daemon.js';
import { connectRaw, type RawSocket } from './helpers/raw-socket.js';
import { sleep, waitFor } from './helpers/wait.js';

const receivers: WebhookReceiver[] = [];
const sockets: RawSocket[] = [];
afterAll(async () => {
  for (const socket of sockets) socket.close();
  await Promise.all(receivers.map((receiver) => receiver.close()));
});

async function droppedFromMetrics(daemon: RunningDaemon, appId: string): Promise<number> {
  const text = await (await fetch(`${daemon.httpUrl}/metrics`)).text();
  const series = `realtime_webhook_events_dropped_total{app_id="${appId}",reason="queue_full"} `;
  const line = text.split('\n').find((l) => l.startsWith(series));
  return line === undefined ? 0 : Number(line.slice(series.length));
}

/** Long names make big events: ~190 bytes each in a webhook body. */
const padding = 'x'.repeat(140);

/**
 * `groups` bursts of `perGroup` new channels, each burst on its own socket
 * (a socket may send 100 frames a second and hold 100 channels); each event
 * is a webhook request of its own (no batch_webhooks).
 */
async function occupyChannels(daemon: RunningDaemon, appKey: string, prefix: string, groups: number, perGroup: number): Promise<number> {
  for (let g = 0; g < groups; g++) {
    const { socket } = await connectRaw(daemon, appKey);
    sockets.push(socket);
    for (let i = 0; i < perGroup; i++) socket.subscribe(`${prefix}-${g}-${i}-${padding}`);
    await socket.next((frame) => frame.event === 'pusher_internal:subscription_succeeded' && frame.channel === `${prefix}-${g}-${perGroup - 1}-${padding}`);
    await sleep(70);
  }
  return groups * perGroup;
}

describe('webhook queue bounded in bytes (max_queue_bytes)', () => {
  it('drops the oldest events for a failing receiver, counts them, logs once per outage and delivers everything else after recovery', async () => {
    const app = testApp('webhook-bound');
    let failing = true;
    const hook = await startWebhookReceiver(app, () => (failing ? 500 : 200));
    receivers.push(hook);
    // ~650 bytes per waiting request of one channel_occupied event (body, headers, allowance): 4 KiB holds six.
    const daemon = await startDaemon(daemonConfig([{ ...app, webhooks: [{ url: hook.url, event_types: ['channel_occupied'], max_queue_bytes: 4_096 }] }]));
    const dropLogs = () => daemon.output.filter((line) => line.includes('webhook queue over max_queue_bytes')).length;

    let sent = await occupyChannels(daemon, app.key, 'first', 10, 10);
    const droppedFirst = await droppedFromMetrics(daemon, app.id);
    expect(droppedFirst).toBeGreaterThanOrEqual(50);
    expect(dropLogs()).toBe(1);
    expect(hook.accepted()).toEqual([]);

    // Recovery: everything not dropped arrives (each event either delivered or counted), and it is logged once.
    failing = false;
    await hook.waitForAccepted(sent - droppedFirst, 15_000);
    await daemon.waitForLog((line) => line['msg'] === 'webhook receiver recovered' && line['droppedEvents'] === droppedFirst);
    expect(hook.accepted()).toHaveLength(sent - droppedFirst);

    // A new outage is logged again, once.
    failing = true;
    sent += await occupyChannels(daemon, app.key, 'second', 10, 10);
    const droppedBoth = await droppedFromMetrics(daemon, app.id);
    expect(droppedBoth - droppedFirst).toBeGreaterThanOrEqual(50);
    expect(dropLogs()).toBe(2);
    expect(daemon.output.filter((line) => line.includes('webhook delivery failing')).length).toBe(2);

    failing = false;
    await hook.waitForAccepted(sent - droppedBoth, 15_000);
    await waitFor(() => (daemon.output.filter((line) => line.includes('webhook receiver recovered')).length === 2 ? true : undefined), 'the second recovery');
  }, 60_000);

  it('refuses a max_queue_bytes that is not a whole number of at least 1024, naming the key', async () => {
    const app = testApp('webhook-bound-invalid');
    await expect(
      startDaemon(daemonConfig([{ ...app, webhooks: [{ url: 'http://127.0.0.1:9/hook', max_queue_bytes: 10 }] }]), { startTimeoutMs: 5_000 }),
    ).rejects.toThrow(/applications\.0\.webhooks\.0\.max_queue_bytes/);
  });
});
