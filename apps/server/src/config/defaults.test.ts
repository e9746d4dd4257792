import { appDefaults } from '@org/protocol';
import { describe, expect, it } from 'vitest';
import { applicationSchema, configSchema } from './schema.js';
import { resolveRedisConnection } from '../scaling/redis-connection.js';
import { toApp } from './to-apps.js';

describe('defaults, written once', () => {
  it("fills an app's unset keys from @org/protocol's appDefaults, in the schema and in the engine's App", () => {
    const config = configSchema.parse({ applications: [{ id: 'a', key: 'k', secret: 's' }] });
    const app = config.applications[0]!;
    expect(app).toMatchObject({
      max_connections: appDefaults.maxConnections,
      enable_client_messages: appDefaults.enableClientMessages,
      enable_statistics: appDefaults.enableStatistics,
      enable_debug: appDefaults.enableDebug,
      allowed_origins: appDefaults.allowedOrigins,
      max_message_size: appDefaults.maxMessageSize,
      max_channels_per_connection: appDefaults.maxChannelsPerConnection,
      max_frames_per_second: appDefaults.maxFramesPerSecond,
      max_json_depth: appDefaults.maxJsonDepth,
      enable_subscription_count: appDefaults.enableSubscriptionCount,
      subscription_count_interval_ms: appDefaults.subscriptionCountIntervalMs,
    });
    const engineApp = toApp(app, config.servers['main']!, config.rate_limiter);
    expect(engineApp).toEqual({ ...appDefaults, id: 'a', key: 'k', secret: 's', name: 'a' });
  });

  it('gives each parsed app its own allowed_origins array', () => {
    const [first, second] = [applicationSchema.parse({ id: '1', key: 'a', secret: 's' }), applicationSchema.parse({ id: '2', key: 'b', secret: 's' })];
    expect(first.allowed_origins).not.toBe(second.allowed_origins);
  });

  it('fills a section left out, or given empty, with its fields\' defaults', () => {
    const none = configSchema.parse({});
    const empty = configSchema.parse({ servers: { main: {} }, redis: {}, scaling: {}, rate_limiter: {}, logging: {}, metrics: {} });
    expect(none).toEqual(empty);
    expect(none).toMatchObject({
      servers: { main: { host: '0.0.0.0', port: 8080, path: '', max_request_size: 262_144, shutdown_grace_period: 5 } },
      redis: { host: '127.0.0.1', port: 6379, database: 0, timeout: 5 },
      scaling: { enabled: false, channel: 'realtime:broadcast', outbox_max_seconds: 30, outbox_max_bytes: 16_777_216, topic_linger_ms: 5_000 },
      rate_limiter: { enabled: false, driver: 'local', cluster_mode: false, max_backend_events_per_second: 100, max_frontend_events_per_second: 10, max_read_requests_per_second: 50 },
      logging: { enabled: true, debug_enabled: false, log_file: 'realtime', scopes: {} },
      metrics: { enabled: true, host: '127.0.0.1' },
    });
  });

  it('lays scaling.server and rate_limiter.redis over the redis section key by key, with no defaults of their own', () => {
    const config = configSchema.parse({ redis: { host: '10.0.0.5', timeout: 9 }, scaling: { server: { password: 'p' } }, rate_limiter: { redis: { database: 2 } } });
    expect(config.scaling.server).toEqual({ password: 'p' });
    expect(config.rate_limiter.redis).toEqual({ database: 2 });
    expect(resolveRedisConnection(config.scaling.server, config.redis)).toMatchObject({ host: '10.0.0.5', port: 6379, password: 'p', timeout: 9 });
  });
});
