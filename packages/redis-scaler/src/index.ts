export { createRedisScaler, type RedisScaler, type RedisScalerStats } from './redis-scaler.js';
export { publishClusterMessage } from './publish-cluster-message.js';
export { reconnectBackoff } from './reconnect-backoff.js';
export { RedisScalerError, type RedisScalerErrorCode } from './errors.js';
export type { RedisScalerOptions, ScalerLogger } from './options.js';
