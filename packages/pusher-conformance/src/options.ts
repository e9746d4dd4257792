import { z } from 'zod';
import { ConformanceError } from './errors.js';
import { featureNames, groupNames } from './groups.js';

/**
 * What a run is pointed at and how it runs, validated once here. Keys are camelCase; every error
 * names the command-line flag of the key (`app.key` is `--app-key`), so the CLI and the programmatic
 * API report the same message.
 */

const port = z.number({ error: 'must be a port number' }).int('must be an integer').min(1, 'must be 1-65535').max(65_535, 'must be 1-65535');
const seconds = z.number({ error: 'must be a number of seconds' }).positive('must be more than 0 seconds');

const credentials = z.strictObject({
  id: z.string({ error: 'is required' }).min(1, 'must not be empty'),
  key: z.string({ error: 'is required' }).min(1, 'must not be empty'),
  secret: z.string({ error: 'is required' }).min(1, 'must not be empty'),
});

/** A group name or a case id; which ids exist is checked when the cases are selected (`selectCases`). */
const selector = z.string().min(1, `must name groups (${groupNames.join(', ')}) or case ids (see --list)`);

const optionsSchema = z.strictObject({
  /** The server's host, for WebSockets and the HTTP API. */
  host: z.string().min(1, 'must not be empty').default('127.0.0.1'),
  port,
  /** `wss://` and `https://` instead of `ws://` and `http://`. */
  tls: z.boolean().default(false),
  /** The app every case uses; its client events must be enabled. */
  app: credentials,
  /** A second node of the same deployment (same apps): the two-node cases run only with it. */
  node2: z.strictObject({ host: z.string().min(1, 'must not be empty').optional(), port }).optional(),
  /** An app whose server enables the features listed in `features`; their cases run only with it. */
  featureApp: credentials.optional(),
  /** What the feature app's server enables. */
  features: z.array(z.enum(featureNames, { error: `must be some of ${featureNames.join(', ')}` })).default([...featureNames]),
  /** The feature app's user authentication timeout: an anonymous connection is closed after it. */
  userAuthenticationTimeout: seconds.default(30),
  /** An app with client events disabled, for the case that checks they are refused. */
  clientEventsOffApp: credentials.optional(),
  /** Where the kit receives the app's webhooks; the server must send them to http://webhookHost:webhookPort/. */
  webhookPort: port.optional(),
  webhookHost: z.string().min(1, 'must not be empty').default('127.0.0.1'),
  /** The largest event `data` the server accepts, in bytes (Pusher: 10 KB). */
  maxEventDataBytes: z.number().int().positive().default(10_240),
  /** Run only these groups or case ids. */
  only: z.array(selector).default([]),
  /** Leave these groups or case ids out. */
  exclude: z.array(selector).default([]),
  /** Each case's time. A case that needs longer (the authentication timeout) gets that plus this. */
  caseTimeout: seconds.default(10),
  /** The whole run's time; cases not finished by then fail, cases not started are reported as not run. */
  runTimeout: seconds.default(300),
  /** A skipped case counts as a failure. */
  strict: z.boolean().default(false),
});

export type ConformanceOptions = z.input<typeof optionsSchema>;
export type ResolvedOptions = z.output<typeof optionsSchema>;

const kebab = (key: string) => key.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);

/** `['featureApp', 'key']` → `--feature-app-key`; array indexes are dropped (`--only`). */
function flagName(path: readonly PropertyKey[]): string {
  const parts = path.filter((part): part is string => typeof part === 'string').map(kebab);
  return `--${parts.join('-')}`;
}

export function parseOptions(input: unknown): ResolvedOptions {
  const parsed = optionsSchema.safeParse(input);
  if (parsed.success) return parsed.data;
  const lines = parsed.error.issues.map((issue) => {
    if (issue.code === 'unrecognized_keys') return `${issue.keys.map((key) => flagName([...issue.path, key])).join(', ')}: unknown option`;
    return `${flagName(issue.path)} ${issue.message}`;
  });
  throw new ConformanceError('INVALID_OPTIONS', lines.join('\n'));
}
