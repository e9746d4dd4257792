export { exponentialBackoff, BackoffError, type Backoff, type BackoffErrorCode, type JitterRange } from './backoff.js';
