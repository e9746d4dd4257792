import { z } from 'zod';

/** Thrown by `createUwsServer` for an option it cannot use, and by `drain` for a deadline it cannot use; the message names it. */
export class UwsOptionError extends Error {
  readonly code = 'INVALID_OPTION';
  override readonly name = 'UwsOptionError';
}

/** Node.js's default `--max-http-header-size`. */
export const DEFAULT_MAX_REQUEST_HEAD_SIZE = 16 * 1024;
export const DEFAULT_MAX_REQUEST_SIZE = 10_000;
export const DEFAULT_MAX_BACKPRESSURE = 1024 * 1024;

const bytes = (key: string, min: number, max: number) =>
  z
    .number({ error: `${key} must be a number of bytes` })
    .int({ error: `${key} must be an integer number of bytes` })
    .min(min, { error: `${key} must be at least ${min} byte${min === 1 ? '' : 's'}` })
    .max(max, { error: `${key} must be at most ${max} bytes` })
    .optional();

const optionalFunction = (key: string) => z.custom<never>((value) => typeof value === 'function', { error: `${key} must be a function` }).optional();

// uWS keeps lengths in 32 bits and uses twice maxPayloadLength (see uwsPayloadCeiling).
const schema = z.object({
  server: z.custom<never>((value) => typeof value === 'object' && value !== null && typeof (value as { open?: unknown }).open === 'function', {
    error: 'server must be a RealtimeServer from @org/protocol',
  }),
  fetch: optionalFunction('fetch'),
  plain: optionalFunction('plain'),
  onError: optionalFunction('onError'),
  onRefused: optionalFunction('onRefused'),
  host: z.string({ error: 'host must be a string' }).min(1, { error: 'host must not be empty' }).optional(),
  port: z.number({ error: 'port must be a number' }).int({ error: 'port must be an integer' }).min(0, { error: 'port must be 0 to 65535' }).max(65_535, { error: 'port must be 0 to 65535' }).optional(),
  path: z.string({ error: 'path must be a string' }).optional(),
  maxPayloadLength: bytes('maxPayloadLength', 128, 512 * 1024 * 1024),
  maxBackpressure: bytes('maxBackpressure', 1024, 2 ** 31 - 1),
  maxRequestSize: bytes('maxRequestSize', 1, 2 ** 31 - 1),
  maxRequestHeadSize: bytes('maxRequestHeadSize', 256, 512 * 1024),
  reusePort: z.boolean({ error: 'reusePort must be a boolean' }).optional(),
  allowFallback: z.boolean({ error: 'allowFallback must be a boolean' }).optional(),
});

/** Validates what can be checked without uWS; throws `UwsOptionError` naming the first bad option. */
export function checkOptions(options: unknown): void {
  const parsed = schema.safeParse(options);
  if (parsed.success) return;
  const issue = parsed.error.issues[0];
  if (!issue || issue.path.length === 0) throw new UwsOptionError('@org/transport-uws: options must be an object');
  throw new UwsOptionError(`@org/transport-uws: invalid option ${issue.path.join('.')}: ${issue.message}`);
}
