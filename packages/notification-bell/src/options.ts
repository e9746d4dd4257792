import { CHANNEL_AUTH_ROUTE } from '@org/notifications/contract';
import { NotificationBellError } from './errors.js';

/*
 * Hand-written validation instead of zod: zod/mini alone is ~7 KB min+gzip,
 * over a third of the bell's 20 KB budget. Same contract as a schema: one
 * validator per option, a clear message naming the attribute, the path and
 * the expected value, defaults filled in.
 */

/** Fields both broadcasters accept: who is connecting, when the element has no `user-id`. */
interface BroadcastingIdentity {
  /** Used when the element's `user-id` is absent. Numbers are kept as their decimal string. */
  userId?: string;
  /** Informational. Numbers are kept as their decimal string. */
  userName?: string;
}

export interface WsChannelsConfig extends BroadcastingIdentity {
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

export interface SseHubConfig extends BroadcastingIdentity {
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

/** What users may pass for the identity fields: numbers are accepted and become strings. */
interface BroadcastingIdentityInput {
  userId?: string | number;
  userName?: string | number;
}
/** What users may pass: defaults may be omitted; `broadcaster` defaults to `'ws-channels'`. */
export type BroadcastingInput =
  | false
  | (Omit<WsChannelsConfig, 'broadcaster' | 'authEndpoint' | keyof BroadcastingIdentity> &
      BroadcastingIdentityInput & { broadcaster?: 'ws-channels'; authEndpoint?: string })
  | (Omit<SseHubConfig, 'withCredentials' | keyof BroadcastingIdentity> & BroadcastingIdentityInput & { withCredentials?: boolean });

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

/**
 * Validates the listed fields of an object, prefixing errors with the field name.
 * Only listed fields are read and copied: unknown keys never reach the result.
 */
function fields<T>(value: Record<string, unknown>, validators: { [K in keyof T]: Validator<T[K]> }): T {
  const result: Record<string, unknown> = {};
  for (const key of Object.keys(validators) as Array<keyof T & string>) {
    try {
      // Own keys only: a polluted Object.prototype must not configure the bell.
      const parsed = validators[key](Object.hasOwn(value, key) ? value[key] : undefined);
      if (parsed !== undefined) result[key] = parsed;
    } catch (error) {
      if (error instanceof Invalid) throw new Invalid(error.expected, `.${key}${error.path}`);
      throw error;
    }
  }
  return result as T;
}

/** An absent (undefined or null) value takes the default; anything else must pass. */
const withDefault =
  <T>(validate: Validator<T>, fallback: T): Validator<T> =>
  (value) =>
    value === undefined || value === null ? fallback : validate(value);

/** Strings as they are; finite numbers as their decimal string (ids are often numeric server-side). */
const stringOrNumber =
  (expected: string): Validator<string> =>
  (value) => {
    if (typeof value === 'number' && Number.isFinite(value)) return String(value);
    if (typeof value === 'string') return value;
    throw new Invalid(expected);
  };

/** A user id; an empty one (`user-id=""`, e.g. a template rendering a guest) means "no user", like an absent one. */
const userIdValue: Validator<string | undefined> = (value) => {
  const id = stringOrNumber('expected a string or a number')(value);
  return id === '' ? undefined : id;
};
const userNameValue = stringOrNumber('expected a string or a number');

const port = wholeNumber(1, 65_535, 'expected a port number 1-65535');
const url = string('expected a non-empty URL', true);

const identity = {
  userId: optional(userIdValue),
  userName: optional(userNameValue),
};

const wsChannels = (record: Record<string, unknown>): WsChannelsConfig =>
  fields<WsChannelsConfig>(record, {
    broadcaster: () => 'ws-channels',
    wsKey: string('expected the app key string', true),
    wsHost: optional(string('expected a host name')),
    wsPort: optional(port),
    wsCluster: optional(string('expected a cluster name')),
    forceTLS: optional(boolean),
    wsPath: optional(string('expected a path string')),
    // The API's channel authorisation route (the contract's), as mounted at the site root.
    authEndpoint: withDefault(url, CHANNEL_AUTH_ROUTE.path),
    channel: optional(string('expected a channel name')),
    ...identity,
  });

const sseHub = (record: Record<string, unknown>): SseHubConfig =>
  fields<SseHubConfig>(record, {
    broadcaster: () => 'sse-hub',
    hubUrl: url,
    topic: optional(string('expected a topic string')),
    authEndpoint: optional(url),
    withCredentials: withDefault(boolean, true),
    ...identity,
  });

const BROADCASTING_EXPECTED = `expected false, or an object with wsKey (broadcaster 'ws-channels', the default) or with broadcaster 'sse-hub' and hubUrl`;

const broadcasting: Validator<BroadcastingConfig | false> = (value) => {
  if (value === false) return false;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Invalid(BROADCASTING_EXPECTED);
  const record = value as Record<string, unknown>;
  const broadcaster = Object.hasOwn(record, 'broadcaster') ? record.broadcaster : undefined;
  // The documented default: an object without `broadcaster` is a ws-channels config.
  if (broadcaster === undefined || broadcaster === null || broadcaster === 'ws-channels') return wsChannels(record);
  if (broadcaster === 'sse-hub') return sseHub(record);
  throw new Invalid(`expected 'ws-channels' (the default) or 'sse-hub'`, '.broadcaster');
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
  userId: optional(userIdValue),
  userName: optional(userNameValue),
  broadcasting,
  apiBase: string('expected a URL or path string'),
};

/** Lit property name -> attribute name, for messages users can act on. */
export function attributeName(option: string): string {
  return option.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
}

/** Validates one option; throws INVALID_OPTION naming the attribute, the path inside it and what was expected. */
export function parseOption<K extends OptionName>(name: K, value: unknown): BellOptions[K] {
  // parseOption is public: plain JS may pass any name.
  if (!Object.hasOwn(validators, name)) {
    throw new NotificationBellError('INVALID_OPTION', `<notification-bell> has no option ${describe(name)}.`);
  }
  try {
    return validators[name](value);
  } catch (error) {
    if (!(error instanceof Invalid)) throw error;
    throw new NotificationBellError('INVALID_OPTION', `<notification-bell> option "${attributeName(name)}${error.path}": ${error.expected} (got ${describe(value)}).`);
  }
}

/** Shown values are cut here: a message quotes what was passed, not a megabyte of it. */
const SHOWN_VALUE_MAX = 200;

/** Never throws: the value may be anything (a BigInt, a null-prototype object, a cycle). */
function describe(value: unknown): string {
  let shown: string;
  try {
    shown = JSON.stringify(value) ?? String(value);
  } catch {
    try {
      shown = String(value);
    } catch {
      shown = Object.prototype.toString.call(value);
    }
  }
  return shown.length > SHOWN_VALUE_MAX ? `${shown.slice(0, SHOWN_VALUE_MAX)}…` : shown;
}
