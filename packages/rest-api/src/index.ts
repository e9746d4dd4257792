export { createPusherApi, type PusherApiEnv } from './create-pusher-api.js';
export { createPusherApiHandler, type PusherApiHandler } from './create-pusher-api-handler.js';
export type { PlainRequest, PlainResponse } from './plain-http.js';
export { PusherApiError, errorStatus, type PusherApiErrorCode } from './errors.js';
export type { ErrorBody } from './error-response.js';
export type { PusherApiOptions, RateLimitDecision, RateLimitKind, ResponseInfo } from './options.js';
