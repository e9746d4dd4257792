import type { App, Logger, RealtimeServer } from '@org/protocol';
import { Agent } from 'undici';
import { defaultWebhookMaxQueueBytes } from '../config/schema.js';
import { LeaveDebouncer } from './leave-debouncer.js';
import { defaultRetryPolicy, type RetryPolicy } from './retry-policy.js';
import { TargetQueue, type DeliveryObserver } from './target-queue.js';
import { clientEventData, type WebhookEvent } from './webhook-event.js';
import { targetAccepts, toWebhookTarget, type WebhookConfig } from './webhook-target.js';

export interface WebhookApp {
  id: string;
  key: string;
  secret: string;
  webhooks: readonly WebhookConfig[];
}

export interface WebhooksOptions {
  server: RealtimeServer;
  apps: readonly WebhookApp[];
  log: Logger;
  observer?: DeliveryObserver;
  /** How long `member_removed` / `channel_vacated` wait for a re-join that cancels them. Default 3,000 ms. */
  debounceMs?: number;
  /** Default 50 ms. */
  batchWindowMs?: number;
  /** Default 100 events per request. */
  maxBatchEvents?: number;
  /** Per webhook without its own `max_queue_bytes`; default 4 MiB (the config schema's default). */
  maxQueueBytes?: number;
  /** One attempt's time limit. Default 10,000 ms. */
  timeoutMs?: number;
  retry?: Partial<RetryPolicy>;
  /** For tests of the jitter. */
  random?: () => number;
}

export interface Webhooks {
  /**
   * Sends held leaves and collected events now and delivers until done or
   * `deadline` (epoch ms), then stops listening and releases connections.
   */
  stop(deadline: number): Promise<void>;
}

const noObserver: DeliveryObserver = { delivered() {}, failed() {}, dropped() {} };

/**
 * Pusher-compatible webhooks fed by the engine's events. The engine reports
 * channel and presence changes from cluster-wide state on exactly one node,
 * so each webhook is sent once per cluster without coordination here.
 */
export function createWebhooks(options: WebhooksOptions): Webhooks {
  const { server, log } = options;
  const dispatcher = new Agent({ connections: 16, keepAliveTimeout: 10_000 });
  const retry: RetryPolicy = { ...defaultRetryPolicy, ...options.retry };
  const debouncer = new LeaveDebouncer(options.debounceMs ?? 3_000);
  const targetsByApp = new Map<string, { accepts: (event: WebhookEvent) => boolean; queue: TargetQueue }[]>();

  for (const app of options.apps) {
    const targets = app.webhooks.map((config) => {
      const target = toWebhookTarget(config);
      const queue = new TargetQueue({
        app,
        target,
        dispatcher,
        retry,
        timeoutMs: options.timeoutMs ?? 10_000,
        batchWindowMs: options.batchWindowMs ?? 50,
        maxBatchEvents: options.maxBatchEvents ?? 100,
        maxQueueBytes: target.maxQueueBytes ?? options.maxQueueBytes ?? defaultWebhookMaxQueueBytes,
        observer: options.observer ?? noObserver,
        log,
        ...(options.random ? { random: options.random } : {}),
      });
      return { accepts: (event: WebhookEvent) => targetAccepts(target, event), queue };
    });
    if (targets.length === 0) continue;
    targetsByApp.set(app.id, targets);
  }

  const send = (app: App, event: WebhookEvent) => {
    for (const target of targetsByApp.get(app.id) ?? []) if (target.accepts(event)) target.queue.add(event);
  };
  const wanted = (app: App) => targetsByApp.has(app.id);
  const vacatedKey = (app: App, channel: string) => `v\u0000${app.id}\u0000${channel}`;
  const removedKey = (app: App, channel: string, userId: string) => `m\u0000${app.id}\u0000${channel}\u0000${userId}`;
  let stopping: Promise<void> | undefined;
  /** Leaves wait for a re-join, except during shutdown: nobody re-joins on this node then. */
  const holdLeave = (key: string, fire: () => void) => (stopping ? fire() : debouncer.hold(key, fire));

  const unsubscribe = [
    server.events.on('channel.occupied', ({ app, channel }) => {
      if (!wanted(app) || debouncer.cancel(vacatedKey(app, channel))) return;
      send(app, { name: 'channel_occupied', channel });
    }),
    server.events.on('channel.vacated', ({ app, channel }) => {
      if (!wanted(app)) return;
      holdLeave(vacatedKey(app, channel), () => send(app, { name: 'channel_vacated', channel }));
    }),
    server.events.on('member.added', ({ app, channel, userId }) => {
      if (!wanted(app) || debouncer.cancel(removedKey(app, channel, userId))) return;
      send(app, { name: 'member_added', channel, user_id: userId });
    }),
    server.events.on('member.removed', ({ app, channel, userId }) => {
      if (!wanted(app)) return;
      holdLeave(removedKey(app, channel, userId), () => send(app, { name: 'member_removed', channel, user_id: userId }));
    }),
    server.events.on('client.event', ({ app, channel, event, data, socketId, userId }) => {
      if (!wanted(app)) return;
      const base = { name: 'client_event' as const, channel, event, data: clientEventData(data), socket_id: socketId };
      send(app, userId === undefined ? base : { ...base, user_id: userId });
    }),
    server.events.on('cache.miss', ({ app, channel }) => {
      if (wanted(app)) send(app, { name: 'cache_miss', channel });
    }),
  ];

  return {
    stop(deadline) {
      stopping ??= (async () => {
        debouncer.flush();
        await Promise.all([...targetsByApp.values()].flat().map(({ queue }) => queue.drain(deadline)));
        for (const off of unsubscribe) off();
        await dispatcher.destroy();
      })();
      return stopping;
    },
  };
}
