import { ServerEvents, silentLogger } from '@org/protocol';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createWebhooks } from './create-webhooks.js';
import { WebhooksOptionError } from './errors.js';
import { resolveWebhooksOptions, webhookAppFields, webhookConfigSchema, webhookDefaults, type WebhooksOptions } from './options.js';
import { defaultRetryPolicy } from './retry-policy.js';

const app = { id: '1', key: 'k', secret: 's', webhooks: [{ url: 'http://127.0.0.1:9/hook' }] };

function refusal(options: unknown): string {
  try {
    resolveWebhooksOptions(options as WebhooksOptions);
  } catch (error) {
    expect(error).toBeInstanceOf(WebhooksOptionError);
    expect((error as WebhooksOptionError).code).toBe('INVALID_OPTION');
    return (error as Error).message;
  }
  throw new Error('expected the options to be refused');
}

describe('webhooks options', () => {
  it('fills in every default, once, from webhookDefaults and defaultRetryPolicy', () => {
    const resolved = resolveWebhooksOptions({ events: new ServerEvents(), apps: [app] });
    expect(resolved).toMatchObject({ ...webhookDefaults, retry: defaultRetryPolicy, logger: undefined, observer: undefined });
    expect(webhookDefaults.maxQueueBytes).toBe(4 * 1024 * 1024);
    // Pusher's defaults: one request at a time, in order (and one event per request unless an app batches).
    expect(webhookDefaults.maxConcurrentRequests).toBe(1);
    expect(resolveWebhooksOptions({ events: new ServerEvents(), apps: [], retry: { initialDelayMs: 5 } }).retry).toEqual({ ...defaultRetryPolicy, initialDelayMs: 5 });
  });

  it('names every bad key in one message', () => {
    const message = refusal({
      events: {},
      apps: [{ id: '', key: 'k', secret: 's', batch_webhooks: 'yes', batch_webhooks_window_ms: 60_001, webhooks: [{ url: 'not a url', max_queue_bytes: 10, max_concurrent_requests: 17, event_types: ['nope'], extra: 1 }] }],
      maxConcurrentRequests: 0,
      timeoutMs: 0,
      retry: { factor: 0.5 },
      logger: { info() {} },
    });
    expect(message).toMatch(/^@org\/webhooks: invalid options: /);
    for (const key of ['events', 'apps.0.id', 'apps.0.batch_webhooks', 'apps.0.batch_webhooks_window_ms', 'apps.0.webhooks.0.max_concurrent_requests', 'maxConcurrentRequests', 'apps.0.webhooks.0.url', 'apps.0.webhooks.0.max_queue_bytes', 'apps.0.webhooks.0.event_types.0', 'apps.0.webhooks.0: Unrecognized key', 'timeoutMs', 'retry.factor', 'logger']) {
      expect(message).toContain(key);
    }
    expect(refusal(undefined)).toContain('options must be an object');
  });

  it('refuses timer lengths a Node.js timer cannot keep (they would fire at once)', () => {
    expect(refusal({ events: new ServerEvents(), apps: [], debounceMs: 2 ** 31 })).toContain('debounceMs');
    expect(refusal({ events: new ServerEvents(), apps: [], retry: { maxDelayMs: Infinity } })).toContain('retry.maxDelayMs');
  });

  it('exports the webhook entry schema hosts embed in their config schema', () => {
    expect(webhookConfigSchema.safeParse({ url: 'https://h.example/in', max_queue_bytes: 1_024 }).success).toBe(true);
    expect(webhookConfigSchema.safeParse({ url: 'https://h.example/in', max_queue_bytes: 1_023 }).success).toBe(false);
    expect(webhookConfigSchema.safeParse({ url: 'https://h.example/in', max_concurrent_requests: 16 }).success).toBe(true);
    expect(webhookConfigSchema.safeParse({ url: 'https://h.example/in', max_concurrent_requests: 0 }).success).toBe(false);
  });

  it('exports the app keys of batch webhooks, off by default with the documented window', () => {
    const app = z.object(webhookAppFields);
    expect(app.parse({})).toEqual({ batch_webhooks: false, batch_webhooks_window_ms: webhookDefaults.batchWindowMs });
    expect(app.safeParse({ batch_webhooks: true, batch_webhooks_window_ms: 60_000 }).success).toBe(true);
    expect(app.safeParse({ batch_webhooks_window_ms: -1 }).success).toBe(false);
  });
});

describe('webhooks options, for hostile input', () => {
  const junk = fc.oneof(fc.anything(), fc.constantFrom(Infinity, -1, Number.NaN, 2 ** 40, '', 'x', null, [], {}, () => 1));
  const hostileApp = fc.record(
    {
      id: junk,
      key: junk,
      secret: junk,
      batch_webhooks: junk,
      batch_webhooks_window_ms: junk,
      webhooks: fc.oneof(junk, fc.array(fc.record({ url: junk, event_types: junk, filter: junk, headers: junk, max_queue_bytes: junk, max_concurrent_requests: junk }, { requiredKeys: [] }), { maxLength: 2 })),
    },
    { requiredKeys: [] },
  );
  const hostileOptions = fc.record(
    {
      apps: fc.oneof(junk, fc.array(hostileApp, { maxLength: 2 })),
      logger: junk,
      observer: junk,
      debounceMs: junk,
      batchWindowMs: junk,
      maxBatchEvents: junk,
      maxConcurrentRequests: junk,
      maxQueueBytes: junk,
      timeoutMs: junk,
      retry: fc.oneof(junk, fc.record({ initialDelayMs: junk, maxDelayMs: junk, factor: junk, retryWindowMs: junk }, { requiredKeys: [] })),
      random: junk,
    },
    { requiredKeys: [] },
  );

  it('either starts, or refuses with a WebhooksOptionError and leaves the engine\'s events untouched', async () => {
    await fc.assert(
      fc.asyncProperty(hostileOptions, async (options) => {
        const events = new ServerEvents();
        let webhooks: ReturnType<typeof createWebhooks> | undefined;
        try {
          webhooks = createWebhooks({ ...(options as object), events, logger: silentLogger } as WebhooksOptions);
        } catch (error) {
          expect(error).toBeInstanceOf(WebhooksOptionError);
          expect(events.has('channel.occupied')).toBe(false);
          return;
        }
        expect(events.has('channel.occupied')).toBe(true);
        await webhooks.stop(Date.now());
        expect(events.has('channel.occupied')).toBe(false);
      }),
      { numRuns: 300 },
    );
  });
});
