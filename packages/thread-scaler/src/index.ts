/**
 * `@org/thread-scaler`: the in-process scaler for worker threads. The main thread runs one
 * `createScalerHub()` (the cluster's state and bus); each worker runs `createPortScaler(port)` on a
 * `MessagePort` whose other end the hub serves. It passes the same conformance suites as the
 * Redis scaler, with no Redis.
 */
export { createScalerHub, type ScalerHub } from './scaler-hub.js';
export type { HubPort } from './hub-node.js';
export type { ScalerHubStats } from './hub-stats.js';
export { createPortScaler, type PortScalerOptions, type PortScalerStats, type ScalerPort } from './port-scaler.js';
export { ScalerHubError, type ScalerHubErrorCode } from './errors.js';
