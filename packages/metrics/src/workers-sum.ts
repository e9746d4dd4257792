import { AggregatorRegistry, Registry, type MetricObjectWithValues, type MetricValue } from 'prom-client';
import { exposition, type Exposition } from './exposition.js';
import { processMetricsRegistry } from './process-metrics.js';

/**
 * One worker thread's series, as it sends them to the main thread: `metrics.registry.getMetricsAsJSON()`
 * of a `createMetrics({ processMetrics: false })` (plain data, so it crosses `postMessage`).
 */
export type WorkerMetrics = MetricObjectWithValues<MetricValue<string>>[];

/**
 * `/metrics` for a process whose engines run in worker threads: every worker's series summed
 * (counters and gauges alike; prom-client's cluster aggregation), the process's default metrics
 * once, and the series the main thread keeps itself (`mainThread`, e.g. `registerThreadHubMetrics`).
 */
export function sumOfWorkers(perWorker: readonly WorkerMetrics[], mainThread?: Registry): Promise<Exposition> {
  const summed: Registry = AggregatorRegistry.aggregate([...perWorker]);
  return exposition(Registry.merge(mainThread ? [summed, processMetricsRegistry(), mainThread] : [summed, processMetricsRegistry()]));
}
