import { isSecretKey, ruleKeyOf } from './config/safe-config-errors.js';

/** What a secret field of a log line is written as: pino's censor too. */
export const logCensor = '[redacted]';

/** Nesting walked; deeper values are written as they are (log fields are shallow). */
const maxDepth = 8;

/**
 * A log line's fields with every value under a secret key replaced, judged by
 * the one key rule `config print` and configuration errors use
 * (@org/secret-masking's `isSecretKey`, every value under `headers` too): so a
 * `passphrase` or an `api_key` is never written. pino's own redaction takes
 * fixed paths (`*.password`), which cannot say "a name ending in `_key`"; this
 * runs as its `formatters.log` hook instead.
 *
 * Copy on write: a line holding no secret key is returned as it is, nothing
 * allocated. Only plain objects and arrays are walked; errors and other
 * instances are left to their serializers and pino's paths.
 */
export function redactSecretFields(fields: Record<string, unknown>): Record<string, unknown> {
  return redactIn(fields, '', 0) as Record<string, unknown>;
}

function redactIn(value: unknown, key: string, depth: number): unknown {
  if (depth > maxDepth || !isPlain(value)) return value;
  let copy: Record<string, unknown> | undefined;
  const isArray = Array.isArray(value);
  // for…in, not Object.entries: no array of pairs made for every line.
  for (const child in value) {
    if (!Object.hasOwn(value, child)) continue;
    const item = value[child];
    // An array's items are judged by the array's key, as the configuration's secrets are found.
    const childKey = isArray ? key : ruleKeyOf(key, child);
    const redacted = item !== undefined && isSecretKey(childKey) ? logCensor : redactIn(item, childKey, depth + 1);
    if (redacted === item) continue;
    copy ??= (isArray ? [...value] : { ...value }) as Record<string, unknown>;
    copy[child] = redacted;
  }
  return copy ?? value;
}

function isPlain(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return Array.isArray(value) || prototype === Object.prototype || prototype === null;
}
