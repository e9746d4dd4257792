import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { exposition } from './exposition.js';
import { registerIdempotencyMetrics, registerIdempotencyStoreMetrics } from './idempotency-metrics.js';

describe('idempotency metrics', () => {
  it('count replays and 409s per app, store failures per operation from 0', async () => {
    const registry = new Registry();
    const observer = registerIdempotencyMetrics(registry);
    observer.replayed('app-1');
    observer.replayed('app-1');
    observer.inFlight('app-2');
    observer.storeFailed('claim');
    const { body } = await exposition(registry);
    expect(body).toContain('realtime_idempotent_replays_total{app_id="app-1"} 2');
    expect(body).toContain('realtime_idempotency_in_flight_refused_total{app_id="app-2"} 1');
    expect(body).toContain('realtime_idempotency_store_failures_total{operation="claim"} 1');
    expect(body).toContain('realtime_idempotency_store_failures_total{operation="complete"} 0');
    expect(body).toContain('realtime_idempotency_store_failures_total{operation="release"} 0');
  });

  it('read the memory store\'s keys and evictions on each scrape', async () => {
    const registry = new Registry();
    const stats = { size: 3, bytes: 672, evicted: 0 };
    registerIdempotencyStoreMetrics(registry, stats);
    const first = (await exposition(registry)).body;
    expect(first).toContain('realtime_idempotency_keys 3');
    expect(first).toContain('realtime_idempotency_bytes 672');
    stats.size = 1;
    stats.bytes = 224;
    stats.evicted = 7;
    const { body } = await exposition(registry);
    expect(body).toContain('realtime_idempotency_keys 1');
    expect(body).toContain('realtime_idempotency_bytes 224');
    expect(body).toContain('realtime_idempotency_keys_evicted_total 7');
  });
});
