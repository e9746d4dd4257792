import { describe, expect, it } from 'vitest';
import { resolveChatConfig, type RetryPolicy } from './config.js';
import { backoffDelay, classifyFailure, isRetryableFailure, serverRetryDelay } from './retry-policy.js';

const NOW = Date.UTC(2025, 0, 15, 10, 30, 0);
const policy = resolveChatConfig('chat', { webhook: 'https://x.example/hooks/a/b', retry: { jitter: false } }, {}).retry as RetryPolicy;

describe('serverRetryDelay', () => {
  it('reads Retry-After as seconds or as an HTTP date', () => {
    expect(serverRetryDelay({ 'retry-after': '7' }, '', NOW)).toBe(7);
    expect(serverRetryDelay({ 'retry-after': new Date(NOW + 4000).toUTCString() }, '', NOW)).toBe(4);
  });

  it("reads Rocket.Chat's X-RateLimit-Reset as epoch milliseconds, and epoch seconds too", () => {
    expect(serverRetryDelay({ 'x-ratelimit-reset': String(NOW + 2500) }, '', NOW)).toBe(2.5);
    expect(serverRetryDelay({ 'x-ratelimit-reset': String(NOW / 1000 + 3) }, '', NOW)).toBe(3);
    expect(serverRetryDelay({ 'x-ratelimit-reset': String(NOW - 5000) }, '', NOW)).toBe(0);
  });

  it('prefers Retry-After over X-RateLimit-Reset', () => {
    expect(serverRetryDelay({ 'retry-after': '1', 'x-ratelimit-reset': String(NOW + 9000) }, '', NOW)).toBe(1);
  });

  it('falls back to the "wait N seconds" text of the 429 body, then to nothing', () => {
    const body = '{"success":false,"error":"Error, too many requests. Please slow down. You must wait 12 seconds before trying this endpoint again. [error-too-many-requests]"}';
    expect(serverRetryDelay({}, body, NOW)).toBe(12);
    expect(serverRetryDelay({}, '{}', NOW)).toBeUndefined();
  });
});

describe('backoffDelay', () => {
  it('grows by the factor from min_delay and stops at max_delay', () => {
    expect([1, 2, 3, 4].map((n) => backoffDelay(policy, n))).toEqual([0.5, 1, 2, 4]);
    expect(backoffDelay(policy, 20)).toBe(30);
  });

  it('jitters between half and the full delay', () => {
    const jittered = { ...policy, jitter: true };
    expect(backoffDelay(jittered, 3, () => 0)).toBe(1);
    expect(backoffDelay(jittered, 3, () => 1)).toBe(2);
  });
});

describe('classifyFailure', () => {
  it('tells timeouts, connection errors and TLS failures apart, looking through causes', () => {
    expect(classifyFailure(Object.assign(new Error('x'), { code: 'UND_ERR_HEADERS_TIMEOUT' }))).toBe('timeout');
    expect(classifyFailure(Object.assign(new Error('x'), { code: 'UND_ERR_CONNECT_TIMEOUT' }))).toBe('connection');
    expect(classifyFailure(new Error('fetch failed', { cause: Object.assign(new Error('x'), { code: 'ECONNREFUSED' }) }))).toBe('connection');
    expect(classifyFailure(Object.assign(new Error('x'), { code: 'DEPTH_ZERO_SELF_SIGNED_CERT' }))).toBe('tls');
    expect(classifyFailure(new Error('boom'))).toBe('other');
  });

  it('retries connection errors but not timeouts unless opted in', () => {
    expect(isRetryableFailure('connection', policy)).toBe(true);
    expect(isRetryableFailure('timeout', policy)).toBe(false);
    expect(isRetryableFailure('timeout', { ...policy, on_timeout: true })).toBe(true);
    expect(isRetryableFailure('tls', policy)).toBe(false);
  });
});
