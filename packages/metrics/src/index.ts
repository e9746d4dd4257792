/**
 * `@org/metrics`: Prometheus metrics over a `RealtimeServer`'s events (`realtime_*`), the hooks a
 * host feeds (HTTP answers, rate limits, transport refusals and errors, a scaler's stats, webhook
 * deliveries), a listener serving them on a port of their own, and the sum over worker threads.
 */
export { createMetrics, type Metrics, type MetricsOptions, type WebhookObserver } from './create-metrics.js';
export { exposition, type Exposition } from './exposition.js';
export { processMetricsRegistry } from './process-metrics.js';
export { registerScalerMetrics, type ByTopicKind, type ScalerStats } from './scaler-metrics.js';
export { registerThreadHubMetrics, type ThreadHubStats } from './thread-hub-metrics.js';
export type { WebhookQueueStats } from './webhook-queue-metrics.js';
export { registerIdempotencyMetrics, registerIdempotencyStoreMetrics, type IdempotencyObserver, type IdempotencyStoreStats } from './idempotency-metrics.js';
export { sumOfWorkers, type WorkerMetrics } from './workers-sum.js';
export { listenForMetrics, type MetricsListener, type MetricsListenerOptions } from './metrics-listener.js';
export { MetricsError, type MetricsErrorCode } from './errors.js';
export type { HandlerKind, IdempotencyStoreOperation, RateLimitKind, TransportCallback, TransportRefusal } from './label-values.js';
