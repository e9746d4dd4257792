import type { RealtimeServer } from '@org/protocol';
import { Counter, Gauge, Registry, collectDefaultMetrics } from 'prom-client';

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
  const messagesIn = new Counter({ name: 'realtime_ws_messages_received_total', help: 'Frames received from clients', labelNames: labels, registers: [registry] });
  const bytesIn = new Counter({ name: 'realtime_socket_received_bytes', help: 'Bytes received from clients', labelNames: labels, registers: [registry] });
  const messagesOut = new Counter({ name: 'realtime_ws_messages_sent_total', help: 'Channel events delivered to local sockets', labelNames: labels, registers: [registry] });
  const bytesOut = new Counter({ name: 'realtime_socket_transmitted_bytes', help: 'Bytes of channel events delivered to local sockets', labelNames: labels, registers: [registry] });
  const httpCalls = new Counter({ name: 'realtime_http_calls_received_total', help: 'HTTP API requests by status', labelNames: ['app_id', 'method', 'status'], registers: [registry] });

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
        messagesIn.inc({ app_id: connection.app.id });
        bytesIn.inc({ app_id: connection.app.id }, bytes);
      });
      server.events.on('message.sent', ({ app, recipients, bytes }) => {
        if (recipients === 0) return;
        messagesOut.inc({ app_id: app.id }, recipients);
        bytesOut.inc({ app_id: app.id }, bytes);
      });
    },
    recordHttp(appId: string | undefined, method: string, status: number): void {
      httpCalls.inc({ app_id: appId ?? 'none', method, status: String(status) });
    },
    async render(): Promise<{ contentType: string; body: string }> {
      return { contentType: registry.contentType, body: await registry.metrics() };
    },
  };
}

export type Metrics = ReturnType<typeof createMetrics>;
