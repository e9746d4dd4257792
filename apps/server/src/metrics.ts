import type { RealtimeServer } from '@org/protocol';
import { Counter, Gauge, Registry, collectDefaultMetrics } from 'prom-client';
import type { DeliveryObserver } from './webhooks/index.js';

/** What a rate limiter refused: client events on a socket, HTTP API triggers or reads. */
export type RateLimitKind = 'client_events' | 'backend_events' | 'read' | (string & {});

const knownMethods = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

interface MessageTally {
  messagesIn: number;
  bytesIn: number;
  messagesOut: number;
  bytesOut: number;
}

/**
 * Prometheus metrics, labelled by app. Counters are fed from engine events,
 * so the delivery path itself does no metrics work beyond one emit.
 */
export function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'realtime_process_' });
  const labels = ['app_id'] as const;
  const connected = new Gauge({ name: 'realtime_connected', help: 'Open WebSocket connections', labelNames: labels, registers: [registry] });
  const newConnections = new Counter({ name: 'realtime_new_connections_total', help: 'WebSocket connections opened', labelNames: labels, registers: [registry] });
  const disconnections = new Counter({ name: 'realtime_new_disconnections_total', help: 'WebSocket connections closed', labelNames: labels, registers: [registry] });
  const refused = new Counter({ name: 'realtime_connections_refused_total', help: 'WebSocket connections refused, by Pusher error code', labelNames: ['app_id', 'code'], registers: [registry] });
  // Per-message counts are plain numbers bumped on the hot path and copied into prom-client
  // when scraped: a labelled inc hashes its label object, four times per message otherwise.
  const tallies = new Map<string, MessageTally>();
  const tallyOf = (appId: string): MessageTally => {
    let tally = tallies.get(appId);
    if (!tally) tallies.set(appId, (tally = { messagesIn: 0, bytesIn: 0, messagesOut: 0, bytesOut: 0 }));
    return tally;
  };
  const tallied = (name: string, help: string, field: keyof MessageTally) =>
    new Counter({
      name,
      help,
      labelNames: labels,
      registers: [registry],
      collect() {
        this.reset();
        for (const [appId, tally] of tallies) this.inc({ app_id: appId }, tally[field]);
      },
    });
  tallied('realtime_ws_messages_received_total', 'Frames received from clients', 'messagesIn');
  tallied('realtime_socket_received_bytes', 'Bytes received from clients', 'bytesIn');
  tallied('realtime_ws_messages_sent_total', 'Channel events delivered to local sockets', 'messagesOut');
  tallied('realtime_socket_transmitted_bytes', 'Bytes of channel events delivered to local sockets', 'bytesOut');
  // Per request, like the per-message counts: a number per (app, method, status), copied on scrape.
  const httpTallies = new Map<string, { labels: { app_id: string; method: string; status: string }; count: number }>();
  new Counter({
    name: 'realtime_http_calls_received_total',
    help: 'HTTP API requests by status',
    labelNames: ['app_id', 'method', 'status'],
    registers: [registry],
    collect() {
      this.reset();
      for (const { labels: callLabels, count } of httpTallies.values()) this.inc(callLabels, count);
    },
  });
  const rateLimited = new Counter({ name: 'realtime_rate_limited_total', help: 'Requests and client events refused by a rate limit', labelNames: ['app_id', 'kind'], registers: [registry] });
  const webhookDeliveries = new Counter({ name: 'realtime_webhook_deliveries_total', help: 'Webhook requests a receiver accepted (2xx)', labelNames: labels, registers: [registry] });
  const webhookEvents = new Counter({ name: 'realtime_webhook_events_delivered_total', help: 'Webhook events in accepted requests', labelNames: labels, registers: [registry] });
  const webhookFailures = new Counter({ name: 'realtime_webhook_failures_total', help: 'Failed webhook attempts (each is retried while the retry window lasts)', labelNames: ['app_id', 'reason'], registers: [registry] });
  const webhookDropped = new Counter({ name: 'realtime_webhook_events_dropped_total', help: 'Webhook events given up: queue_full, expired (5 min of retries) or shutdown', labelNames: ['app_id', 'reason'], registers: [registry] });

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
        connected.inc({ app_id: connection.app.id });
        newConnections.inc({ app_id: connection.app.id });
      });
      server.events.on('connection.closed', ({ connection }) => {
        connected.dec({ app_id: connection.app.id });
        disconnections.inc({ app_id: connection.app.id });
      });
      server.events.on('connection.refused', ({ app, code }) => refused.inc({ app_id: app?.id ?? 'unknown', code: String(code) }));
      server.events.on('message.received', ({ connection, bytes }) => {
        const tally = tallyOf(connection.app.id);
        tally.messagesIn += 1;
        tally.bytesIn += bytes;
      });
      server.events.on('client.event.rate_limited', ({ app }) => rateLimited.inc({ app_id: app.id, kind: 'client_events' }));
      server.events.on('message.sent', ({ app, recipients, bytes }) => {
        if (recipients === 0) return;
        const tally = tallyOf(app.id);
        tally.messagesOut += recipients;
        tally.bytesOut += bytes;
      });
    },
    recordHttp(appId: string | undefined, requestMethod: string, status: number): void {
      // Clients choose the method: anything unusual is one label value, so they cannot grow the series.
      const method = knownMethods.has(requestMethod) ? requestMethod : 'OTHER';
      const key = `${appId ?? ''}\u0000${method}\u0000${status}`;
      const tally = httpTallies.get(key);
      if (tally) tally.count += 1;
      else httpTallies.set(key, { labels: { app_id: appId ?? 'none', method, status: String(status) }, count: 1 });
    },
    /** Called each time an HTTP API rate limit refuses a request (client events are counted from engine events). */
    recordRateLimited(appId: string, kind: RateLimitKind): void {
      rateLimited.inc({ app_id: appId, kind });
    },
    /** Pass to `createWebhooks({ observer })`. */
    webhookObserver,
    async render(): Promise<{ contentType: string; body: string }> {
      return { contentType: registry.contentType, body: await registry.metrics() };
    },
  };
}

export type Metrics = ReturnType<typeof createMetrics>;
