import type { z } from 'zod';
import { MetricsError } from './errors.js';

/** `schema`'s output for `value`, or a `MetricsError('INVALID_OPTION')` naming the first bad key. */
export function parseOptions<T extends z.ZodType>(schema: T, value: unknown, where: string): z.output<T> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const key = (issue?.path ?? []).map(String).join('.');
  if (key === '') throw new MetricsError('INVALID_OPTION', `@org/metrics: ${where}: options must be an object`);
  throw new MetricsError('INVALID_OPTION', `@org/metrics: ${where}: invalid option ${key}: ${issue?.message ?? 'invalid'}`);
}

export const isFunction = (value: unknown): boolean => typeof value === 'function';
