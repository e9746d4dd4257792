import { exponentialBackoff } from '@org/backoff';
import type { RetryPolicy } from './config.js';

/** Epoch values below this are seconds; Rocket.Chat sends milliseconds. */
const MS_EPOCH_FLOOR = 1e11;
/** Values below this are a number of seconds to wait, not an epoch. */
const EPOCH_FLOOR = 1e9;

/**
 * How long (seconds) the server asked us to wait, from, in order:
 * `Retry-After` (seconds or HTTP-date), `X-RateLimit-Reset` (Rocket.Chat:
 * epoch milliseconds; epoch seconds and plain seconds also understood), or
 * Rocket.Chat's "wait N seconds" error text. Undefined when it did not say.
 */
export function serverRetryDelay(
  headers: Readonly<Record<string, string>>,
  body: string,
  now: number = Date.now(),
): number | undefined {
  const retryAfter = headers['retry-after']?.trim();
  if (retryAfter) {
    if (/^\d+(\.\d+)?$/.test(retryAfter)) return Number(retryAfter);
    const date = Date.parse(retryAfter);
    if (!Number.isNaN(date)) return Math.max(0, (date - now) / 1000);
  }
  const reset = headers['x-ratelimit-reset']?.trim();
  if (reset && /^\d+(\.\d+)?$/.test(reset)) {
    const value = Number(reset);
    if (value >= MS_EPOCH_FLOOR) return Math.max(0, (value - now) / 1000);
    if (value >= EPOCH_FLOOR) return Math.max(0, value - now / 1000);
    return value;
  }
  const wait = /wait (\d+(?:\.\d+)?) seconds?/i.exec(body);
  if (wait?.[1]) return Number(wait[1]);
  return undefined;
}

/**
 * Exponential backoff (seconds) before retry number `retry` (1-based), capped by
 * max_delay; with `jitter`, between half and the full delay: spreads out clients
 * that failed together without ever retrying sooner than min_delay / 2.
 * The arithmetic is @org/backoff's, shared with @org/webhooks.
 */
export function backoffDelay(policy: RetryPolicy, retry: number, random: () => number = Math.random): number {
  return exponentialBackoff({ initial: policy.min_delay, max: policy.max_delay, factor: policy.factor, jitter: policy.jitter }, retry, random);
}

export type FailureKind = 'timeout' | 'connection' | 'tls' | 'aborted' | 'other';

const CONNECTION_CODES = new Set([
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_SOCKET',
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'ENOTFOUND',
  'ECONNABORTED',
]);
const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

/** Sorts a transport error into what the retry policy decides on. */
export function classifyFailure(error: unknown): FailureKind {
  for (const code of errorCodes(error)) {
    if (TIMEOUT_CODES.has(code)) return 'timeout';
    if (CONNECTION_CODES.has(code)) return 'connection';
    if (/^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_)/.test(code)) return 'tls';
  }
  return 'other';
}

/** Whether a failure of this kind is retried under the policy. */
export function isRetryableFailure(kind: FailureKind, policy: RetryPolicy): boolean {
  if (kind === 'timeout') return policy.on_timeout; // the post may have landed: a duplicate is worse
  if (kind === 'connection') return policy.on_connection_error;
  return false; // TLS failures and unknown errors do not heal by retrying
}

function errorCodes(error: unknown): string[] {
  const codes: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') codes.push(code);
    current = (current as { cause?: unknown }).cause;
  }
  return codes;
}
