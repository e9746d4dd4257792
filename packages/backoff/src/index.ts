export { exponentialBackoff, BackoffError, type Backoff, type BackoffErrorCode } from './backoff.js';
