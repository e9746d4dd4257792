import { accessSync, constants, statSync } from 'node:fs';
import { z } from 'zod';
import { describe } from './colors.js';
import { InvalidChatConfig } from './errors.js';
import { maskUrl, maskUrlsIn, REDACTED, Redactor, userinfoSecrets } from './redact.js';
import { isAbsoluteHttpUrl } from './url.js';

/** `chat`, or `chat-` followed by a suffix such as `alerts`. */
export const INSTANCE_NAME = /^chat(?:-[a-z0-9][a-z0-9_-]*)?$/i;

const WEBHOOK = /^https?:\/\/[^/?#]+\/hooks\/[^/?#]+\/[^?#]+$/i;
/** RFC 9110 `token`: what undici accepts as a header name. */
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9a-z]+$/i;
/** A field value as undici checks it (HTAB, SP, VCHAR, obs-text 0x80–0xFF); anything else makes every send fail. */
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;
// Computed per request (letting callers set them breaks framing or JSON), or refused by undici on every request.
const RESERVED_HEADERS = new Set(['host', 'content-length', 'content-type', 'transfer-encoding', 'connection', 'keep-alive', 'upgrade', 'expect']);
const WEBHOOK_USERINFO = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*@/i;

const seconds = (key: string, max: number) =>
  z
    .number({ error: `${key}: expected a number of seconds between 0 (exclusive) and ${max}` })
    .gt(0, { error: `${key}: expected a number of seconds between 0 (exclusive) and ${max}` })
    .max(max, { error: `${key}: expected a number of seconds ≤ ${max} (seconds, not milliseconds)` });

const retrySchema = z
  .object({
    retries: z
      .number({ error: 'retry.retries: expected an integer from 0 to 10' })
      .int({ error: 'retry.retries: expected an integer from 0 to 10' })
      .min(0, { error: 'retry.retries: expected an integer from 0 to 10' })
      .max(10, { error: 'retry.retries: expected an integer from 0 to 10' })
      .default(3),
    min_delay: seconds('retry.min_delay', 60).default(0.5),
    max_delay: seconds('retry.max_delay', 600).default(30),
    factor: z
      .number({ error: 'retry.factor: expected a number from 1 to 10' })
      .min(1, { error: 'retry.factor: expected a number from 1 to 10' })
      .max(10, { error: 'retry.factor: expected a number from 1 to 10' })
      .default(2),
    max_elapsed: seconds('retry.max_elapsed', 3600).default(60),
    statuses: z
      .array(
        z
          .number({ error: 'retry.statuses: expected HTTP status codes from 400 to 599' })
          .int({ error: 'retry.statuses: expected HTTP status codes from 400 to 599' })
          .min(400, { error: 'retry.statuses: expected HTTP status codes from 400 to 599' })
          .max(599, { error: 'retry.statuses: expected HTTP status codes from 400 to 599' }),
        { error: 'retry.statuses: expected an array of HTTP status codes' },
      )
      .default([429, 502, 503, 504]),
    on_timeout: z.boolean({ error: 'retry.on_timeout: expected true or false' }).default(false),
    on_connection_error: z.boolean({ error: 'retry.on_connection_error: expected true or false' }).default(true),
    jitter: z.boolean({ error: 'retry.jitter: expected true or false' }).default(true),
  })
  .strict();

const configSchema = z
  .object({
    webhook: z
      .string({ error: 'webhook: expected a URL like "https://chat.example.com/hooks/<id>/<token>"' })
      .regex(WEBHOOK, { error: 'webhook: expected a URL like "https://chat.example.com/hooks/<id>/<token>"' })
      .refine(isAbsoluteHttpUrl, { error: 'webhook: expected an absolute http(s) URL' })
      // undici drops URL credentials without a word: refuse them rather than send unauthenticated.
      .refine((url) => !WEBHOOK_USERINFO.test(url), {
        error: 'webhook: must not contain "user:password@" (undici would not send it), so put credentials in the headers option, e.g. headers: { authorization: "Basic …" }',
      }),
    channel: z
      .string({ error: 'channel: expected the default destination, e.g. "#general" or "@user"' })
      .min(1, { error: 'channel: expected the default destination, e.g. "#general" or "@user"' })
      .optional(),
    override_channel: z.boolean({ error: 'override_channel: expected true or false' }).default(true),
    timeout: seconds('timeout', 600).default(30),
    connect_timeout: seconds('connect_timeout', 600).default(10),
    verify: z
      .union([z.boolean(), z.string().min(1, { error: 'verify: expected true, false, or the path of a PEM CA bundle' })], {
        error: 'verify: expected true, false, or the path of a PEM CA bundle',
      })
      .default(true),
    http_errors: z.boolean({ error: 'http_errors: expected true or false' }).default(true),
    proxy: z
      .string({ error: 'proxy: expected an http(s) proxy URL like "http://127.0.0.1:3128"' })
      .refine(isAbsoluteHttpUrl, { error: 'proxy: expected an http(s) proxy URL like "http://127.0.0.1:3128"' })
      .superRefine((url, ctx) => {
        const problem = proxyProblem(url);
        if (problem) ctx.addIssue({ code: 'custom', message: `proxy: ${problem}` });
      })
      .nullable()
      .optional(),
    headers: z
      .record(z.string(), z.string({ error: 'headers: expected string header values' }), {
        error: 'headers: expected an object of header name → string value',
      })
      .superRefine((headers, ctx) => {
        for (const [name, value] of Object.entries(headers)) {
          // The key is named, never its value (it may be a credential).
          const shown = HEADER_NAME.test(name) ? `"${name}"` : describe(name);
          if (/[\r\n\0]/.test(value)) ctx.addIssue({ code: 'custom', message: `headers: ${shown} must not contain line breaks or NUL` });
          else if (!HEADER_VALUE.test(value)) {
            ctx.addIssue({
              code: 'custom',
              message: `headers: ${shown} has a character not allowed in a header value (only tab, space, visible ASCII and \\x80–\\xFF, so encode other text)`,
            });
          }
          if (!HEADER_NAME.test(name)) ctx.addIssue({ code: 'custom', message: `headers: ${shown} is not a valid header name` });
          else if (RESERVED_HEADERS.has(name.toLowerCase())) {
            ctx.addIssue({ code: 'custom', message: `headers: "${name}" is set by the notifier and cannot be overridden` });
          }
        }
      })
      .default({}),
    retry: z
      .union([z.literal(false), retrySchema], { error: 'retry: expected false or a retry policy object' })
      .default(() => retrySchema.parse({})),
    max_payload_bytes: z
      .number({ error: 'max_payload_bytes: expected an integer from 1 to 16777216' })
      .int({ error: 'max_payload_bytes: expected an integer from 1 to 16777216' })
      .min(1, { error: 'max_payload_bytes: expected an integer from 1 to 16777216' })
      .max(16 * 1024 * 1024, { error: 'max_payload_bytes: expected an integer from 1 to 16777216' })
      .default(1024 * 1024),
  })
  .strict();

/** Per-instance options as users write them (snake_case, times in seconds, like the PHP originals). */
export type ChatInstanceConfig = z.input<typeof configSchema>;
/** Options after validation, with every default filled in. */
export type ResolvedChatConfig = z.output<typeof configSchema>;
export type RetryPolicy = z.output<typeof retrySchema>;
export type RetryPolicyInput = z.input<typeof retrySchema>;

/** Environment variable read for an instance's webhook: `chat-alerts` → `CHAT_ALERTS_WEBHOOK`. */
export function webhookEnvName(instance: string): string {
  return `${instance.toUpperCase().replace(/[^A-Z0-9]/g, '_')}_WEBHOOK`;
}

export function assertInstanceName(name: unknown): asserts name is string {
  if (typeof name !== 'string' || !INSTANCE_NAME.test(name)) {
    throw new InvalidChatConfig(
      `Invalid chat instance name ${describe(name)}: expected "chat" or "chat-<suffix>" (letters, digits, "-", "_")`,
    );
  }
}

/**
 * Validates one instance's options once, at the edge. A missing `webhook` is
 * read from the environment (`CHAT_WEBHOOK`, `CHAT_ALERTS_WEBHOOK`, …).
 */
export function resolveChatConfig(
  instance: string,
  input: unknown,
  env: Readonly<Record<string, string | undefined>> = process.env,
): ResolvedChatConfig {
  if (input !== undefined && (typeof input !== 'object' || input === null || Array.isArray(input))) {
    // A string here is most likely the webhook URL itself: never echoed, whatever its characters.
    const got = typeof input === 'string' ? 'a string (to give only the webhook, pass { webhook: "<url>" })' : describeMasked(input);
    throw new InvalidChatConfig(`Invalid config for chat instance "${instance}": expected an object, got ${got}`);
  }
  const raw = { ...(input as Record<string, unknown> | undefined) };
  const envName = webhookEnvName(instance);
  if (raw.webhook === undefined && env[envName]) raw.webhook = env[envName];
  if (raw.webhook === undefined) {
    throw new InvalidChatConfig(
      `Invalid config for chat instance "${instance}": webhook is required (set it in the config or in the ${envName} environment variable)`,
    );
  }
  const result = configSchema.safeParse(raw);
  if (result.success) {
    if (typeof result.data.verify === 'string') assertReadableFile(instance, result.data.verify);
    return withSafeViews(result.data);
  }
  // The secrets this config holds, scrubbed from whatever is echoed (a value may repeat them).
  const proxy = userinfoSecrets(raw.proxy);
  const redactor = Redactor.forWebhook(typeof raw.webhook === 'string' ? raw.webhook : undefined, proxy.secrets, proxy.maskOnly);
  const problems = result.error.issues.map((issue) => {
    const key = issue.path.map(String).join('.');
    // Unknown keys and nested messages carry no key name of their own.
    if (issue.code === 'unrecognized_keys') {
      return `${key ? `${key}: ` : ''}unknown option(s) ${issue.keys.map(quotedKey).join(', ')}`;
    }
    // The webhook carries the token and header values often carry credentials:
    // never echo them. Anything else is echoed with URLs masked (a proxy's password).
    const secretish = key === 'webhook' || key === 'headers' || key.startsWith('headers.');
    const got = secretish ? '' : ` (got ${redactor.text(describeMasked(valueAt(raw, issue.path), redactor))})`;
    // A message from inside a nested schema (a union's branch) may not say which key it is about.
    const named = key === '' || issue.message.startsWith(`${key}:`) || issue.message.startsWith(`${issue.path[0]?.toString()}:`) ? issue.message : `${key}: ${issue.message}`;
    return `${named}${got}`;
  });
  const shown = problems.map((problem) => redactor.secrets(problem));
  throw new InvalidChatConfig(redactor.secrets(`Invalid config for chat instance "${instance}": ${shown.join('; ')}`), shown);
}

/** An unknown key as JSON (quotes, control characters and separators stay readable and unambiguous), cut at 64 characters. */
function quotedKey(key: string): string {
  return JSON.stringify(key.length > 64 ? `${key.slice(0, 64)}…` : key);
}

/**
 * What undici would stumble over in a proxy URL that parses: it decodes the
 * credentials with decodeURIComponent (a stray "%" throws a raw URIError when
 * the transport is built), sends them only when both parts are there, and
 * ignores any path or query. Undefined when the URL is usable as it is.
 */
function proxyProblem(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined; // already reported by the isAbsoluteHttpUrl check (zod runs both)
  }
  if (parsed.username !== '' || parsed.password !== '' || /^[a-z]+:\/\/[^/?#]*@/i.test(url)) {
    if (parsed.username === '' || parsed.password === '') {
      return 'credentials need both a user and a password ("http://user:password@host:port"), as with either part empty none would be sent';
    }
    for (const part of [parsed.username, parsed.password]) {
      try {
        decodeURIComponent(part);
      } catch {
        return 'the credentials hold a "%" that is not a percent-escape (write "%" as "%25")';
      }
    }
  }
  if ((parsed.pathname !== '/' && parsed.pathname !== '') || parsed.search !== '' || parsed.hash !== '') {
    return 'expected only scheme, credentials, host and port ("http://user:password@host:port"), without a path or query';
  }
  return undefined;
}

/** A CA bundle path that cannot be read fails here, with the rest of the config, not at the first send. */
function assertReadableFile(instance: string, path: string): void {
  try {
    accessSync(path, constants.R_OK);
    if (!statSync(path).isFile()) throw new Error('not a file');
  } catch (error) {
    throw new InvalidChatConfig(
      // The error's code, not its message: Node's message quotes the path, unmasked.
      `Invalid config for chat instance "${instance}": verify: cannot read CA bundle ${describeMasked(path)} (${(error as NodeJS.ErrnoException).code ?? 'not a file'})`,
    );
  }
}

/**
 * describe(), with any URL in a string masked and, given a redactor, its secrets cut out first:
 * describe() truncates, and a secret cut in half by it would no longer be found.
 */
function describeMasked(value: unknown, redactor?: Redactor): string {
  if (typeof value !== 'string') return describe(value);
  const masked = maskUrlsIn(value);
  return describe(redactor ? redactor.text(masked) : masked);
}

const INSPECT = Symbol.for('nodejs.util.inspect.custom');

/**
 * The resolved config keeps its real values (transports need them), but
 * `util.inspect` and `JSON.stringify` show the webhook and proxy masked and
 * header values as "[redacted]", so logging a config cannot leak a secret.
 */
function withSafeViews(config: ResolvedChatConfig): ResolvedChatConfig {
  const view = () => safeConfigView(config);
  Object.defineProperty(config, 'toJSON', { value: view, enumerable: false });
  Object.defineProperty(config, INSPECT, { value: view, enumerable: false });
  return config;
}

function safeConfigView(config: ResolvedChatConfig): Record<string, unknown> {
  return {
    ...config,
    webhook: maskUrl(config.webhook),
    ...(config.proxy ? { proxy: maskUrl(config.proxy) } : {}),
    headers: Object.fromEntries(Object.keys(config.headers).map((name) => [name, REDACTED])),
  };
}

function valueAt(object: unknown, path: readonly PropertyKey[]): unknown {
  let current = object;
  for (const key of path) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}
