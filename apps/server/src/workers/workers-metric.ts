import { Gauge, type Registry } from 'prom-client';

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
