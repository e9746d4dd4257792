import type { App } from './app.js';
import type { Connection } from './connection.js';
import type { RealtimeServer } from './realtime-server.js';
import type { ServerEventMap, ServerEventName } from './server-events.js';

/**
 * The events a host application embedding the server can subscribe to, in
 * the original server's names. Payloads are documented in the README.
 */
export interface HostEventMap {
  /** A client completed the handshake (`pusher:connection_established` was sent). */
  'Realtime.WebSocket.connectionEstablished': { connection: Connection; app: App; socketId: string };
  /** An established connection closed, for any reason. */
  'Realtime.WebSocket.connectionClosed': { connection: Connection; app: App; socketId: string };
  /** A channel got its first subscriber in the cluster (reported on one node). */
  'Realtime.WebSocket.channelCreated': { app: App; channel: string };
  /** A channel lost its last subscriber in the cluster (reported on one node). */
  'Realtime.WebSocket.channelRemoved': { app: App; channel: string };
  /** A frame from a client; `event` is its event name ('' when it was not valid JSON). */
  'Realtime.WebSocket.messageReceived': { connection: Connection; app: App; event: string; bytes: number };
  /** A channel event was delivered to `recipients` sockets on this node. */
  'Realtime.WebSocket.messageSent': { app: App; channel: string; event: string; recipients: number; bytes: number };
  /**
   * The HTTP API answered a request (`route` is the pattern, e.g. `/apps/:appId/events`): its
   * `http.api.response` event, which `@org/rest-api` emits (and a host for the routes it serves itself).
   */
  'Realtime.WebSocket.HttpApiEvent': { app: App | undefined; method: string; route: string; status: number };
}

export type HostEventName = keyof HostEventMap;
/** May be async; its promise is not awaited. */
export type HostEventListener<E extends HostEventName> = (payload: HostEventMap[E]) => void | Promise<void>;

/**
 * The event an HTTP API emits on `server.events` after each answer. The engine serves no HTTP, so
 * its event map does not declare it: `@org/rest-api`, which emits it, declares it there (by
 * augmenting `ServerEventMap`). Host events need only its name and the fields they pass on.
 */
const httpApiResponse = 'http.api.response';

/** What feeds a host event: an engine event, or the HTTP API's. */
type SourceName = ServerEventName | typeof httpApiResponse;

/** Which engine event feeds each host event, and how its payload is shaped. */
const sources: { [E in HostEventName]: { from: SourceName; map: (payload: never) => HostEventMap[E] } } = {
  'Realtime.WebSocket.connectionEstablished': {
    from: 'connection.opened',
    map: ({ connection }: ServerEventMap['connection.opened']) => ({ connection, app: connection.app, socketId: connection.socketId }),
  },
  'Realtime.WebSocket.connectionClosed': {
    from: 'connection.closed',
    map: ({ connection }: ServerEventMap['connection.closed']) => ({ connection, app: connection.app, socketId: connection.socketId }),
  },
  'Realtime.WebSocket.channelCreated': { from: 'channel.occupied', map: ({ app, channel }: ServerEventMap['channel.occupied']) => ({ app, channel }) },
  'Realtime.WebSocket.channelRemoved': { from: 'channel.vacated', map: ({ app, channel }: ServerEventMap['channel.vacated']) => ({ app, channel }) },
  'Realtime.WebSocket.messageReceived': {
    from: 'message.received',
    map: ({ connection, event, bytes }: ServerEventMap['message.received']) => ({ connection, app: connection.app, event, bytes }),
  },
  'Realtime.WebSocket.messageSent': {
    from: 'message.sent',
    map: ({ app, channel, event, recipients, bytes }: ServerEventMap['message.sent']) => ({ app, channel, event, recipients, bytes }),
  },
  'Realtime.WebSocket.HttpApiEvent': {
    from: httpApiResponse,
    map: ({ app, method, route, status }: HostEventMap['Realtime.WebSocket.HttpApiEvent']) => ({ app, method, route, status }),
  },
};

export interface HostEvents {
  /** Subscribes; returns the unsubscribe function. */
  on<E extends HostEventName>(name: E, listener: HostEventListener<E>): () => void;
  /** Removes every listener added through this object. */
  off(): void;
}

/**
 * The host application's view of an engine's events. Listeners run in a
 * microtask after the engine finished the work that caused the event, so
 * a listener never runs inside delivery; one that throws or rejects is
 * reported like any engine listener (`server.events.onListenerError`, logged
 * by the engine) and the others still run. A listener that blocks the event
 * loop blocks everything in the process: move heavy work off it.
 */
export function hostEvents(server: RealtimeServer): HostEvents {
  const unsubscribers = new Set<() => void>();
  return {
    on(name, listener) {
      const source = sources[name] as { from: SourceName; map: (payload: unknown) => HostEventMap[typeof name] };
      // Typed by name only: the HTTP API's event is declared by the package that emits it.
      const from = source.from as ServerEventName;
      const report = (error: unknown) => server.events.onListenerError(error, from);
      const off = server.events.on(from, (payload) => {
        queueMicrotask(() => {
          try {
            const result = listener(source.map(payload));
            if (result instanceof Promise) result.catch(report);
          } catch (error) {
            report(error);
          }
        });
      });
      const unsubscribe = () => {
        off();
        unsubscribers.delete(unsubscribe);
      };
      unsubscribers.add(unsubscribe);
      return unsubscribe;
    },
    off() {
      for (const unsubscribe of [...unsubscribers]) unsubscribe();
    },
  };
}
