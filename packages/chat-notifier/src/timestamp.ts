import { describe } from './colors.js';
import { InvalidChatPayload } from './errors.js';

/** Above this, a "seconds" value is really milliseconds (year 5138 in seconds). */
const SECONDS_CEILING = 1e11;

/**
 * Unix seconds, a Date or an ISO string → ISO-8601. Numbers are read as
 * seconds (the PHP originals' unit); millisecond-sized numbers are refused
 * rather than silently landing thousands of years in the future.
 */
export function toIsoTimestamp(value: unknown, field = 'ts'): string {
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) throw new InvalidChatPayload(field, 'expected a valid Date, got an invalid Date');
    return value.toISOString();
  }
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || value < 0) {
      throw new InvalidChatPayload(field, `expected Unix seconds (a finite number ≥ 0) or a Date, got ${describe(value)}`);
    }
    if (value >= SECONDS_CEILING) {
      throw new InvalidChatPayload(
        field,
        `expected Unix seconds, got ${value}, which looks like milliseconds; pass new Date(${value}) instead`,
      );
    }
    return new Date(value * 1000).toISOString();
  }
  if (typeof value === 'string' && value.length > 0 && !Number.isNaN(Date.parse(value))) {
    return new Date(value).toISOString();
  }
  throw new InvalidChatPayload(field, `expected Unix seconds, a Date or an ISO-8601 string, got ${describe(value)}`);
}
