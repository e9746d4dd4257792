import { createApp, type App } from '@org/protocol';
import type { ApplicationConfig, Config, ServerConfig } from './schema.js';

/**
 * Maps a configured application to the engine's App. For `ping_interval` and
 * `activity_timeout`, the application's value wins over the server's, which
 * wins over the defaults (30 s activity timeout, 60 s ping interval).
 * Client events per connection: with `rate_limiter.enabled`, the app's
 * `max_frontend_events_per_second`, else the limiter's; without it, the
 * protocol's own limit (`max_client_events_per_second`, Pusher's 10).
 */
export function toApp(app: ApplicationConfig, server: ServerConfig, rateLimiter?: Config['rate_limiter']): App {
  const clientEventsPerSecond = rateLimiter?.enabled
    ? (app.max_frontend_events_per_second ?? rateLimiter.max_frontend_events_per_second)
    : app.max_client_events_per_second;
  return createApp({
    id: app.id,
    key: app.key,
    secret: app.secret,
    name: app.name ?? app.id,
    maxConnections: app.max_connections,
    enableClientMessages: app.enable_client_messages,
    enableStatistics: app.enable_statistics,
    enableDebug: app.enable_debug,
    allowedOrigins: app.allowed_origins,
    activityTimeout: app.activity_timeout ?? server.activity_timeout ?? 30,
    pingInterval: app.ping_interval ?? server.ping_interval ?? 60,
    maxMessageSize: app.max_message_size,
    maxChannelsPerConnection: app.max_channels_per_connection,
    maxFramesPerSecond: app.max_frames_per_second,
    maxJsonDepth: app.max_json_depth,
    ...(app.max_presence_members ? { maxPresenceMembers: app.max_presence_members } : {}),
    ...(clientEventsPerSecond ? { maxClientEventsPerSecond: clientEventsPerSecond } : {}),
  });
}
