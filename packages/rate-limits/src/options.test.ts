import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { rateLimitCounters } from './allowances.js';
import { createRateLimits } from './create-rate-limits.js';
import { RateLimitsError } from './errors.js';
import type { RateLimitsOptions } from './options.js';

const build = (options: unknown) => () => createRateLimits(options as RateLimitsOptions<string>);

describe('rate limit options', () => {
  it.each([
    [undefined, 'invalid option options: must be an object with allowances'],
    [{}, 'invalid option allowances: must be an object with default allowances'],
    [{ allowances: { default: {} } }, 'invalid option allowances.default: must name at least one kind'],
    [{ allowances: { default: { read: 0 } } }, 'invalid option allowances.default.read: must be at least 1 point per second'],
    [{ allowances: { default: { read: 1.5 } } }, 'invalid option allowances.default.read: must be a whole number of points per second'],
    [{ allowances: { default: { read: '5' } } }, 'invalid option allowances.default.read: must be a number of points per second'],
    [{ allowances: { default: { read: 5 }, keys: { app: { reed: 5 } } } }, 'invalid option allowances.keys.app.reed: is not a kind of allowances.default (read)'],
    [{ allowances: { default: { read: 5 }, keys: { app: { read: -1 } } } }, 'invalid option allowances.keys.app.read: must be at least 1 point per second'],
    [{ allowances: { default: { read: 5 } }, counters: new ArrayBuffer(16) }, 'invalid option counters: must be a SharedArrayBuffer from rateLimitCounters(allowances)'],
    [{ allowances: { default: { read: 5 } }, redis: {} }, 'invalid option redis.client: must be an ioredis client'],
    [{ allowances: { default: { read: 5 } }, logger: console.log }, 'invalid option logger: must have info and warn functions'],
    [{ allowances: { default: { read: 5 } }, onRefused: 'metrics' }, 'invalid option onRefused: must be a function'],
  ])('refuses %j naming the key', (options, message) => {
    expect(build(options)).toThrow(RateLimitsError);
    expect(build(options)).toThrow(`@org/rate-limits: ${message}`);
  });

  it('refuses Redis timeouts outside their range, naming them', () => {
    const client = new Redis({ lazyConnect: true });
    const redis = (extra: object) => build({ allowances: { default: { read: 5 } }, redis: { client, ...extra } });
    expect(redis({ answerTimeoutMs: 0 })).toThrow('invalid option redis.answerTimeoutMs: must be at least 1 ms');
    expect(redis({ startupWaitMs: 60_001 })).toThrow('invalid option redis.startupWaitMs: must be at most 60000 ms');
    expect(redis({ keyPrefix: '' })).toThrow('invalid option redis.keyPrefix: must be a non-empty string');
    client.disconnect();
  });

  it('refuses shared counters made for other allowances, with a code', () => {
    const counters = rateLimitCounters({ default: { read: 5 } });
    let error: unknown;
    try {
      createRateLimits({ allowances: { default: { read: 5 }, keys: { app: { read: 1 } } }, counters });
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(RangeError);
    expect(error).toMatchObject({ code: 'INVALID_OPTION', message: '@org/rate-limits: invalid option counters: the shared buffer holds 8 bytes, 16 expected for these allowances (make it with rateLimitCounters of the same allowances)' });
  });

  it('checks the allowances rateLimitCounters sizes its buffer for', () => {
    expect(() => rateLimitCounters({ default: { read: -5 } })).toThrow('@org/rate-limits: invalid option allowances.default.read: must be at least 1 point per second');
    expect(rateLimitCounters({ default: { read: 5, write: 1 }, keys: { a: {}, b: { read: 2 } } }).byteLength).toBe(3 * 2 * 8);
  });
});
