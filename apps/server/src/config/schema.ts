import { appDefaults, maxUserAuthenticationTimeout } from '@org/protocol';
import { webhookAppFields, webhookConfigSchema } from '@org/webhooks';
import { idempotencyDefaults, MAX_BYTES, MAX_KEYS, MAX_TIMEOUT_MS, MAX_WINDOW_MS, MIN_BYTES } from '@org/idempotency';
import { z } from 'zod';

/**
 * The daemon's configuration, in the original server's keys (snake_case).
 * Timeouts are seconds, sizes bytes. Each default is written once: the
 * server's own here (a section left out is its fields' defaults: `prefault`),
 * an app's from @org/protocol's `appDefaults`, a webhook's in @org/webhooks.
 */
const seconds = z.number().int().positive();
const port = z.number().int().min(0).max(65_535);
const workersError = 'workers must be a positive integer (at most 1024) or "auto"';

const tlsSchema = z.strictObject({
  cert: z.string().min(1),
  key: z.string().min(1),
  passphrase: z.string().optional(),
  ca: z.string().min(1).optional(),
});

const serverSchema = z.strictObject({
  host: z.string().min(1).default('0.0.0.0'),
  port: port.default(8080),
  /** Prefix before `/app/{key}` and the HTTP API, e.g. `/realtime`. */
  path: z.string().regex(/^(\/[A-Za-z0-9._~-]+)*$/, 'must be empty or like /prefix').default(''),
  hostname: z.string().optional(),
  protocol_version: z.union([z.literal('7'), z.literal(7)]).default('7'),
  options: z.strictObject({ tls: tlsSchema.optional() }).default({}),
  // A batch of 10 events of 10 KB data each, JSON-escaped, fits (10,000 refused one 10 KB event with its envelope).
  max_request_size: z.number().int().positive().default(262_144),
  /** Bytes of an HTTP request line and headers (WebSocket upgrades too); over it: 431. 16 KiB, Node.js's default. */
  max_request_head_size: z.number().int().min(256).max(512 * 1024).default(16 * 1024),
  ping_interval: seconds.optional(),
  activity_timeout: seconds.optional(),
  /** Seconds to wait for in-flight work on shutdown before exiting. */
  shutdown_grace_period: seconds.default(5),
});

export const applicationSchema = z.strictObject({
  id: z.coerce.string().min(1),
  key: z.string().min(1),
  secret: z.string().min(1),
  name: z.string().optional(),
  max_connections: z.number().int().positive().default(appDefaults.maxConnections),
  enable_client_messages: z.boolean().default(appDefaults.enableClientMessages),
  enable_statistics: z.boolean().default(appDefaults.enableStatistics),
  enable_debug: z.boolean().default(appDefaults.enableDebug),
  allowed_origins: z.array(z.string().min(1)).min(1).default(() => [...appDefaults.allowedOrigins]),
  ping_interval: seconds.optional(),
  activity_timeout: seconds.optional(),
  max_message_size: z.number().int().positive().default(appDefaults.maxMessageSize),
  max_presence_members: z.number().int().positive().optional(),
  max_client_events_per_second: z.number().int().positive().optional(),
  max_backend_events_per_second: z.number().int().positive().optional(),
  max_frontend_events_per_second: z.number().int().positive().optional(),
  max_read_requests_per_second: z.number().int().positive().optional(),
  /** Channels one connection may hold; past it a subscription is refused (LimitReached). */
  max_channels_per_connection: z.number().int().positive().default(appDefaults.maxChannelsPerConnection),
  /** Frames of any kind one connection may send per second (4301 over it, close 4100 when flooding). */
  max_frames_per_second: z.number().int().positive().default(appDefaults.maxFramesPerSecond),
  /** Deepest nesting of arrays and objects accepted in JSON from clients. */
  max_json_depth: z.number().int().positive().max(1_000).default(appDefaults.maxJsonDepth),
  /** Pusher's "authorized connections": close (4009) sockets not signed in nor on a private/presence channel in time. */
  enable_user_authentication: z.boolean().default(appDefaults.enableUserAuthentication),
  user_authentication_timeout: seconds.max(maxUserAuthenticationTimeout).default(appDefaults.userAuthenticationTimeout),
  /** Sends pusher_internal:subscription_count to a channel's subscribers (not presence) when its count changes. */
  enable_subscription_count: z.boolean().default(appDefaults.enableSubscriptionCount),
  /** Per channel and node: the first change after a quiet interval is sent at once, later ones at most once per interval. */
  subscription_count_interval_ms: z.number().int().min(10).max(60_000).default(appDefaults.subscriptionCountIntervalMs),
  /** Watchlist events (`pusher_internal:watchlist_events`) for signed-in users' `user_data.watchlist`. */
  enable_watchlist_events: z.boolean().default(appDefaults.enableWatchlistEvents),
  /** User ids one watchlist may hold (Pusher's limit is 100); a longer one is refused at sign-in with 4009. */
  max_watchlist_size: z.number().int().positive().max(100_000).default(appDefaults.maxWatchlistSize),
  /** @org/webhooks' own schema for an entry (its defaults, e.g. max_queue_bytes, stay in that package). */
  webhooks: z.array(webhookConfigSchema).default([]),
  /** Pusher's batch webhooks (off: one event per request) and their window, with @org/webhooks' defaults. */
  ...webhookAppFields,
});

const redisFields = {
  url: z.string(),
  host: z.string(),
  port,
  username: z.string(),
  password: z.string(),
  database: z.number().int().min(0),
  timeout: z.number().positive(),
};

/** A Redis Cluster seed node: `host:port` (an IPv6 address in brackets). Credentials come from `username`/`password`. */
const clusterSeedError = 'each seed must be host:port, e.g. "10.0.0.1:6379" or "[::1]:7000"';
// A regex (not a refine) so that config.schema.json carries the same rule as a `pattern`; ports 1-65535.
const clusterSeed = z
  .string({ error: clusterSeedError })
  .regex(/^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._-]+):([1-9][0-9]{0,3}|[1-5][0-9]{4}|6[0-4][0-9]{3}|65[0-4][0-9]{2}|655[0-2][0-9]|6553[0-5])$/, {
    error: clusterSeedError,
  });

/**
 * A Redis Cluster (Redis 7+) instead of one server: any few of its nodes, from which the client
 * learns the rest. `url`, `host`, `port` and `database` are then not used (a cluster has database 0 only).
 */
const redisClusterSchema = z.strictObject({
  nodes: z
    .array(clusterSeed, { error: 'nodes must be a list of host:port seeds, e.g. ["10.0.0.1:6379"]' })
    .min(1, { error: 'nodes needs at least one host:port seed, e.g. ["10.0.0.1:6379"]' })
    .max(100, { error: 'nodes takes at most 100 seeds' }),
  /** TLS to every node (rediss). */
  tls: z.boolean({ error: 'tls must be true or false' }).default(false),
});

const redisConnectionSchema = z.strictObject({
  cluster: redisClusterSchema.optional(),
  url: redisFields.url.optional(),
  host: redisFields.host.default('127.0.0.1'),
  port: redisFields.port.default(6379),
  username: redisFields.username.optional(),
  password: redisFields.password.optional(),
  database: redisFields.database.default(0),
  timeout: redisFields.timeout.default(5),
});

/**
 * `scaling.server` and `rate_limiter.redis`: only the keys given, laid over
 * `redis` key by key. No defaults here (`.partial()` would keep them, and a
 * default host would hide `redis.host`).
 */
const redisOverrideSchema = z
  .strictObject({
    cluster: redisClusterSchema.optional(),
    url: redisFields.url.optional(),
    host: redisFields.host.optional(),
    port: redisFields.port.optional(),
    username: redisFields.username.optional(),
    password: redisFields.password.optional(),
    database: redisFields.database.optional(),
    timeout: redisFields.timeout.optional(),
  })
  // Either one server or a Cluster: with both, which one is used would be a guess (REDIS_URL sets scaling.server.url).
  .refine((section) => !(section.cluster && section.url !== undefined), {
    path: ['url'],
    error: 'cannot be set together with cluster (REDIS_URL sets scaling.server.url): use cluster.nodes for a Redis Cluster, or url for one server',
  });

const scopeDefaults = {
  'command.server': true,
  'command.server.start': true,
  'socket.server': true,
  'socket.connection': false,
  'socket.channel': false,
  'socket.controller': true,
  'socket.handler': true,
} as const;

export const configSchema = z.strictObject({
  /** For editors only (`"$schema": "./node_modules/@org/realtime-server/config.schema.json"`); the server ignores it. */
  $schema: z.string().optional(),
  default: z.string().default('main'),
  /** Worker threads serving the default server's port (SO_REUSEPORT); `auto`: one per available core. */
  workers: z
    .union([z.literal('auto', { error: workersError }), z.number({ error: workersError }).int({ error: workersError }).min(1, { error: workersError }).max(1_024, { error: workersError })], {
      error: workersError,
    })
    .default(1),
  servers: z.record(z.string(), serverSchema).prefault({ main: {} }),
  applications: z.array(applicationSchema).default([]),
  redis: redisConnectionSchema.prefault({}),
  scaling: z
    .strictObject({
      enabled: z.boolean().default(false),
      channel: z
        .string()
        .min(1)
        // The scaler's prefix rule, checked here so that `config check` refuses what `server` would.
        .max(200, { error: 'must be at most 200 characters' })
        .regex(/^[\x21-\x7e]*$/, { error: 'must be printable ASCII without spaces, e.g. "realtime:broadcast"' })
        // It is the hash tag of every Redis key (`{channel}:…`, one slot on a Redis Cluster): a brace would move the tag.
        .regex(/^[^{}]*$/, { error: 'must not contain { or } (it is the hash tag of every Redis key), e.g. "realtime:broadcast"' })
        .default('realtime:broadcast'),
      server: redisOverrideSchema.optional(),
      // The Redis scaler's outbox: cluster messages published during a Redis outage, sent in order once it is back.
      outbox_max_seconds: z.number().int().min(0).max(3_600).default(30),
      outbox_max_bytes: z.number().int().min(0).max(1_073_741_824).default(16_777_216),
      // Routing: how long a node stays subscribed to a channel's topic after its last local subscriber left.
      topic_linger_ms: z.number().int().min(0).max(3_600_000).default(5_000),
    })
    .prefault({}),
  rate_limiter: z
    .strictObject({
      enabled: z.boolean().default(false),
      driver: z.enum(['local', 'redis']).default('local'),
      redis: redisOverrideSchema.optional(),
      cluster_mode: z.boolean().default(false),
      max_backend_events_per_second: z.number().int().positive().default(100),
      max_frontend_events_per_second: z.number().int().positive().default(10),
      max_read_requests_per_second: z.number().int().positive().default(50),
    })
    .prefault({}),
  /**
   * `X-Idempotency-Key` on HTTP triggers: a retry with the same key within the window is answered like
   * the first and published once, cluster-wide (in Redis with `scaling`, else in this process's memory).
   */
  idempotency: z
    .strictObject({
      enabled: z.boolean().default(true),
      // @org/idempotency's own bounds and defaults, in this file's units.
      window_seconds: z.number().int().min(1).max(MAX_WINDOW_MS / 1_000).default(idempotencyDefaults.windowMs / 1_000),
      in_flight_seconds: z.number().int().min(1).max(MAX_WINDOW_MS / 1_000).default(idempotencyDefaults.inFlightMs / 1_000),
      max_entries: z.number().int().min(1).max(MAX_KEYS).default(idempotencyDefaults.maxKeys),
      max_bytes: z.number().int().min(MIN_BYTES).max(MAX_BYTES).default(idempotencyDefaults.maxBytes),
      store_timeout_ms: z.number().int().min(1).max(MAX_TIMEOUT_MS).default(idempotencyDefaults.timeoutMs),
    })
    .prefault({}),
  logging: z
    .strictObject({
      enabled: z.boolean().default(true),
      debug_enabled: z.boolean().default(false),
      log_file: z.string().min(1).default('realtime'),
      log_path: z.string().optional(),
      scopes: z.record(z.string(), z.boolean()).default({}),
    })
    .prefault({}),
  /**
   * `GET /metrics`: on the public port by default; with `port`, only on a
   * listener of its own (loopback unless `host` says otherwise); nowhere when
   * `enabled` is false.
   */
  metrics: z
    .strictObject({
      enabled: z.boolean().default(true),
      host: z.string().min(1).default('127.0.0.1'),
      port: port.optional(),
    })
    .prefault({}),
});

export type Config = z.infer<typeof configSchema>;
export type ServerConfig = z.infer<typeof serverSchema>;
export type ApplicationConfig = z.infer<typeof applicationSchema>;
export type RedisConnectionConfig = z.infer<typeof redisConnectionSchema>;
export { scopeDefaults };
