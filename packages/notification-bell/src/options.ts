import { NotificationBellError } from './errors.js';

/*
 * Hand-written validation instead of zod: zod/mini alone is ~7 KB min+gzip,
 * over a third of the bell's 20 KB budget. Same contract as a schema: one
 * validator per option, a clear message naming the attribute, the path and
 * the expected value, defaults filled in.
 */

export interface WsChannelsConfig {
  broadcaster: 'ws-channels';
  wsKey: string;
  wsHost?: string;
  wsPort?: number;
  wsCluster?: string;
  forceTLS?: boolean;
  wsPath?: string;
  /** Default `/broadcasting/auth`. */
  authEndpoint: string;
  /** Default `private-App.Model.Entity.User.{userId}`. */
  channel?: string;
}

export interface SseHubConfig {
  broadcaster: 'sse-hub';
  hubUrl: string;
  /** Default `/users/{userId}/notifications`. */
  topic?: string;
  /** Optional: POSTed (with the CSRF header) before connecting, e.g. to set the hub's auth cookie. */
  authEndpoint?: string;
  /** Default true. */
  withCredentials: boolean;
}

export type BroadcastingConfig = WsChannelsConfig | SseHubConfig;
/** What users may pass: defaults may be omitted. */
export type BroadcastingInput =
  | false
  | (Omit<WsChannelsConfig, 'authEndpoint'> & { authEndpoint?: string })
  | (Omit<SseHubConfig, 'withCredentials'> & { withCredentials?: boolean });

export interface BellOptions {
  mode: 'dropdown' | 'panel';
  position: 'left' | 'right';
  theme: 'light' | 'dark' | undefined;
  pollInterval: number;
  enablePolling: boolean;
  perPage: number;
  unreadCount: number | undefined;
  markReadOnClick: boolean;
  userId: string | undefined;
  userName: string | undefined;
  broadcasting: BroadcastingConfig | false;
  apiBase: string;
}
export type OptionName = keyof BellOptions;

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

/** Thrown inside validators; `path` is relative to the option. */
class Invalid {
  constructor(
    readonly expected: string,
    readonly path: string = '',
  ) {}
}

type Validator<T> = (value: unknown) => T;

const oneOf =
  <T extends string>(expected: string, ...allowed: T[]): Validator<T> =>
  (value) => {
    if ((allowed as unknown[]).includes(value)) return value as T;
    throw new Invalid(expected);
  };

const optional =
  <T>(validate: Validator<T>): Validator<T | undefined> =>
  (value) =>
    value === undefined || value === null ? undefined : validate(value);

const wholeNumber =
  (min: number, max: number, expected: string): Validator<number> =>
  (value) => {
    if (typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max) return value;
    throw new Invalid(expected);
  };

const boolean: Validator<boolean> = (value) => {
  if (typeof value === 'boolean') return value;
  throw new Invalid('expected true or false');
};

const string =
  (expected = 'expected a string', nonEmpty = false): Validator<string> =>
  (value) => {
    if (typeof value === 'string' && (!nonEmpty || value !== '')) return value;
    throw new Invalid(expected);
  };

/** Validates the listed fields of an object, prefixing errors with the field name. */
function fields<T>(value: Record<string, unknown>, validators: { [K in keyof T]: Validator<T[K]> }): T {
  const result: Record<string, unknown> = {};
  for (const key of Object.keys(validators) as Array<keyof T & string>) {
    try {
      const parsed = validators[key](value[key]);
      if (parsed !== undefined) result[key] = parsed;
    } catch (error) {
      if (error instanceof Invalid) throw new Invalid(error.expected, `.${key}${error.path}`);
      throw error;
    }
  }
  return result as T;
}

const port = wholeNumber(1, 65_535, 'expected a port number 1-65535');
const url = string('expected a non-empty URL', true);

const broadcasting: Validator<BroadcastingConfig | false> = (value) => {
  if (value === false) return false;
  const record = typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
  if (record?.broadcaster === 'ws-channels') {
    return fields<WsChannelsConfig>({ authEndpoint: '/broadcasting/auth', ...record }, {
      broadcaster: () => 'ws-channels',
      wsKey: string('expected the app key string', true),
      wsHost: optional(string('expected a host name')),
      wsPort: optional(port),
      wsCluster: optional(string('expected a cluster name')),
      forceTLS: optional(boolean),
      wsPath: optional(string('expected a path string')),
      authEndpoint: url,
      channel: optional(string('expected a channel name')),
    });
  }
  if (record?.broadcaster === 'sse-hub') {
    return fields<SseHubConfig>({ withCredentials: true, ...record }, {
      broadcaster: () => 'sse-hub',
      hubUrl: url,
      topic: optional(string('expected a topic string')),
      authEndpoint: optional(url),
      withCredentials: boolean,
    });
  }
  throw new Invalid(`expected false, or an object with broadcaster 'ws-channels' (and wsKey) or 'sse-hub' (and hubUrl)`);
};

const validators: { [K in OptionName]: Validator<BellOptions[K]> } = {
  mode: oneOf(`expected 'dropdown' or 'panel'`, 'dropdown', 'panel'),
  position: oneOf(`expected 'left' or 'right'`, 'left', 'right'),
  theme: optional(oneOf(`expected 'light', 'dark' or no value (auto)`, 'light', 'dark')),
  pollInterval: wholeNumber(1000, 86_400_000, 'expected a whole number of milliseconds >= 1000'),
  enablePolling: boolean,
  perPage: wholeNumber(1, 100, 'expected a whole number from 1 to 100'),
  unreadCount: optional(wholeNumber(0, Number.MAX_SAFE_INTEGER, 'expected a whole number >= 0')),
  markReadOnClick: boolean,
  userId: optional(string()),
  userName: optional(string()),
  broadcasting,
  apiBase: string('expected a URL or path string'),
};

/** Lit property name -> attribute name, for messages users can act on. */
export function attributeName(option: string): string {
  return option.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
}

/** Validates one option; throws INVALID_OPTION naming the attribute, the path inside it and what was expected. */
export function parseOption<K extends OptionName>(name: K, value: unknown): BellOptions[K] {
  try {
    return validators[name](value);
  } catch (error) {
    if (!(error instanceof Invalid)) throw error;
    throw new NotificationBellError('INVALID_OPTION', `<notification-bell> option "${attributeName(name)}${error.path}": ${error.expected} (got ${describe(value)}).`);
  }
}

function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
