import { describe, expect, it } from 'vitest';
import { createApp, createStaticAppProvider, RealtimeServer } from '@org/protocol';
import { Gauge, Registry } from 'prom-client';
import { createMetrics } from './create-metrics.js';
import { exposition } from './exposition.js';

const scalerStats = {
  outboxMessages: 0, outboxBytes: 0, outboxDropped: 0, droppedMessages: 0, replayedMessages: 0, missedMessages: 0, duplicateMessages: 0, invalidMessages: 0,
  busMessagesReceived: { channel: 0, node: 0 }, busMessagesPublished: { channel: 0, node: 0 }, topics: 0, lingeringTopics: 0, topicSubscribes: 0, topicUnsubscribes: 0,
};

describe('metric names', () => {
  it('follow the Prometheus conventions: one realtime_ prefix, _total on counters and only on counters', async () => {
    const metrics = createMetrics();
    metrics.observeScaler(() => scalerStats);
    const families = await metrics.registry.getMetricsAsJSON();
    expect(families.length).toBeGreaterThan(30);
    for (const { name, type } of families) {
      expect(name).toMatch(/^realtime_[a-z0-9_]+$/);
      expect(name).not.toMatch(/^realtime_(process|nodejs)_(process|nodejs)_/);
      expect(name.endsWith('_total'), `${name} is a ${String(type)}`).toBe(String(type) === 'counter');
    }
    const names = families.map((family) => family.name);
    expect(names).toEqual(expect.arrayContaining(['realtime_process_cpu_user_seconds_total', 'realtime_process_resident_memory_bytes', 'realtime_nodejs_eventloop_lag_seconds', 'realtime_nodejs_heap_size_used_bytes']));
  });
});

describe('metrics', () => {
  it('shares one set of process metrics (one GC observer, one event-loop monitor) between the daemons a restart builds', async () => {
    const [first, second] = [createMetrics(), createMetrics()];
    const name = 'realtime_nodejs_gc_duration_seconds';
    expect(first.registry.getSingleMetric(name)).toBeDefined();
    expect(second.registry.getSingleMetric(name)).toBe(first.registry.getSingleMetric(name));
    first.recordHttp('a1', 'GET', 200);
    expect((await second.render()).body).not.toContain('realtime_http_requests_total{');
  });

  it('starts the series of fixed label values at 0, so the first refusal or bug shows in increase()', async () => {
    const { body } = await createMetrics().render();
    expect(body).toContain('realtime_transport_refused_total{reason="body_too_large"} 0');
    expect(body).toContain('realtime_transport_errors_total{where="message"} 0');
    expect(body).toContain('realtime_handler_failures_total{kind="cluster_message"} 0');
  });

  it('counts rate-limit rejections by app and kind', async () => {
    const metrics = createMetrics();
    metrics.recordRateLimited('a1', 'backend_events');
    metrics.recordRateLimited('a1', 'backend_events');
    metrics.recordRateLimited('a2', 'client_events');
    const { body } = await metrics.render();
    expect(body).toContain('realtime_rate_limited_total{app_id="a1",kind="backend_events"} 2');
    expect(body).toContain('realtime_rate_limited_total{app_id="a2",kind="client_events"} 1');
  });

  it('counts webhook deliveries, failed attempts by reason and dropped events by reason', async () => {
    const metrics = createMetrics();
    const observer = metrics.webhookObserver;
    observer.failed('a1', 'HTTP_STATUS');
    observer.failed('a1', 'TIMEOUT');
    observer.delivered('a1', 3);
    observer.dropped('a1', 'queue_full', 4);
    const { body } = await metrics.render();
    expect(body).toContain('realtime_webhook_deliveries_total{app_id="a1"} 1');
    expect(body).toContain('realtime_webhook_events_delivered_total{app_id="a1"} 3');
    expect(body).toContain('realtime_webhook_failures_total{app_id="a1",reason="http_status"} 1');
    expect(body).toContain('realtime_webhook_failures_total{app_id="a1",reason="timeout"} 1');
    expect(body).toContain('realtime_webhook_events_dropped_total{app_id="a1",reason="queue_full"} 4');
  });

  it('reports per-message counts by app, accumulating across scrapes', async () => {
    const app = createApp({ id: 'a1', key: 'k', secret: 's' });
    const server = new RealtimeServer({ apps: createStaticAppProvider([app]) });
    const metrics = createMetrics();
    metrics.observe(server);
    server.events.emit('message.sent', { app, channel: 'c', event: 'e', recipients: 3, bytes: 120 });
    expect((await metrics.render()).body).toContain('realtime_ws_messages_sent_total{app_id="a1"} 3');
    server.events.emit('message.sent', { app, channel: 'c', event: 'e', recipients: 2, bytes: 80 });
    server.events.emit('message.sent', { app, channel: 'c', event: 'e', recipients: 0, bytes: 40 });
    const { body } = await metrics.render();
    expect(body).toContain('realtime_ws_messages_sent_total{app_id="a1"} 5');
    expect(body).toContain('realtime_ws_sent_bytes_total{app_id="a1"} 200');
  });

  it('counts connections closed for not authorizing in time, by app', async () => {
    const app = createApp({ id: 'a1', key: 'k', secret: 's', enableUserAuthentication: true });
    const server = new RealtimeServer({ apps: createStaticAppProvider([app]) });
    const metrics = createMetrics();
    metrics.observe(server);
    server.events.emit('connection.unauthorized_closed', { app, socketId: '1.1' });
    server.events.emit('connection.unauthorized_closed', { app, socketId: '1.2' });
    expect((await metrics.render()).body).toContain('realtime_connections_unauthorized_closed_total{app_id="a1"} 2');
  });

  it('reads the webhook queues\' gauges at each scrape, one series per app with webhooks', async () => {
    const metrics = createMetrics();
    let queues = [{ appId: 'a1', inFlight: 2, queuedBytes: 1_500 }, { appId: 'a2', inFlight: 0, queuedBytes: 0 }];
    metrics.observeWebhooks(() => queues);
    let { body } = await metrics.render();
    expect(body).toContain('realtime_webhook_requests_in_flight{app_id="a1"} 2');
    expect(body).toContain('realtime_webhook_queued_bytes{app_id="a1"} 1500');
    expect(body).toContain('realtime_webhook_requests_in_flight{app_id="a2"} 0');
    queues = [{ appId: 'a1', inFlight: 1, queuedBytes: 0 }];
    ({ body } = await metrics.render());
    expect(body).toContain('realtime_webhook_requests_in_flight{app_id="a1"} 1');
    expect(body).not.toContain('app_id="a2"');
  });

  it('counts HTTP calls by app, method and status, folding unknown methods into OTHER', async () => {
    const metrics = createMetrics();
    metrics.recordHttp('a1', 'POST', 200);
    metrics.recordHttp('a1', 'POST', 200);
    metrics.recordHttp(undefined, 'GET', 404);
    for (let i = 0; i < 50; i++) metrics.recordHttp(undefined, `X${i}`, 405);
    const { body } = await metrics.render();
    expect(body).toContain('realtime_http_requests_total{app_id="a1",method="POST",status="200"} 2');
    expect(body).toContain('realtime_http_requests_total{app_id="none",method="GET",status="404"} 1');
    expect(body).toContain('realtime_http_requests_total{app_id="none",method="OTHER",status="405"} 50');
    metrics.recordHttp('a1', 'POST', 200);
    expect((await metrics.render()).body).toContain('realtime_http_requests_total{app_id="a1",method="POST",status="200"} 3');
  });
});

describe('exposition', () => {
  it('writes a NaN value as NaN, the exposition format\'s spelling (prom-client writes Nan, which strict parsers refuse)', async () => {
    const registry = new Registry();
    new Gauge({ name: 'realtime_test_mean_seconds', help: 'a mean of no samples', registers: [registry] }).set(Number.NaN);
    new Gauge({ name: 'realtime_test_named_nan', help: 'a help text that ends in Nan', registers: [registry] }).set(1);
    const { body } = await exposition(registry);
    expect(body).toMatch(/^realtime_test_mean_seconds NaN$/m);
    expect(body).toContain('# HELP realtime_test_named_nan a help text that ends in Nan\n');
    expect(body).toMatch(/^realtime_test_named_nan 1$/m);
  });
});
