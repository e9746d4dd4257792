import type { RealtimeServer, ServerEventMap } from '@org/protocol';
import type { RedisScalerStats } from '@org/redis-scaler';
import type { RateLimitKind as ApiRateLimitKind } from '@org/rest-api';
import type { TransportCallback, TransportRefusal } from '@org/transport-uws';
import { Counter, Gauge, Registry, collectDefaultMetrics } from 'prom-client';
import type { DeliveryObserver } from '@org/webhooks';

/** What a rate limiter refused: HTTP API triggers or reads, or client events on a socket. */
type RateLimitKind = ApiRateLimitKind | 'client_events';

const knownMethods = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/**
 * Every value of the labels that are not per app, checked complete by the
 * compiler. Their series are created at 0: a series that first appears at 1
 * shows no `increase()`, so an alert would miss the first bug or refusal.
 */
const transportRefusals = Object.keys({ frame_too_large: 0, body_too_large: 0, head_too_large: 0 } satisfies Record<TransportRefusal, 0>);
const transportCallbacks = Object.keys({ upgrade: 0, open: 0, message: 0, close: 0, http: 0 } satisfies Record<TransportCallback, 0>);
const handlerKinds = Object.keys({
  subscribe: 0,
  unsubscribe: 0,
  signin: 0,
  client_event: 0,
  frame: 0,
  cluster_message: 0,
  node_loss: 0,
  member_event: 0,
} satisfies Record<ServerEventMap['handler.failed']['kind'], 0>);

/**
 * A counter for the hot paths (per message, per request): `add(key, by)` bumps
 * a plain number, and prom-client sees the totals only when scraped, through
 * `labelsOf(key)`. A labelled `inc` would hash its label object on every call.
 */
function talliedCounter(registry: Registry, name: string, help: string, labelNames: readonly string[], labelsOf: (key: string) => Record<string, string>) {
  const totals = new Map<string, number>();
  new Counter({
    name,
    help,
    labelNames,
    registers: [registry],
    collect() {
      this.reset();
      for (const [key, total] of totals) this.inc(labelsOf(key), total);
    },
  });
  return (key: string, by = 1): void => void totals.set(key, (totals.get(key) ?? 0) + by);
}

const appLabels = (appId: string) => ({ app_id: appId });

/** The one prefix of every series; prom-client's default metrics get it too (`realtime_process_*`, `realtime_nodejs_*`). */
const prefix = 'realtime_';

/**
 * prom-client's default metrics that are gauges named `*_total`: Prometheus
 * reserves `_total` for counters, and each is the `sum()` of the labelled
 * gauge next to it (`realtime_nodejs_active_handles{type}` etc.).
 */
const gaugesNamedTotal = ['nodejs_active_handles_total', 'nodejs_active_requests_total', 'nodejs_active_resources_total'];

let processMetrics: Registry | undefined;

/**
 * A registry in the text exposition format. prom-client writes a NaN value as `Nan` (an event-loop
 * delay with no sample since the previous scrape); the format says `NaN`, and strict parsers refuse the other.
 */
export async function exposition(registry: Registry): Promise<{ contentType: string; body: string }> {
  const body = await registry.metrics();
  return { contentType: registry.contentType, body: body.includes(' Nan') ? body.replace(/^([^#\n].*) Nan$/gm, '$1 NaN') : body };
}

/** The process's default metrics (`realtime_process_*`, `realtime_nodejs_*`), made once per process. */
export const processMetricsRegistry = (): Registry => defaultMetrics();

/**
 * prom-client's default metrics, made once per process: they start a GC
 * observer and an event-loop delay monitor that are never stopped, and a
 * restart builds a new daemon (and metrics) in the same process.
 */
function defaultMetrics(): Registry {
  if (!processMetrics) {
    processMetrics = new Registry();
    // prom-client prepends the prefix to its own names, which already start with `process_` or `nodejs_`.
    collectDefaultMetrics({ register: processMetrics, prefix });
    for (const name of gaugesNamedTotal) processMetrics.removeSingleMetric(prefix + name);
  }
  return processMetrics;
}

/**
 * Prometheus metrics, labelled by app. Counters are fed from engine events,
 * so the delivery path itself does no metrics work beyond one emit.
 */
export function createMetrics(options: { processMetrics?: boolean } = {}) {
  // A registry of this daemon's own, holding the process's default metrics too (a worker thread's
  // leaves them out: they are the process's, and the main thread adds them once to the workers' sum).
  const registry = options.processMetrics === false ? new Registry() : Registry.merge([defaultMetrics()]);
  const labels = ['app_id'] as const;
  const connections = new Gauge({ name: 'realtime_connections', help: 'Open WebSocket connections (past the handshake) on this node', labelNames: labels, registers: [registry] });
  const opened = new Counter({ name: 'realtime_connections_opened_total', help: 'WebSocket connections opened (pusher:connection_established sent)', labelNames: labels, registers: [registry] });
  const closed = new Counter({ name: 'realtime_connections_closed_total', help: 'Open WebSocket connections that closed, for any reason', labelNames: labels, registers: [registry] });
  const refused = new Counter({ name: 'realtime_connections_refused_total', help: 'WebSocket connections refused at the handshake, by Pusher error code (app_id "unknown" for an unknown key)', labelNames: ['app_id', 'code'], registers: [registry] });
  const messagesIn = talliedCounter(registry, 'realtime_ws_messages_received_total', 'WebSocket frames received from clients', labels, appLabels);
  const bytesIn = talliedCounter(registry, 'realtime_ws_received_bytes_total', 'Size of the WebSocket frames received from clients (the length of text frames)', labels, appLabels);
  const messagesOut = talliedCounter(registry, 'realtime_ws_messages_sent_total', 'Channel events sent to this node\'s sockets, one per recipient', labels, appLabels);
  const bytesOut = talliedCounter(registry, 'realtime_ws_sent_bytes_total', 'Size of the channel events sent to this node\'s sockets (frame length times recipients)', labels, appLabels);
  // Keyed `appId \0 method \0 status`; requests before the app is known count as app `none`.
  const httpRequests = talliedCounter(registry, 'realtime_http_requests_total', 'HTTP requests answered on the public port (HTTP API, health, metrics, 404/405), by status (app_id "none" when no app was resolved)', ['app_id', 'method', 'status'], (key) => {
    const [appId = '', method = '', status = ''] = key.split('\u0000');
    return { app_id: appId || 'none', method, status };
  });
  const rateLimited = new Counter({ name: 'realtime_rate_limited_total', help: 'HTTP API requests and client events refused by a rate limit, by kind: backend_events, read or client_events', labelNames: ['app_id', 'kind'], registers: [registry] });
  const subscriptionsRefused = new Counter({
    name: 'realtime_subscriptions_refused_total',
    help: 'Subscriptions refused: invalid_channel, auth, invalid_presence_data, presence_full or channel_limit (max_channels_per_connection)',
    labelNames: ['app_id', 'reason'],
    registers: [registry],
  });
  // Tallied: under a flood this counts every dropped frame.
  const framesRefused = talliedCounter(
    registry,
    'realtime_frames_refused_total',
    'Client frames refused before any handler: invalid_json, too_deep (max_json_depth), invalid_shape, binary or rate_limited (max_frames_per_second)',
    ['app_id', 'reason'],
    (key) => {
      const [appId = '', reason = ''] = key.split('\u0000');
      return { app_id: appId, reason };
    },
  );
  const floodClosed = new Counter({ name: 'realtime_connections_flood_closed_total', help: 'Connections closed (4100) for flooding far over max_frames_per_second', labelNames: labels, registers: [registry] });
  const handlerFailures = new Counter({
    name: 'realtime_handler_failures_total',
    help: 'Frames or cluster messages whose handler failed (a bug or a scaler error), by kind: answered, logged, the node kept running',
    labelNames: ['kind'],
    registers: [registry],
  });
  const webhookDeliveries = new Counter({ name: 'realtime_webhook_deliveries_total', help: 'Webhook requests a receiver accepted (2xx)', labelNames: labels, registers: [registry] });
  const webhookEvents = new Counter({ name: 'realtime_webhook_events_delivered_total', help: 'Webhook events in accepted requests', labelNames: labels, registers: [registry] });
  const webhookFailures = new Counter({ name: 'realtime_webhook_failures_total', help: 'Failed webhook attempts, by reason: http_status, timeout, network or aborted (each is retried while the retry window lasts)', labelNames: ['app_id', 'reason'], registers: [registry] });
  const webhookDropped = new Counter({ name: 'realtime_webhook_events_dropped_total', help: 'Webhook events given up: queue_full (oldest over max_queue_bytes), expired (5 min of retries) or shutdown', labelNames: ['app_id', 'reason'], registers: [registry] });
  // Not per app: the transport refuses these before (or without) knowing the app. Both label sets are fixed by the transport.
  const transportRefused = new Counter({
    name: 'realtime_transport_refused_total',
    help: 'Refused at a transport size limit: frame_too_large (WebSocket close 1009), body_too_large (HTTP 413), head_too_large (HTTP 431)',
    labelNames: ['reason'],
    registers: [registry],
  });
  const transportErrors = new Counter({ name: 'realtime_transport_errors_total', help: 'Exceptions caught in uWebSockets.js callbacks (a bug), by callback; the process kept running', labelNames: ['where'], registers: [registry] });
  for (const reason of transportRefusals) transportRefused.inc({ reason }, 0);
  for (const where of transportCallbacks) transportErrors.inc({ where }, 0);
  for (const kind of handlerKinds) handlerFailures.inc({ kind }, 0);

  const webhookObserver: DeliveryObserver = {
    delivered(appId, events) {
      webhookDeliveries.inc({ app_id: appId });
      webhookEvents.inc({ app_id: appId }, events);
    },
    failed: (appId, code) => webhookFailures.inc({ app_id: appId, reason: code.toLowerCase() }),
    dropped: (appId, reason, events) => webhookDropped.inc({ app_id: appId, reason }, events),
  };

  return {
    registry,
    /** Subscribes the counters to an engine's events. */
    observe(server: RealtimeServer): void {
      server.events.on('connection.opened', ({ connection }) => {
        connections.inc({ app_id: connection.app.id });
        opened.inc({ app_id: connection.app.id });
      });
      server.events.on('connection.closed', ({ connection }) => {
        connections.dec({ app_id: connection.app.id });
        closed.inc({ app_id: connection.app.id });
      });
      server.events.on('connection.refused', ({ app, code }) => refused.inc({ app_id: app?.id ?? 'unknown', code: String(code) }));
      server.events.on('message.received', ({ connection, bytes }) => {
        messagesIn(connection.app.id);
        bytesIn(connection.app.id, bytes);
      });
      server.events.on('client.event.rate_limited', ({ app }) => rateLimited.inc({ app_id: app.id, kind: 'client_events' }));
      server.events.on('subscription.refused', ({ app, reason }) => subscriptionsRefused.inc({ app_id: app.id, reason }));
      server.events.on('frame.refused', ({ app, reason }) => framesRefused(`${app.id}\u0000${reason}`));
      server.events.on('connection.flood_closed', ({ app }) => floodClosed.inc({ app_id: app.id }));
      server.events.on('handler.failed', ({ kind }) => handlerFailures.inc({ kind }));
      server.events.on('message.sent', ({ app, recipients, bytes }) => {
        if (recipients === 0) return;
        messagesOut(app.id, recipients);
        bytesOut(app.id, bytes);
      });
    },
    recordHttp(appId: string | undefined, requestMethod: string, status: number): void {
      // Clients choose the method: anything unusual is one label value, so they cannot grow the series.
      const method = knownMethods.has(requestMethod) ? requestMethod : 'OTHER';
      httpRequests(`${appId ?? ''}\u0000${method}\u0000${status}`);
    },
    /** Called each time an HTTP API rate limit refuses a request (client events are counted from engine events). */
    recordRateLimited(appId: string, kind: RateLimitKind): void {
      rateLimited.inc({ app_id: appId, kind });
    },
    /** Pass as the transport's `onRefused`. */
    recordTransportRefusal(reason: TransportRefusal): void {
      transportRefused.inc({ reason });
    },
    /** Called from the transport's `onError`. */
    recordTransportError(where: TransportCallback): void {
      transportErrors.inc({ where });
    },
    /** Exports the Redis scaler's outbox and bus counters, read from `stats` on each scrape. */
    observeScaler(stats: () => RedisScalerStats): void {
      const gauge = (name: string, help: string, value: (s: RedisScalerStats) => number) =>
        new Gauge({ name, help, registers: [registry], collect() { this.set(value(stats())); } });
      const counter = (name: string, help: string, value: (s: RedisScalerStats) => number) =>
        new Counter({ name, help, registers: [registry], collect() { this.reset(); this.inc(value(stats())); } });
      gauge('realtime_scaling_outbox_messages', 'Cluster messages held in the outbox while Redis is unreachable (sent in order once it is back)', (s) => s.outboxMessages);
      gauge('realtime_scaling_outbox_bytes', 'Bytes of the cluster messages held in the outbox', (s) => s.outboxBytes);
      counter('realtime_scaling_outbox_dropped_total', 'Cluster messages the outbox dropped, oldest first, past scaling.outbox_max_seconds or scaling.outbox_max_bytes', (s) => s.outboxDropped);
      counter('realtime_scaling_messages_dropped_total', 'Cluster messages of this node that never reached the bus (outbox bounds, or stopped while Redis was down)', (s) => s.droppedMessages);
      counter('realtime_scaling_messages_missed_total', 'Cluster messages of other nodes this node never received (it was cut off from Redis while they published)', (s) => s.missedMessages);
      counter('realtime_scaling_messages_duplicate_total', 'Cluster messages received twice (resent after an unconfirmed publish, or sent again after an outage) and ignored', (s) => s.duplicateMessages);
      counter('realtime_scaling_messages_replayed_total', 'Cluster messages of this node that Redis confirmed shortly before an outage, sent again after it in case that Redis lost them', (s) => s.replayedMessages);
      counter('realtime_scaling_messages_invalid_total', 'Malformed payloads on the cluster bus, ignored', (s) => s.invalidMessages);
      // Routing: what reaches this node, by kind of topic (a channel's topic, or the node-wide bus), and the channel topics it listens to.
      const byTopicKind = (name: string, help: string, value: (s: RedisScalerStats) => Record<'channel' | 'node', number>) =>
        new Counter({
          name,
          help,
          labelNames: ['topic_kind'],
          registers: [registry],
          collect() {
            const counts = value(stats());
            this.reset();
            this.inc({ topic_kind: 'channel' }, counts.channel);
            this.inc({ topic_kind: 'node' }, counts.node);
          },
        });
      byTopicKind('realtime_scaling_bus_messages_received_total', 'Cluster messages this node received from Redis (its own echoes included), by topic kind: channel (a channel this node serves) or node (the node-wide bus)', (s) => s.busMessagesReceived);
      byTopicKind('realtime_scaling_bus_messages_published_total', 'Cluster messages this node published to Redis (resends not counted), by topic kind: channel or node (the node-wide bus, copies for nodes that hear only it included)', (s) => s.busMessagesPublished);
      gauge('realtime_scaling_topics', 'Channel topics this node is subscribed to (channels with a local subscriber, plus lingering ones)', (s) => s.topics);
      gauge('realtime_scaling_topics_lingering', 'Channel topics without a local subscriber, still subscribed until scaling.topic_linger_ms passes', (s) => s.lingeringTopics);
      counter('realtime_scaling_topic_subscribes_total', 'Channel topics this node subscribed to (first local subscriber, not within the linger)', (s) => s.topicSubscribes);
      counter('realtime_scaling_topic_unsubscribes_total', 'Channel topics this node unsubscribed from (after the linger, or past the bound of lingering topics)', (s) => s.topicUnsubscribes);
    },
    /** Pass to `createWebhooks({ observer })`. */
    webhookObserver,
    render(): Promise<{ contentType: string; body: string }> {
      return exposition(registry);
    },
  };
}

export type Metrics = ReturnType<typeof createMetrics>;
