import { Counter, Gauge, type Registry } from 'prom-client';
import { idempotencyStoreOperations, type IdempotencyStoreOperation } from './label-values.js';

/** What a host reports of `X-Idempotency-Key`s: a wrapper around its store calls these. */
export interface IdempotencyObserver {
  /** A retry answered with the first request's answer (nothing published). */
  replayed(appId: string): void;
  /** A retry refused with 409 while the first request ran. */
  inFlight(appId: string): void;
  /** A store call that failed or timed out; for a claim, the request was published without idempotency. */
  storeFailed(operation: IdempotencyStoreOperation): void;
}

/**
 * `realtime_idempotent_replays_total`, `realtime_idempotency_in_flight_refused_total` (per app) and
 * `realtime_idempotency_store_failures_total` (per store call, created at 0) in `registry`.
 */
export function registerIdempotencyMetrics(registry: Registry): IdempotencyObserver {
  const replays = new Counter({ name: 'realtime_idempotent_replays_total', help: 'HTTP triggers answered again from their X-Idempotency-Key (a retry; nothing published)', labelNames: ['app_id'], registers: [registry] });
  const inFlight = new Counter({
    name: 'realtime_idempotency_in_flight_refused_total',
    help: 'HTTP triggers refused with 409 because a request with the same X-Idempotency-Key was still running',
    labelNames: ['app_id'],
    registers: [registry],
  });
  const failures = new Counter({
    name: 'realtime_idempotency_store_failures_total',
    help: 'Idempotency key store calls that failed or timed out, by operation: claim (the trigger was published without idempotency), complete, release',
    labelNames: ['operation'],
    registers: [registry],
  });
  for (const operation of idempotencyStoreOperations) failures.inc({ operation }, 0);
  return {
    replayed: (appId) => replays.inc({ app_id: appId }),
    inFlight: (appId) => inFlight.inc({ app_id: appId }),
    storeFailed: (operation) => failures.inc({ operation }),
  };
}

/** What `registerIdempotencyStoreMetrics` reads: `@org/idempotency`'s `MemoryStore` is one. */
export interface IdempotencyStoreStats {
  readonly size: number;
  /** Bytes of the keys held and their answers. */
  readonly bytes: number;
  readonly evicted: number;
}

/**
 * The memory store's keys held (`realtime_idempotency_keys`), their bytes (`realtime_idempotency_bytes`) and keys forgotten early at its bounds
 * (`realtime_idempotency_keys_evicted_total`), read on each scrape. Register it where the store
 * lives: the main thread's registry for worker threads sharing one.
 */
export function registerIdempotencyStoreMetrics(registry: Registry, stats: IdempotencyStoreStats): void {
  new Gauge({
    name: 'realtime_idempotency_keys',
    help: 'X-Idempotency-Keys held in memory (in flight or answered, within their window)',
    registers: [registry],
    collect() {
      this.set(stats.size);
    },
  });
  new Gauge({
    name: 'realtime_idempotency_bytes',
    help: 'Bytes of the X-Idempotency-Keys held in memory and their answers, as counted against idempotency.max_bytes',
    registers: [registry],
    collect() {
      this.set(stats.bytes);
    },
  });
  new Counter({
    name: 'realtime_idempotency_keys_evicted_total',
    help: 'X-Idempotency-Keys forgotten before their window ended because idempotency.max_entries or idempotency.max_bytes was reached (a retry with one is published again)',
    registers: [registry],
    collect() {
      this.reset();
      this.inc(stats.evicted);
    },
  });
}
