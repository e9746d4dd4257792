export { MemorySocket, MemoryTransport, settle } from './memory-transport.js';
export { runScalerConformance, type ScalerConformanceOptions } from './scaler-conformance.js';
export { createMemoryCluster } from './memory-cluster.js';
export { runEngineModelConformance, type EngineModelOptions } from './engine-model.js';
export { runWatchlistModelConformance, type WatchlistModelAction, type WatchlistModelOptions } from './watchlist-model.js';
export { runRoutingConformance, type RoutingConformanceOptions } from './routing-conformance.js';
export type { Describe, Expect, Matchers, PollMatchers, TestRunner } from './test-runner.js';
export { runSubscriptionCountModel, type SubscriptionCountModelOptions } from './subscription-count-model.js';
