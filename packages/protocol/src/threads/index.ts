/**
 * `@org/protocol/threads`: the in-process scaler for worker threads. The main thread runs one
 * `createScalerHub()` (the cluster's state and bus); each worker runs `createPortScaler(port)` on a
 * `MessagePort` whose other end the hub serves. It passes the same conformance suite as a Redis
 * scaler, with no Redis.
 */
export { createScalerHub, type HubPort, type ScalerHub, type ScalerHubStats } from './scaler-hub.js';
export { createPortScaler, type PortScalerOptions, type PortScalerStats, type ScalerPort } from './port-scaler.js';
export { ScalerHubError, type ScalerHubErrorCode } from './wire.js';
