export { createPusherApi, type PusherApiEnv } from './create-pusher-api.js';
export { createPusherApiHandler, type PusherApiHandler } from './create-pusher-api-handler.js';
export type { PlainRequest, PlainResponse } from './plain-http.js';
export { PusherApiError, errorStatus, type PusherApiErrorCode } from './errors.js';
export type { ErrorBody } from './error-response.js';
export type { PusherApiOptions, RateLimitDecision, RateLimitKind } from './options.js';
export type { ResponseInfo } from './response-event.js';
export { MAX_IDEMPOTENCY_KEY_LENGTH, type IdempotencyClaim, type IdempotencyOption, type IdempotentAnswer } from './idempotency.js';
// For routes a host answers in front of the API (health, metrics), read and answered as the API does.
export { routedPath } from './request-target.js';
export { errorAnswer } from './error-response.js';
export { preflightAnswer, withCorsHeaders } from './cors.js';
