import type { RealtimeServer } from '@org/protocol';
import { Counter, Gauge, Registry } from 'prom-client';
import { z } from 'zod';
import { exposition, type Exposition } from './exposition.js';
import { handlerKinds, methodLabel, transportCallbacks, transportRefusals, type RateLimitKind, type TransportCallback, type TransportRefusal } from './label-values.js';
import { parseOptions } from './options.js';
import { processMetricsRegistry } from './process-metrics.js';
import { registerScalerMetrics, type ScalerStats } from './scaler-metrics.js';
import { talliedCounter } from './tallied-counter.js';
import { registerWebhookQueueMetrics, type WebhookQueueStats } from './webhook-queue-metrics.js';

export interface MetricsOptions {
  /**
   * Include the process's default metrics (`realtime_process_*`, `realtime_nodejs_*`). Default true.
   * False for a worker thread's metrics: they are the process's, added once to the workers' sum.
   */
  processMetrics?: boolean;
}

/**
 * What the webhook delivery reports (`@org/webhooks`' `DeliveryObserver`): pass
 * `metrics.webhookObserver` to `createWebhooks({ observer })`.
 */
export interface WebhookObserver {
  delivered(appId: string, events: number): void;
  /** `code`: the delivery's failure code (`HTTP_STATUS`, `TIMEOUT`...), counted lower-cased as the `reason`. */
  failed(appId: string, code: string): void;
  dropped(appId: string, reason: string, events: number): void;
}

export interface Metrics {
  /** The registry every series is in (the process's default metrics too, unless left out). */
  readonly registry: Registry;
  /** Subscribes the counters to an engine's events. */
  observe(server: RealtimeServer): void;
  /** Counts one HTTP answer: `appId` undefined before an app was resolved (`app_id="none"`). */
  recordHttp(appId: string | undefined, method: string, status: number): void;
  /** Called each time an HTTP API rate limit refuses a request (client events are counted from engine events). */
  recordRateLimited(appId: string, kind: RateLimitKind): void;
  /** Pass as the transport's `onRefused`. */
  recordTransportRefusal(reason: TransportRefusal): void;
  /** Called from the transport's `onError`. */
  recordTransportError(where: TransportCallback): void;
  /** Exports a scaler's outbox and bus counters (`realtime_scaling_*`), read from `stats` on each scrape. */
  observeScaler(stats: () => ScalerStats): void;
  /** Pass to `createWebhooks({ observer })`. */
  readonly webhookObserver: WebhookObserver;
  /** Exports the webhook queues' gauges (`realtime_webhook_requests_in_flight`, `_queued_bytes`), read from `stats` on each scrape: pass `() => webhooks.queues()`. */
  observeWebhooks(stats: () => readonly WebhookQueueStats[]): void;
  /** The registry in the text exposition format, for a `GET /metrics`. */
  render(): Promise<Exposition>;
}

const optionsSchema = z.object({ processMetrics: z.boolean({ error: 'processMetrics must be true or false' }).optional() });

const appLabels = (appId: string) => ({ app_id: appId });

/**
 * Prometheus metrics, labelled by app. Counters are fed from engine events,
 * so the delivery path itself does no metrics work beyond one emit.
 */
export function createMetrics(options: MetricsOptions = {}): Metrics {
  const { processMetrics } = parseOptions(optionsSchema, options, 'createMetrics');
  // A registry of this daemon's own, holding the process's default metrics too (a worker thread's
  // leaves them out: they are the process's, and the main thread adds them once to the workers' sum).
  const registry = processMetrics === false ? new Registry() : Registry.merge([processMetricsRegistry()]);
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
  const signinsRefused = new Counter({
    name: 'realtime_signins_refused_total',
    help: 'pusher:signin refused (closed with 4009): invalid_user_data, auth, invalid_watchlist or watchlist_too_long (max_watchlist_size)',
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
  const unauthorizedClosed = new Counter({
    name: 'realtime_connections_unauthorized_closed_total',
    help: 'Connections closed (4009) for not signing in or subscribing to a private or presence channel within user_authentication_timeout (apps with enable_user_authentication)',
    labelNames: labels,
    registers: [registry],
  });
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

  return {
    registry,
    observe(server) {
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
      server.events.on('signin.refused', ({ app, reason }) => signinsRefused.inc({ app_id: app.id, reason }));
      server.events.on('frame.refused', ({ app, reason }) => framesRefused(`${app.id}\u0000${reason}`));
      server.events.on('connection.flood_closed', ({ app }) => floodClosed.inc({ app_id: app.id }));
      server.events.on('connection.unauthorized_closed', ({ app }) => unauthorizedClosed.inc({ app_id: app.id }));
      server.events.on('handler.failed', ({ kind }) => handlerFailures.inc({ kind }));
      server.events.on('message.sent', ({ app, recipients, bytes }) => {
        if (recipients === 0) return;
        messagesOut(app.id, recipients);
        bytesOut(app.id, bytes);
      });
    },
    recordHttp(appId, method, status) {
      httpRequests(`${appId ?? ''}\u0000${methodLabel(method)}\u0000${status}`);
    },
    recordRateLimited(appId, kind) {
      rateLimited.inc({ app_id: appId, kind });
    },
    recordTransportRefusal(reason) {
      transportRefused.inc({ reason });
    },
    recordTransportError(where) {
      transportErrors.inc({ where });
    },
    observeScaler(stats) {
      registerScalerMetrics(registry, stats);
    },
    observeWebhooks(stats) {
      registerWebhookQueueMetrics(registry, stats);
    },
    webhookObserver: {
      delivered(appId, events) {
        webhookDeliveries.inc({ app_id: appId });
        webhookEvents.inc({ app_id: appId }, events);
      },
      failed: (appId, code) => webhookFailures.inc({ app_id: appId, reason: code.toLowerCase() }),
      dropped: (appId, reason, events) => webhookDropped.inc({ app_id: appId, reason }, events),
    },
    render: () => exposition(registry),
  };
}
