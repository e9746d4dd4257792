export { MemorySocket, MemoryTransport, settle } from './memory-transport.js';
export { runScalerConformance, type ScalerConformanceOptions } from './scaler-conformance.js';
