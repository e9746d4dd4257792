import type { Logger } from '@org/protocol';
import { Agent } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultRetryPolicy } from './retry-policy.js';
import { TargetQueue, type DeliveryObserver, type TargetQueueOptions } from './target-queue.js';
import { startWebhookReceiver, type WebhookReceiver } from './testing/webhook-receiver.js';
import { toWebhookTarget } from './webhook-target.js';

const app = { id: 'tq', key: 'tq-key', secret: 'tq-secret-5678' };

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

interface LogLine {
  level: 'debug' | 'info' | 'warn' | 'error';
  message: string;
  fields: Record<string, unknown>;
}

function capturingLogger(): { log: Logger; lines: LogLine[] } {
  const lines: LogLine[] = [];
  const at = (level: LogLine['level']) => (fields: Record<string, unknown>, message: string) => void lines.push({ level, message, fields });
  return { log: { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') }, lines };
}

async function receiver(answer: (n: number) => number): Promise<WebhookReceiver> {
  const started = await startWebhookReceiver(app, answer);
  cleanups.push(() => started.close());
  return started;
}

function queueFor(url: string, options: Partial<TargetQueueOptions>) {
  const dispatcher = new Agent({ connections: 2 });
  const counts = { delivered: 0, failed: 0, dropped: new Map<string, number>() };
  const observer: DeliveryObserver = {
    delivered: (_app, events) => void (counts.delivered += events),
    failed: () => void counts.failed++,
    dropped: (_app, reason, events) => void counts.dropped.set(reason, (counts.dropped.get(reason) ?? 0) + events),
  };
  const { log, lines } = capturingLogger();
  const queue = new TargetQueue({
    app,
    target: toWebhookTarget({ url }),
    dispatcher,
    timeoutMs: 2_000,
    retry: { ...defaultRetryPolicy, initialDelayMs: 20, maxDelayMs: 40 },
    batchWindowMs: 5,
    maxBatchEvents: 10,
    maxQueueBytes: 64 * 1024,
    observer,
    log,
    ...options,
  });
  cleanups.push(async () => {
    await queue.drain(Date.now() + 100);
    await dispatcher.destroy();
  });
  return { queue, counts, lines };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('a webhook queue bounded in bytes', () => {
  it('never holds more than maxQueueBytes while the receiver is down, however much is sent', async () => {
    const hook = await receiver(() => 500);
    const maxQueueBytes = 64 * 1024;
    // Each batch seals at 10 events of ~1 KB: 500 batches, ~5 MB in all, against a 64 KiB bound.
    const { queue, counts } = queueFor(hook.url, { maxQueueBytes, batchWindowMs: 60_000, retry: { ...defaultRetryPolicy, initialDelayMs: 60_000, maxDelayMs: 60_000 } });
    const data = 'x'.repeat(1_000);
    let highest = 0;
    for (let i = 0; i < 5_000; i++) {
      queue.add({ name: 'client_event', channel: 'private-load', event: 'client-x', data, socket_id: '1.1' });
      highest = Math.max(highest, queue.queuedBytes);
    }
    expect(highest).toBeLessThanOrEqual(maxQueueBytes);
    expect(highest).toBeGreaterThan(maxQueueBytes / 2);
    const dropped = counts.dropped.get('queue_full') ?? 0;
    // Only whole batches are dropped, and everything not dropped is waiting or being delivered.
    expect(dropped % 10).toBe(0);
    expect(dropped).toBeGreaterThan(4_000);
    await sleep(50);
    expect(counts.delivered).toBe(0);
  });

  it('logs a failing receiver and its drops once per outage, the recovery once, and again when it fails anew', async () => {
    let failing = true;
    const hook = await receiver(() => (failing ? 500 : 200));
    // A batch here is ~0.5 KB: a 1.5 KiB bound keeps 2-3 waiting batches.
    const { queue, counts, lines } = queueFor(hook.url, { maxQueueBytes: 1_500 });
    const burst = async (prefix: string) => {
      for (let i = 0; i < 20; i++) {
        queue.add({ name: 'channel_occupied', channel: `${prefix}-${i}` });
        await sleep(8);
      }
    };
    const warnings = () => lines.filter((line) => line.level === 'warn' || line.level === 'error').map((line) => line.message);
    const recoveries = () => lines.filter((line) => line.message === 'webhook receiver recovered');

    await burst('first');
    expect(counts.dropped.get('queue_full')).toBeGreaterThanOrEqual(10);
    expect(counts.failed).toBeGreaterThanOrEqual(2);
    expect(warnings()).toEqual([expect.stringMatching(/^webhook delivery failing/), expect.stringMatching(/^webhook queue over max_queue_bytes/)]);

    failing = false;
    for (let i = 0; i < 200 && recoveries().length === 0; i++) await sleep(10);
    expect(recoveries()).toHaveLength(1);
    expect(recoveries()[0]!.fields).toMatchObject({ droppedEvents: counts.dropped.get('queue_full'), failedAttempts: counts.failed });
    expect(queue.idle).toBe(true);

    failing = true;
    await burst('second');
    expect(warnings()).toHaveLength(4);
    expect(warnings().slice(2)).toEqual([expect.stringMatching(/^webhook delivery failing/), expect.stringMatching(/^webhook queue over max_queue_bytes/)]);
    // Nothing in the lines carries the body or the signature.
    expect(JSON.stringify(lines)).not.toContain(app.secret);
  });

  it('counts retries that ran out as dropped, within the same once-logged outage', async () => {
    const hook = await receiver(() => 503);
    const { queue, counts, lines } = queueFor(hook.url, { retry: { ...defaultRetryPolicy, initialDelayMs: 5, maxDelayMs: 10, retryWindowMs: 30 } });
    for (let i = 0; i < 3; i++) {
      queue.add({ name: 'channel_occupied', channel: `c-${i}` });
      await sleep(10);
    }
    for (let i = 0; i < 300 && !queue.idle; i++) await sleep(10);
    expect(queue.idle).toBe(true);
    expect(counts.dropped.get('expired')).toBe(3);
    expect(lines.filter((line) => line.level === 'warn' && line.message.startsWith('webhook retries exhausted'))).toHaveLength(1);
  });
});
