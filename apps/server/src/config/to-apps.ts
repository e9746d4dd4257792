import { createApp, type App } from '@org/protocol';
import type { ApplicationConfig, Config, ServerConfig } from './schema.js';

/**
 * Maps a configured application to the engine's App; whatever it leaves out
 * comes from @org/protocol's `appDefaults` (through `createApp`), never from
 * here. For `ping_interval` and `activity_timeout`, the application's value
 * wins over the server's, which wins over those defaults.
 * Client events per connection: with `rate_limiter.enabled`, the app's
 * `max_frontend_events_per_second`, else the limiter's; without it, the
 * protocol's own limit (`max_client_events_per_second`, Pusher's 10).
 */
export function toApp(app: ApplicationConfig, server: ServerConfig, rateLimiter?: Config['rate_limiter']): App {
  const clientEventsPerSecond = rateLimiter?.enabled
    ? (app.max_frontend_events_per_second ?? rateLimiter.max_frontend_events_per_second)
    : app.max_client_events_per_second;
  const activityTimeout = app.activity_timeout ?? server.activity_timeout;
  const pingInterval = app.ping_interval ?? server.ping_interval;
  return createApp({
    id: app.id,
    key: app.key,
    secret: app.secret,
    maxConnections: app.max_connections,
    enableClientMessages: app.enable_client_messages,
    enableStatistics: app.enable_statistics,
    enableDebug: app.enable_debug,
    allowedOrigins: app.allowed_origins,
    maxMessageSize: app.max_message_size,
    maxChannelsPerConnection: app.max_channels_per_connection,
    maxFramesPerSecond: app.max_frames_per_second,
    maxJsonDepth: app.max_json_depth,
    enableUserAuthentication: app.enable_user_authentication,
    userAuthenticationTimeout: app.user_authentication_timeout,
    enableSubscriptionCount: app.enable_subscription_count,
    subscriptionCountIntervalMs: app.subscription_count_interval_ms,
    enableWatchlistEvents: app.enable_watchlist_events,
    maxWatchlistSize: app.max_watchlist_size,
    // Left out when unset: an explicit undefined would replace the default.
    ...(app.name !== undefined ? { name: app.name } : {}),
    ...(activityTimeout !== undefined ? { activityTimeout } : {}),
    ...(pingInterval !== undefined ? { pingInterval } : {}),
    ...(app.max_presence_members ? { maxPresenceMembers: app.max_presence_members } : {}),
    ...(clientEventsPerSecond ? { maxClientEventsPerSecond: clientEventsPerSecond } : {}),
  });
}
