/**
 * Pusher protocol error and close codes we send, in one table.
 *
 * Ranges decide what pusher-js does on close: 4000-4099 do not reconnect,
 * 4100-4199 reconnect with back-off, 4200-4299 reconnect at once, 4300+ refused.
 */
export const ErrorCode = {
  /** The app key in the URL is unknown. */
  AppNotFound: 4001,
  /** The app is disabled. */
  AppDisabled: 4003,
  /** The app is over its `max_connections` quota. */
  OverConnectionQuota: 4004,
  /** The `protocol` query parameter names a version we do not speak. */
  UnsupportedProtocol: 4007,
  /** Unauthorized: bad origin, bad sign-in, terminated by the app. */
  Unauthorized: 4009,
  /** Over capacity: a presence channel is full, or the socket is too slow to keep up. */
  OverCapacity: 4100,
  /** Generic "reconnect now": server shutting down or restarting, malformed frame. */
  ReconnectNow: 4200,
  /** No pong arrived after the server's ping. */
  PongTimeout: 4201,
  /** A client event was rejected (not allowed, too big, or over the rate limit). */
  ClientEventRejected: 4301,
} as const;

export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];
