export { createRateLimits, type RateLimits } from './create-rate-limits.js';
export { rateLimitCounters, type Allowances } from './allowances.js';
export type { RateLimitDecision, RateLimitRefusal } from './decision.js';
export type { RateLimitsLogger, RateLimitsOptions, RedisStoreOptions } from './options.js';
export { RateLimitsError, type RateLimitsErrorCode } from './errors.js';
export { MAX_POINTS_PER_WINDOW, WindowCounters } from './window-counters.js';
