import { silentLogger, type App } from '@org/protocol';
import { Agent } from 'undici';
import { LeaveDebouncer } from './leave-debouncer.js';
import { resolveWebhooksOptions, type WebhooksOptions } from './options.js';
import { TargetQueue, type DeliveryObserver } from './target-queue.js';
import { clientEventData, type WebhookEvent } from './webhook-event.js';
import { targetAccepts, toWebhookTarget } from './webhook-target.js';

/** One app's webhook queues, summed over its webhooks (for metrics gauges). */
export interface WebhookQueues {
  appId: string;
  /** Requests in flight or waiting for their retry. */
  inFlight: number;
  /** Bytes of the requests waiting behind those. */
  queuedBytes: number;
}

export interface Webhooks {
  /** Each app with webhooks: what its queues hold now. Cheap (a sum over its webhooks); for a metrics scrape. */
  queues(): WebhookQueues[];
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
export function createWebhooks(input: WebhooksOptions): Webhooks {
  const options = resolveWebhooksOptions(input);
  const { events } = options;
  const log = options.logger ?? silentLogger;
  // No cap on sockets per origin: each webhook bounds its own requests in flight (`max_concurrent_requests`), and
  // webhooks of several apps often share one receiver; a shared cap made their requests wait for a socket while
  // their timeout ran, so a receiver answering in time was counted as timing out and sent each event twice.
  const dispatcher = new Agent({ keepAliveTimeout: 10_000 });
  const debouncer = new LeaveDebouncer(options.debounceMs);
  const targetsByApp = new Map<string, { accepts: (event: WebhookEvent) => boolean; queue: TargetQueue }[]>();

  for (const app of options.apps) {
    // Pusher's default is one event per request; batching is the app's choice.
    const batch = app.batch_webhooks ? { windowMs: app.batch_webhooks_window_ms ?? options.batchWindowMs, maxEvents: options.maxBatchEvents } : undefined;
    const targets = app.webhooks.map((config) => {
      const target = toWebhookTarget(config);
      const queue = new TargetQueue({
        app,
        target,
        dispatcher,
        retry: options.retry,
        timeoutMs: options.timeoutMs,
        batch,
        maxConcurrentRequests: target.maxConcurrentRequests ?? options.maxConcurrentRequests,
        maxQueueBytes: target.maxQueueBytes ?? options.maxQueueBytes,
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
    events.on('channel.occupied', ({ app, channel }) => {
      if (!wanted(app) || debouncer.cancel(vacatedKey(app, channel))) return;
      send(app, { name: 'channel_occupied', channel });
    }),
    events.on('channel.vacated', ({ app, channel }) => {
      if (!wanted(app)) return;
      holdLeave(vacatedKey(app, channel), () => send(app, { name: 'channel_vacated', channel }));
    }),
    events.on('member.added', ({ app, channel, userId }) => {
      if (!wanted(app) || debouncer.cancel(removedKey(app, channel, userId))) return;
      send(app, { name: 'member_added', channel, user_id: userId });
    }),
    events.on('member.removed', ({ app, channel, userId }) => {
      if (!wanted(app)) return;
      holdLeave(removedKey(app, channel, userId), () => send(app, { name: 'member_removed', channel, user_id: userId }));
    }),
    events.on('client.event', ({ app, channel, event, data, socketId, userId }) => {
      if (!wanted(app)) return;
      const base = { name: 'client_event' as const, channel, event, data: clientEventData(data), socket_id: socketId };
      send(app, userId === undefined ? base : { ...base, user_id: userId });
    }),
    events.on('cache.miss', ({ app, channel }) => {
      if (wanted(app)) send(app, { name: 'cache_miss', channel });
    }),
    events.on('subscription.count', ({ app, channel, count }) => {
      if (wanted(app)) send(app, { name: 'subscription_count', channel, subscription_count: count });
    }),
  ];

  return {
    queues() {
      return [...targetsByApp].map(([appId, targets]) => ({
        appId,
        inFlight: targets.reduce((sum, { queue }) => sum + queue.inFlight, 0),
        queuedBytes: targets.reduce((sum, { queue }) => sum + queue.queuedBytes, 0),
      }));
    },
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
