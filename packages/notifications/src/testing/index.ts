export { runStoreConformance } from './store-conformance.js';
export type { Expect, It, Matchers, TestRunner } from './test-runner.js';
