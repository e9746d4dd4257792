export { createPusherApi, type PusherApiEnv } from './create-pusher-api.js';
export { PusherApiError, errorStatus, type PusherApiErrorCode } from './errors.js';
export type { ErrorBody } from './error-response.js';
export type { PusherApiOptions, RateLimitDecision, RateLimitKind, ResponseInfo } from './options.js';
export { createPusherApiHandler, type PlainRequest, type PlainResponse, type PusherApiHandler } from './create-pusher-api-handler.js';
