import { collectDefaultMetrics, Registry } from 'prom-client';

/** The one prefix of every series; prom-client's default metrics get it too (`realtime_process_*`, `realtime_nodejs_*`). */
const prefix = 'realtime_';

/**
 * prom-client's default metrics that are gauges named `*_total`: Prometheus
 * reserves `_total` for counters, and each is the `sum()` of the labelled
 * gauge next to it (`realtime_nodejs_active_handles{type}` etc.).
 */
const gaugesNamedTotal = ['nodejs_active_handles_total', 'nodejs_active_requests_total', 'nodejs_active_resources_total'];

let processMetrics: Registry | undefined;

/**
 * The process's default metrics (`realtime_process_*`, `realtime_nodejs_*`), made once per process:
 * they start a GC observer and an event-loop delay monitor that are never stopped, and a
 * restart builds a new daemon (and metrics) in the same process.
 */
export function processMetricsRegistry(): Registry {
  if (!processMetrics) {
    processMetrics = new Registry();
    // prom-client prepends the prefix to its own names, which already start with `process_` or `nodejs_`.
    collectDefaultMetrics({ register: processMetrics, prefix });
    for (const name of gaugesNamedTotal) processMetrics.removeSingleMetric(prefix + name);
  }
  return processMetrics;
}
