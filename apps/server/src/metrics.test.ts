import { describe, expect, it } from 'vitest';
import { createMetrics } from './metrics.js';

describe('metrics', () => {
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
});
