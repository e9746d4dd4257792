import { createIdempotencyHost, type IdempotencyHost, type MemoryStore } from '@org/idempotency';
import type { Config } from '../config/schema.js';
import { memoryStore } from './create-idempotency.js';

export interface IdempotencyHostOfPool {
  host: IdempotencyHost;
  /** The one store of the process, for `realtime_idempotency_keys` in the main thread's metrics. */
  memory: MemoryStore;
  close(): Promise<void>;
}

/**
 * The main thread's idempotency key store for `--workers N` without Redis: one memory store that
 * each worker reaches over a port of its own. Undefined with `scaling` (each worker then uses
 * Redis) or with `idempotency.enabled` false.
 */
export function idempotencyHost(config: Config): IdempotencyHostOfPool | undefined {
  if (config.scaling.enabled || !config.idempotency.enabled) return undefined;
  const memory = memoryStore(config);
  const host = createIdempotencyHost(memory);
  return {
    host,
    memory,
    async close() {
      host.close();
      await memory.close();
    },
  };
}
