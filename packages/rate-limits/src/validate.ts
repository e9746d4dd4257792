import type { z } from 'zod';
import { RateLimitsError } from './errors.js';

/** The error for a bad option, its message naming the key. */
export function invalidOption(key: string, problem: string): RateLimitsError {
  return new RateLimitsError('INVALID_OPTION', `@org/rate-limits: invalid option ${key}: ${problem}`);
}

/** `schema`'s output for `value`, or an `invalidOption` error naming the first bad key (under `root`). */
export function parseOption<T extends z.ZodType>(schema: T, value: unknown, root: string): z.output<T> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const key = [root, ...(issue?.path ?? [])].filter((part) => part !== '').map(String).join('.');
  throw invalidOption(key || 'options', issue?.message ?? 'invalid');
}
