import type { z } from 'zod';
import { NotificationsError } from './errors.js';

/** Validates factory options once, with a message that names the key and what it expects. */
export function parseOptions<S extends z.ZodType>(schema: S, value: unknown, factory: string): z.output<S> {
  const result = schema.safeParse(value ?? {});
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const key = issue?.path.length ? issue.path.join('.') : '(options)';
  throw new NotificationsError('INVALID_OPTION', `${factory}: option "${key}" ${issue?.message ?? 'is invalid'}`);
}
