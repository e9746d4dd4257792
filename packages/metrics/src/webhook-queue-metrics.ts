import { Gauge, type Registry } from 'prom-client';

/**
 * What `observeWebhooks` reads on each scrape, per app with webhooks: the sum over its webhooks.
 * `@org/webhooks`' `Webhooks.queues()` returns these.
 */
export interface WebhookQueueStats {
  appId: string;
  /** Requests in flight or waiting for their retry (at most `max_concurrent_requests` per webhook). */
  inFlight: number;
  /** Bytes of the requests waiting behind those (at most `max_queue_bytes` per webhook). */
  queuedBytes: number;
}

/** The webhook queues' gauges, read from `stats` on each scrape (nothing is counted on the delivery path). */
export function registerWebhookQueueMetrics(registry: Registry, stats: () => readonly WebhookQueueStats[]): void {
  const gauge = (name: string, help: string, value: (s: WebhookQueueStats) => number) =>
    new Gauge({
      name,
      help,
      labelNames: ['app_id'],
      registers: [registry],
      collect() {
        this.reset();
        for (const app of stats()) this.set({ app_id: app.appId }, value(app));
      },
    });
  gauge('realtime_webhook_requests_in_flight', 'Webhook requests in flight or waiting for their retry (at most max_concurrent_requests per webhook)', (s) => s.inFlight);
  gauge('realtime_webhook_queued_bytes', 'Bytes of webhook requests waiting behind those in flight (at most max_queue_bytes per webhook; the oldest are dropped over it)', (s) => s.queuedBytes);
}
