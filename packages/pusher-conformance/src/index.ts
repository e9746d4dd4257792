/**
 * @org/pusher-conformance: black-box cases for any Pusher Channels-compatible server. The CLI is
 * `pusher-conformance`; tests call `runConformance(options)` and read the results.
 */
export { runConformance, listCases, type ConformanceReport, type RunHooks } from './run-conformance.js';
export type { ConformanceOptions } from './options.js';
export type { CaseResult, CaseStatus } from './case.js';
export type { Summary } from './report/summary.js';
export { groupNames, featureNames, type GroupName, type FeatureName } from './groups.js';
export { ConformanceError, type ConformanceErrorCode } from './errors.js';
export { formatJunit } from './report/junit.js';
export { formatResult, formatSummary } from './report/text.js';
