import { ErrorCode, frames, type RealtimeServer } from '@org/protocol';
import type { HttpRequest, HttpResponse, WebSocketBehavior, us_socket_context_t } from 'uWebSockets.js';
import type { SocketUserData } from './user-data.js';
import { UwsSocket } from './uws-socket.js';

export interface WebSocketBehaviorOptions {
  /** Largest frame accepted; uWS drops the connection on a bigger one (the client sees 1006). */
  maxPayloadLength: number;
  /** Bytes buffered for a slow client before uWS closes it. */
  maxBackpressure: number;
}

// uWS itself closes a connection that sends a text frame with invalid UTF-8, so decoding cannot fail here.
const decoder = new TextDecoder('utf-8');

function queryParameter(query: string, name: string): string | undefined {
  const value = new URLSearchParams(query).get(name);
  return value === null ? undefined : value;
}

/**
 * The uWS behaviour for `/app/:key`. The app is looked up during the upgrade
 * (possibly async), the engine takes over in `open`.
 */
export function createWebSocketBehavior(server: RealtimeServer, options: WebSocketBehaviorOptions): WebSocketBehavior<SocketUserData> {
  return {
    maxPayloadLength: options.maxPayloadLength,
    maxBackpressure: options.maxBackpressure,
    closeOnBackpressureLimit: 1,
    // The engine runs the Pusher-level ping; uWS only reaps dead TCP peers.
    idleTimeout: 0,
    sendPingsAutomatically: false,

    upgrade(res: HttpResponse, req: HttpRequest, context: us_socket_context_t) {
      // HttpRequest is only valid synchronously: copy everything first.
      const appKey = req.getParameter(0) ?? '';
      const query = req.getQuery() ?? '';
      const origin = req.getHeader('origin') || undefined;
      const key = req.getHeader('sec-websocket-key');
      const protocol = req.getHeader('sec-websocket-protocol');
      const extensions = req.getHeader('sec-websocket-extensions');
      const remoteAddress = Buffer.from(res.getRemoteAddressAsText()).toString();
      const request = { appKey, origin, protocol: queryParameter(query, 'protocol'), remoteAddress };

      const upgrade = (app: SocketUserData['app']) =>
        res.upgrade<SocketUserData>({ app, request, socket: undefined, connection: undefined }, key, protocol, extensions, context);

      const found = server.findApp(appKey);
      if (!(found instanceof Promise)) return void upgrade(found);
      let aborted = false;
      res.onAborted(() => (aborted = true));
      void found.then(
        (app) => !aborted && res.cork(() => upgrade(app)),
        () => !aborted && res.cork(() => res.writeStatus('500 Internal Server Error').end()),
      );
    },

    open(ws) {
      const data = ws.getUserData();
      const socket = new UwsSocket(ws);
      data.socket = socket;
      if (!data.request) return;
      data.connection = server.open(socket, data.app, data.request);
      // Only the handshake needs it; 10,000 idle sockets would otherwise each keep its strings.
      data.request = undefined;
    },

    message(ws, message, isBinary) {
      const { connection, socket } = ws.getUserData();
      if (!connection || !socket) return;
      if (isBinary) {
        socket.send(frames.errorFrame(ErrorCode.ReconnectNow, 'Binary frames are not supported; send JSON text.'));
        return;
      }
      server.message(connection, decoder.decode(message));
    },

    close(ws) {
      const { connection, socket } = ws.getUserData();
      if (socket) socket.closed = true;
      if (connection) server.close(connection);
    },
  };
}
