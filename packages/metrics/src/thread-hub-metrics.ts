import { Counter, type Registry } from 'prom-client';

/** What `registerThreadHubMetrics` reads: `@org/thread-scaler`'s `ScalerHubStats` is one. */
export interface ThreadHubStats {
  readonly forwarded: number;
  readonly skipped: number;
  readonly invalid: number;
}

/**
 * What crosses between workers through the main thread's hub (workers without Redis), read from
 * its counters on each scrape: the in-process counterpart of the `realtime_scaling_*` bus figures.
 */
export function registerThreadHubMetrics(registry: Registry, stats: ThreadHubStats): void {
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
