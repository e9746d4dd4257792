export type { Claim, ClaimToken, IdempotencyStore, IdempotentAnswer } from './store.js';
export { createMemoryStore, type MemoryStore } from './memory-store.js';
export { createRedisStore } from './redis-store.js';
export { createIdempotencyHost, type IdempotencyHost } from './thread-host.js';
export { createPortStore } from './port-store.js';
export { idempotencyDefaults, MAX_BYTES, MAX_KEYS, MAX_TIMEOUT_MS, MAX_WINDOW_MS, MIN_BYTES, type MemoryStoreOptions, type PortStoreOptions, type RedisStoreOptions } from './options.js';
export { IdempotencyError, type IdempotencyErrorCode } from './errors.js';
