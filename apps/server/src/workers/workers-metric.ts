import type { ScalerHubStats } from '@org/thread-scaler';
import { Counter, Gauge, type Registry } from 'prom-client';

/**
 * `realtime_workers`: the threads serving the port. A process-wide series: a lone daemon exports 1,
 * a server with workers exports it once from the main thread (not summed over the workers).
 */
export function registerWorkersGauge(registry: Registry, workers: number): void {
  new Gauge({
    name: 'realtime_workers',
    help: 'Worker threads serving the port (the workers setting; 1 without workers)',
    registers: [registry],
    collect() {
      this.set(workers);
    },
  });
}

/**
 * What crosses between workers through the main thread's hub (workers without Redis), read from
 * its counters on each scrape: the in-process counterpart of the `realtime_scaling_*` bus figures.
 */
export function registerHubMetrics(registry: Registry, stats: ScalerHubStats): void {
  const counter = (name: string, help: string, value: () => number) =>
    new Counter({
      name,
      help,
      registers: [registry],
      collect() {
        this.reset();
        this.inc(value());
      },
    });
  counter('realtime_workers_messages_forwarded_total', 'Cluster messages the main thread handed from one worker to another (one per receiving worker)', () => stats.forwarded);
  counter('realtime_workers_messages_skipped_total', 'Cluster messages not handed to a worker that had no subscriber in the channel', () => stats.skipped);
  counter('realtime_workers_messages_invalid_total', 'Unreadable messages from a worker thread, refused (a bug)', () => stats.invalid);
}
