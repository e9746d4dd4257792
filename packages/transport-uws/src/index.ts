export { createUwsServer, type TlsOptions, type UwsServer, type UwsServerOptions } from './uws-server.js';
export { createHttpBridge, type FetchHandler, type HttpBridgeOptions, type PlainHttpHandler, type PlainHttpRequest, type PlainHttpResponse } from './http-bridge.js';
export { createWebSocketBehavior, type WebSocketBehaviorOptions } from './websocket-behavior.js';
export { isNativeUws, loadUws, UwsFallbackError, type LoadUwsOptions, type UwsModule } from './load-uws.js';
export { DISCARD_ALLOWANCE, FRAME_TOO_LARGE_CLOSE_CODE, type TransportRefusal, type TransportRefusalHandler } from './limits.js';
export { UwsOptionError } from './options.js';
export { createRateLimitedReporter, type RateLimitedReporterOptions, type TransportCallback, type TransportErrorHandler } from './transport-errors.js';
export type { SocketUserData } from './user-data.js';
