import { RealtimeError } from './errors.js';

/** One application (tenant) of the server, with every limit resolved. */
export interface App {
  readonly id: string;
  readonly key: string;
  readonly secret: string;
  readonly name: string;
  /** Concurrent connections allowed across the cluster. */
  readonly maxConnections: number;
  readonly enableClientMessages: boolean;
  readonly enableStatistics: boolean;
  readonly enableDebug: boolean;
  /** Origins allowed to open WebSockets; `['*']` allows all. Entries may use `*.` host wildcards. */
  readonly allowedOrigins: readonly string[];
  /** Seconds of client silence after which the server pings; also sent to clients in the handshake. */
  readonly activityTimeout: number;
  /** Seconds the server waits for a pong after its ping before closing with 4201. */
  readonly pingInterval: number;
  /** Largest event `data` in bytes, for client events and the HTTP API. */
  readonly maxMessageSize: number;
  readonly maxChannelNameLength: number;
  readonly maxEventNameLength: number;
  readonly maxPresenceMembers: number;
  /** Largest presence `user_info`, in bytes of its JSON. */
  readonly maxPresenceUserInfoSize: number;
  readonly maxUserIdLength: number;
  readonly maxClientEventsPerSecond: number;
  /** Channels one connection may hold at once; a subscription past it is refused (LimitReached). */
  readonly maxChannelsPerConnection: number;
  /**
   * Frames of any kind one connection may send per second. Frames past it are
   * dropped with one 4301 error per second; a connection that sends twice
   * the limit in a second, or exceeds it three seconds in a row, is closed with 4100.
   */
  readonly maxFramesPerSecond: number;
  /** Deepest nesting of arrays and objects accepted in JSON from clients (frames, channel_data, user_data). */
  readonly maxJsonDepth: number;
  readonly maxChannelsPerEvent: number;
  readonly maxBatchSize: number;
  /** Seconds a cache channel keeps its last event. */
  readonly cacheTtl: number;
  /**
   * Pusher's "authorized connections": a connection that has neither signed in nor been confirmed on a
   * private- or presence- channel `userAuthenticationTimeout` seconds after it opened is closed with 4009.
   */
  readonly enableUserAuthentication: boolean;
  /** Seconds a connection has to authorize itself when `enableUserAuthentication` is on; at most a day. */
  readonly userAuthenticationTimeout: number;
  /**
   * Sends `pusher_internal:subscription_count` to the subscribers of a channel (not presence, not
   * `#server-to-user-`) when its cluster-wide subscription count changes, and reports `subscription.count`.
   */
  readonly enableSubscriptionCount: boolean;
  /**
   * Coalescing of subscription counts, in ms: per channel and node, the first change after a quiet
   * interval is sent at once, later ones at most once per interval (at its end, with the count then).
   */
  readonly subscriptionCountIntervalMs: number;
  /**
   * Watchlist events: a signed-in connection whose `user_data` carries a `watchlist` of user ids hears
   * `pusher_internal:watchlist_events` (online, offline) about them. Off: the watchlist is ignored, and
   * sign-ins cost the scaler nothing.
   */
  readonly enableWatchlistEvents: boolean;
  /** Most user ids one watchlist may hold (Pusher documents 100); a longer one is refused at sign-in (4009). */
  readonly maxWatchlistSize: number;
}

export type AppOptions = Pick<App, 'id' | 'key' | 'secret'> & Partial<Omit<App, 'id' | 'key' | 'secret'>>;

/** Pusher's documented limits, used when an app does not set its own. */
export const appDefaults: Omit<App, 'id' | 'key' | 'secret' | 'name'> = {
  maxConnections: 100,
  enableClientMessages: true,
  enableStatistics: true,
  enableDebug: false,
  allowedOrigins: ['*'],
  activityTimeout: 30,
  pingInterval: 60,
  maxMessageSize: 10_000,
  maxChannelNameLength: 164,
  maxEventNameLength: 200,
  maxPresenceMembers: 100,
  maxPresenceUserInfoSize: 1_000,
  maxUserIdLength: 128,
  maxClientEventsPerSecond: 10,
  maxChannelsPerConnection: 100,
  maxFramesPerSecond: 100,
  maxJsonDepth: 64,
  maxChannelsPerEvent: 100,
  maxBatchSize: 10,
  cacheTtl: 1_800,
  enableUserAuthentication: false,
  userAuthenticationTimeout: 30,
  enableSubscriptionCount: false,
  subscriptionCountIntervalMs: 1_000,
  enableWatchlistEvents: false,
  maxWatchlistSize: 100,
};

/**
 * The longest `userAuthenticationTimeout`: a day keeps the deadline a small integer of the coarse clock
 * (see `ConnectionRecord.authorizeBy`) and is far past any sign-in.
 */
export const maxUserAuthenticationTimeout = 86_400;

const positiveIntegerKeys = [
  'maxConnections', 'activityTimeout', 'pingInterval', 'maxMessageSize', 'maxChannelNameLength',
  'maxEventNameLength', 'maxPresenceMembers', 'maxPresenceUserInfoSize', 'maxUserIdLength',
  'maxClientEventsPerSecond', 'maxChannelsPerConnection', 'maxFramesPerSecond', 'maxJsonDepth',
  'maxChannelsPerEvent', 'maxBatchSize', 'cacheTtl', 'userAuthenticationTimeout', 'subscriptionCountIntervalMs',
  'maxWatchlistSize',
] as const;

/** Fills in defaults and checks invariants; throws `RealtimeError('INVALID_OPTION')` naming the key. */
export function createApp(options: AppOptions): App {
  for (const key of ['id', 'key', 'secret'] as const) {
    if (typeof options[key] !== 'string' || options[key] === '') {
      throw new RealtimeError('INVALID_OPTION', `app.${key} must be a non-empty string`);
    }
  }
  const app: App = { ...appDefaults, name: options.id, ...options };
  for (const key of positiveIntegerKeys) {
    const value = app[key];
    if (!Number.isInteger(value) || value <= 0) {
      throw new RealtimeError('INVALID_OPTION', `app "${app.id}": ${key} must be a positive integer, got ${String(value)}`);
    }
  }
  if (app.userAuthenticationTimeout > maxUserAuthenticationTimeout) {
    throw new RealtimeError('INVALID_OPTION', `app "${app.id}": userAuthenticationTimeout must be at most ${maxUserAuthenticationTimeout} seconds, got ${app.userAuthenticationTimeout}`);
  }
  if (typeof app.enableUserAuthentication !== 'boolean') {
    throw new RealtimeError('INVALID_OPTION', `app "${app.id}": enableUserAuthentication must be true or false, got ${String(app.enableUserAuthentication)}`);
  }
  return Object.freeze({ ...app, allowedOrigins: Object.freeze([...app.allowedOrigins]) });
}
