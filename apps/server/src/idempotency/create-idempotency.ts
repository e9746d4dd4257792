import type { MessagePort } from 'node:worker_threads';
import { createMemoryStore, createPortStore, createRedisStore, type IdempotencyStore, type MemoryStore } from '@org/idempotency';
import type { Config } from '../config/schema.js';
import { createScalingClient, resolveRedisConnection } from '../scaling/redis-connection.js';

export interface ConfiguredIdempotency {
  store: IdempotencyStore;
  /** The memory store, when the keys live in this thread (for `realtime_idempotency_keys`). */
  memory: MemoryStore | undefined;
  /** Closes the store and the Redis client it was given. */
  close(): Promise<void>;
}

/**
 * Where `X-Idempotency-Key`s live, so that a retry is recognised wherever it lands: with `scaling`,
 * in Redis (a Cluster too) on a client of their own, under `<scaling.channel>:idem` (no hash tag:
 * the keys spread over a Cluster's slots); in a worker thread without Redis, in the main thread's
 * store over `port` (`idempotencyHost` made it); else in this thread's memory. Undefined when
 * `idempotency.enabled` is false.
 */
export function createIdempotency(config: Config, options: { port?: MessagePort | undefined } = {}): ConfiguredIdempotency | undefined {
  const settings = config.idempotency;
  if (!settings.enabled) return undefined;
  const { windowMs, inFlightMs } = storeTimes(config);
  const timeoutMs = settings.store_timeout_ms;
  if (config.scaling.enabled) {
    const client = createScalingClient(resolveRedisConnection(config.scaling.server, config.redis));
    client.on('error', () => {}); // counted as store failures; the scaler logs the outage
    client.connect().catch(() => {}); // now, so the first trigger does not wait for it
    const store = createRedisStore({ client, windowMs, inFlightMs, timeoutMs, keyPrefix: `${config.scaling.channel}:idem` });
    return {
      store,
      memory: undefined,
      async close() {
        await store.close();
        client.disconnect();
      },
    };
  }
  if (options.port) {
    const store = createPortStore(options.port, { timeoutMs });
    return { store, memory: undefined, close: () => store.close() };
  }
  const memory = memoryStore(config);
  return { store: memory, memory, close: () => memory.close() };
}

/** The memory store of `idempotency`: a lone daemon's, or the one the main thread shares with its workers. */
export function memoryStore(config: Config): MemoryStore {
  const { max_entries: maxKeys, max_bytes: maxBytes } = config.idempotency;
  return createMemoryStore({ ...storeTimes(config), maxKeys, maxBytes });
}

/** The config's seconds as the stores' milliseconds. */
function storeTimes({ idempotency }: Config): { windowMs: number; inFlightMs: number } {
  return { windowMs: idempotency.window_seconds * 1000, inFlightMs: idempotency.in_flight_seconds * 1000 };
}
