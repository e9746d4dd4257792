import { createApp, createStaticAppProvider, RealtimeServer } from '@org/protocol';
import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { createMetrics } from './create-metrics.js';
import { registerThreadHubMetrics } from './thread-hub-metrics.js';
import { sumOfWorkers } from './workers-sum.js';

const app = createApp({ id: 'a1', key: 'k', secret: 's' });

/** A worker thread's metrics (no process metrics) after it sent `recipients` messages. */
async function workerSeries(recipients: number) {
  const server = new RealtimeServer({ apps: createStaticAppProvider([app]) });
  const metrics = createMetrics({ processMetrics: false });
  metrics.observe(server);
  server.events.emit('message.sent', { app, channel: 'c', event: 'e', recipients, bytes: recipients * 10 });
  metrics.recordHttp('a1', 'POST', 200);
  return metrics.registry.getMetricsAsJSON();
}

describe('sumOfWorkers', () => {
  it('sums every worker\'s counters, adds the process metrics once and the main thread\'s own series', async () => {
    const mainThread = new Registry();
    const hub = { forwarded: 7, skipped: 2, invalid: 0 };
    registerThreadHubMetrics(mainThread, hub);
    const { contentType, body } = await sumOfWorkers([await workerSeries(3), await workerSeries(4)], mainThread);
    expect(contentType).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(body).toContain('realtime_ws_messages_sent_total{app_id="a1"} 7');
    expect(body).toContain('realtime_ws_sent_bytes_total{app_id="a1"} 70');
    expect(body).toContain('realtime_http_requests_total{app_id="a1",method="POST",status="200"} 2');
    expect(body).toContain('realtime_workers_messages_forwarded_total 7');
    expect(body).toContain('realtime_workers_messages_skipped_total 2');
    expect(body.match(/^# TYPE realtime_process_cpu_user_seconds_total counter$/gm)).toHaveLength(1);
  });

  it('reads the hub\'s counters on each scrape', async () => {
    const mainThread = new Registry();
    const hub = { forwarded: 1, skipped: 0, invalid: 0 };
    registerThreadHubMetrics(mainThread, hub);
    expect((await sumOfWorkers([], mainThread)).body).toContain('realtime_workers_messages_forwarded_total 1');
    hub.forwarded = 5;
    hub.invalid = 1;
    const { body } = await sumOfWorkers([], mainThread);
    expect(body).toContain('realtime_workers_messages_forwarded_total 5');
    expect(body).toContain('realtime_workers_messages_invalid_total 1');
  });
});
