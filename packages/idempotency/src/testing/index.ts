export { runIdempotencyStoreConformance, type StoreConformanceOptions } from './store-conformance.js';
export type { Expect, Matchers, TestRunner } from './test-runner.js';
