import * as z from 'zod/mini';
import { NotificationBellError } from './errors.js';

// zod/mini keeps the validator tree-shakable; the full zod API would eat the size budget.

const port = z.number({ error: 'expected a port number 1-65535' }).check(z.int(), z.minimum(1), z.maximum(65535));
const url = z.string({ error: 'expected a URL string' }).check(z.minLength(1, 'expected a non-empty URL'));

const wsChannelsSchema = z.object({
  broadcaster: z.literal('ws-channels'),
  wsKey: z.string({ error: 'expected the app key string' }).check(z.minLength(1, 'expected a non-empty app key')),
  wsHost: z.optional(z.string({ error: 'expected a host name' })),
  wsPort: z.optional(port),
  wsCluster: z.optional(z.string({ error: 'expected a cluster name' })),
  forceTLS: z.optional(z.boolean({ error: 'expected true or false' })),
  wsPath: z.optional(z.string({ error: 'expected a path string' })),
  authEndpoint: z._default(url, '/broadcasting/auth'),
  /** Defaults to `private-App.Model.Entity.User.{userId}`. */
  channel: z.optional(z.string({ error: 'expected a channel name' })),
});

const sseHubSchema = z.object({
  broadcaster: z.literal('sse-hub'),
  hubUrl: url,
  /** Defaults to `/users/{userId}/notifications`. */
  topic: z.optional(z.string({ error: 'expected a topic string' })),
  /** Optional: POSTed (with the CSRF header) before connecting, e.g. to set the hub's auth cookie. */
  authEndpoint: z.optional(url),
  withCredentials: z._default(z.boolean({ error: 'expected true or false' }), true),
});

const broadcastingSchema = z.union(
  [z.literal(false), z.discriminatedUnion('broadcaster', [wsChannelsSchema, sseHubSchema])],
  { error: `expected false, or an object with broadcaster 'ws-channels' (and wsKey) or 'sse-hub' (and hubUrl)` },
);

export type WsChannelsConfig = z.infer<typeof wsChannelsSchema>;
export type SseHubConfig = z.infer<typeof sseHubSchema>;
export type BroadcastingConfig = WsChannelsConfig | SseHubConfig;
export type BroadcastingInput = z.input<typeof broadcastingSchema>;

const positiveInt = (what: string) => z.number({ error: `expected ${what}` }).check(z.int(`expected ${what}`), z.minimum(1, `expected ${what}`));

/** One schema per option, so a bad value is reported by its name and only that option falls back. */
const optionSchemas = {
  mode: z.enum(['dropdown', 'panel'], { error: `expected 'dropdown' or 'panel'` }),
  position: z.enum(['left', 'right'], { error: `expected 'left' or 'right'` }),
  theme: z.optional(z.enum(['light', 'dark'], { error: `expected 'light', 'dark' or no value (auto)` })),
  pollInterval: positiveInt('a whole number of milliseconds >= 1000').check(z.minimum(1000, 'expected a whole number of milliseconds >= 1000')),
  enablePolling: z.boolean({ error: 'expected true or false' }),
  perPage: positiveInt('a whole number from 1 to 100').check(z.maximum(100, 'expected a whole number from 1 to 100')),
  unreadCount: z.optional(z.number({ error: 'expected a whole number >= 0' }).check(z.int('expected a whole number >= 0'), z.minimum(0, 'expected a whole number >= 0'))),
  markReadOnClick: z.boolean({ error: 'expected true or false' }),
  userId: z.optional(z.string({ error: 'expected a string' })),
  userName: z.optional(z.string({ error: 'expected a string' })),
  broadcasting: broadcastingSchema,
  apiBase: z.string({ error: 'expected a URL or path string' }),
};

export type OptionName = keyof typeof optionSchemas;
export type BellOptions = { [K in OptionName]: z.output<(typeof optionSchemas)[K]> };

export const defaultOptions: BellOptions = {
  mode: 'dropdown',
  position: 'right',
  theme: undefined,
  pollInterval: 30_000,
  enablePolling: true,
  perPage: 10,
  unreadCount: undefined,
  markReadOnClick: true,
  userId: undefined,
  userName: undefined,
  broadcasting: false,
  apiBase: '',
};

/** Lit property name -> attribute name, for messages users can act on. */
export function attributeName(option: string): string {
  return option.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
}

/** Validates one option; throws INVALID_OPTION naming the attribute, the path inside it and what was expected. */
export function parseOption<K extends OptionName>(name: K, value: unknown): BellOptions[K] {
  const result = schemaFor(name, value).safeParse(value);
  if (result.success) return result.data as BellOptions[K];
  const issue = result.error.issues[0];
  const path = issue && issue.path.length > 0 ? `.${issue.path.join('.')}` : '';
  throw new NotificationBellError(
    'INVALID_OPTION',
    `<notification-bell> option "${attributeName(name)}${path}": ${issue?.message ?? 'invalid value'} (got ${describe(value)}).`,
  );
}

/** For a known broadcaster, validate against its own schema so the message points at the bad field. */
function schemaFor(name: OptionName, value: unknown): z.ZodMiniType {
  if (name === 'broadcasting' && typeof value === 'object' && value !== null) {
    const broadcaster = (value as { broadcaster?: unknown }).broadcaster;
    if (broadcaster === 'ws-channels') return wsChannelsSchema;
    if (broadcaster === 'sse-hub') return sseHubSchema;
  }
  return optionSchemas[name];
}

function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
