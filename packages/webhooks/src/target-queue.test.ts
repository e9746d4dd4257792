import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
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
  const dispatcher = new Agent({ connections: 4 });
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
    batch: { windowMs: 5, maxEvents: 10 },
    maxConcurrentRequests: 1,
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
    const { queue, counts } = queueFor(hook.url, { maxQueueBytes, batch: { windowMs: 60_000, maxEvents: 10 }, retry: { ...defaultRetryPolicy, initialDelayMs: 60_000, maxDelayMs: 60_000 } });
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

/** A receiver that answers 200 after `delayMs`, noting how many requests it held at once and each body. */
async function slowReceiver(delayMs: number) {
  const seen = { bodies: [] as { time_ms: number; events: { channel: string }[] }[], concurrent: 0, mostConcurrent: 0 };
  const server = createServer((request, response) => {
    seen.concurrent++;
    seen.mostConcurrent = Math.max(seen.mostConcurrent, seen.concurrent);
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      seen.bodies.push(JSON.parse(Buffer.concat(chunks).toString('utf8')) as (typeof seen.bodies)[number]);
      setTimeout(() => {
        seen.concurrent--;
        response.end('ok');
      }, delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhook`, seen };
}

describe('one event per request (Pusher\'s default) and the concurrency bound', () => {
  it('sends each event in a request of its own, in the order they happened, one at a time by default', async () => {
    const hook = await slowReceiver(2);
    const { queue, counts } = queueFor(hook.url, { batch: undefined, maxConcurrentRequests: 1 });
    for (let i = 0; i < 20; i++) queue.add({ name: 'channel_occupied', channel: `c-${i}` });
    for (let i = 0; i < 300 && !queue.idle; i++) await sleep(10);
    expect(counts.delivered).toBe(20);
    expect(hook.seen.bodies.map((body) => body.events.length)).toEqual(Array.from({ length: 20 }, () => 1));
    expect(hook.seen.bodies.map((body) => body.events[0]!.channel)).toEqual(Array.from({ length: 20 }, (_, i) => `c-${i}`));
    expect(hook.seen.mostConcurrent).toBe(1);
  });

  it('holds a burst of 1,000 events in the bounded queue, never more than maxConcurrentRequests in flight, and delivers them all', async () => {
    const hook = await slowReceiver(1);
    const { queue, counts } = queueFor(hook.url, { batch: undefined, maxConcurrentRequests: 4, maxQueueBytes: 1024 * 1024 });
    let mostInFlight = 0;
    for (let i = 0; i < 1_000; i++) {
      queue.add({ name: 'channel_occupied', channel: `burst-${i}` });
      mostInFlight = Math.max(mostInFlight, queue.inFlight);
    }
    expect(mostInFlight).toBe(4);
    // Each waiting request is counted in the bound: body, headers and the fixed allowance.
    expect(queue.queuedBytes).toBeGreaterThan(996 * 256);
    for (let i = 0; i < 1_000 && !queue.idle; i++) {
      mostInFlight = Math.max(mostInFlight, queue.inFlight);
      await sleep(10);
    }
    expect(counts.delivered).toBe(1_000);
    expect(counts.dropped.size).toBe(0);
    expect(mostInFlight).toBe(4);
    expect(hook.seen.mostConcurrent).toBeLessThanOrEqual(4);
    expect(hook.seen.bodies).toHaveLength(1_000);
    expect(new Set(hook.seen.bodies.map((body) => body.events[0]!.channel)).size).toBe(1_000);
  });

  it('keeps the byte bound with one event per request: the oldest waiting requests are dropped and counted', async () => {
    const hook = await receiver(() => 500);
    const maxQueueBytes = 16 * 1024;
    const { queue, counts } = queueFor(hook.url, { batch: undefined, maxConcurrentRequests: 2, maxQueueBytes, retry: { ...defaultRetryPolicy, initialDelayMs: 60_000, maxDelayMs: 60_000 } });
    let highest = 0;
    for (let i = 0; i < 1_000; i++) {
      queue.add({ name: 'channel_occupied', channel: `c-${i}` });
      highest = Math.max(highest, queue.queuedBytes);
    }
    expect(highest).toBeLessThanOrEqual(maxQueueBytes);
    expect(queue.inFlight).toBe(2);
    const waiting = 1_000 - 2 - (counts.dropped.get('queue_full') ?? 0);
    expect(waiting).toBeGreaterThan(0);
    expect(waiting * 256).toBeLessThanOrEqual(maxQueueBytes);
  });
});
