import { isDeepStrictEqual, inspect } from 'node:util';
import { ConformanceError } from './errors.js';

/**
 * The assertions cases use. Each failure is a `CHECK_FAILED` error whose message names what was
 * checked, what was expected and what the server did, so a report line is enough to act on.
 */

function show(value: unknown): string {
  return inspect(value, { depth: 6, breakLength: Infinity, maxStringLength: 200, maxArrayLength: 20 });
}

export function fail(message: string): never {
  throw new ConformanceError('CHECK_FAILED', message);
}

export function check(condition: unknown, message: string): asserts condition {
  if (!condition) fail(message);
}

export function checkEqual<T>(actual: unknown, expected: T, what: string): asserts actual is T {
  if (!isDeepStrictEqual(actual, expected)) fail(`${what}: expected ${show(expected)}, got ${show(actual)}`);
}

export function checkOneOf<T>(actual: unknown, allowed: readonly T[], what: string): asserts actual is T {
  if (!allowed.some((value) => isDeepStrictEqual(actual, value))) fail(`${what}: expected one of ${show(allowed)}, got ${show(actual)}`);
}
