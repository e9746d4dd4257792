import type { Transport } from '@org/protocol';
import type { TemplatedApp, WebSocket } from 'uWebSockets.js';
import type { SocketUserData } from './user-data.js';

export type UwsWebSocket = WebSocket<SocketUserData>;

/**
 * The engine's transport over one uWS app: the engine holds each socket's
 * `WebSocket` and hands it back here, so no object wraps a socket. uWS throws
 * on any use of a closed socket; the engine never uses one after it asked to
 * close it or heard of its close (which uWS reports at once, from `end`).
 */
export function createUwsTransport(app: TemplatedApp): Transport<UwsWebSocket> {
  return {
    send(ws, frame) {
      // A frame over the backpressure limit is dropped and uWS closes the socket (closeOnBackpressureLimit).
      ws.send(frame, false);
    },
    close(ws, code, reason) {
      ws.end(code, reason);
    },
    subscribe(ws, topic) {
      ws.subscribe(topic);
    },
    unsubscribe(ws, topic) {
      ws.unsubscribe(topic);
    },
    publish(topic, frame, except) {
      // A socket's own publish reaches every subscriber but itself.
      if (except) except.publish(topic, frame, false);
      else app.publish(topic, frame, false);
    },
    subscriberCount(topic) {
      return app.numSubscribers(topic);
    },
  };
}
