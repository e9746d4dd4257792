export { createRedisScaler, type RedisScaler } from './redis-scaler.js';
export { RedisScalerError, type RedisScalerErrorCode } from './errors.js';
export type { RedisScalerOptions, RemovedMember, ScalerLogger, VacatedChannel } from './options.js';
