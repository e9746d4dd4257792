import { STATUS_CODES } from 'node:http';
import type { RealtimeServer } from '@org/protocol';
import type { HttpRequest, HttpResponse, WebSocketBehavior, us_socket_context_t } from 'uWebSockets.js';
import {
  FRAME_TOO_LARGE_CLOSE_CODE,
  HEADER_LINE_OVERHEAD,
  requestLineSize,
  UWS_TOO_BIG_REASON,
  uwsPayloadCeiling,
  type TransportRefusal,
  type TransportRefusalHandler,
} from './limits.js';
import { DEFAULT_MAX_REQUEST_HEAD_SIZE } from './options.js';
import { createRateLimitedReporter, reportSafely, type TransportCallback, type TransportErrorHandler } from './transport-errors.js';
import type { SocketUserData, UpgradeDetails } from './user-data.js';

export interface WebSocketBehaviorOptions {
  /**
   * Largest frame accepted. A bigger one closes the connection with 1009
   * (Message Too Big) and a reason; past twice this, uWS stops reading and
   * drops the TCP connection without a close frame (the client sees 1006).
   */
  maxPayloadLength: number;
  /** Bytes buffered for a slow client before uWS closes it. */
  maxBackpressure: number;
  /** Upgrade requests whose head (request line and headers) is longer are refused with 431. Default 16 KiB. */
  maxHeadBytes?: number;
  /** Called once per connection closed for a frame over the limit (`frame_too_large`) and per upgrade refused for its head. */
  onRefused?: TransportRefusalHandler | undefined;
  /** Exceptions from the engine, caught before they reach uWS. Default: rate-limited console.error. */
  onError?: TransportErrorHandler | undefined;
}

// uWS itself closes a connection that sends a text frame with invalid UTF-8, so decoding cannot fail here.
const decoder = new TextDecoder('utf-8');
const INTERNAL_ERROR_CLOSE_CODE = 1011;

function queryParameter(query: string, name: string): string | undefined {
  const value = new URLSearchParams(query).get(name);
  return value === null ? undefined : value;
}

/**
 * The uWS behaviour for `/app/:key`. The app is looked up during the upgrade
 * (possibly async), the engine takes over in `open` and keeps the socket's
 * `WebSocket` as its handle (see createUwsTransport). Every callback catches
 * what the engine throws: an exception reaching uWS would end the process.
 */
export function createWebSocketBehavior(server: RealtimeServer, options: WebSocketBehaviorOptions): WebSocketBehavior<SocketUserData> {
  const { maxPayloadLength } = options;
  const maxHeadBytes = options.maxHeadBytes ?? DEFAULT_MAX_REQUEST_HEAD_SIZE;
  const onError = options.onError ?? createRateLimitedReporter();
  const report = (error: unknown, where: TransportCallback) => reportSafely(onError, error, where);
  const refused = (reason: TransportRefusal, where: TransportCallback) => {
    try {
      options.onRefused?.(reason);
    } catch (error) {
      report(error, where);
    }
  };
  const tooLargeReason = `Frame is larger than ${maxPayloadLength} bytes.`;

  return {
    maxPayloadLength: uwsPayloadCeiling(maxPayloadLength),
    maxBackpressure: options.maxBackpressure,
    closeOnBackpressureLimit: 1,
    // The engine runs the Pusher-level ping; uWS only reaps dead TCP peers.
    idleTimeout: 0,
    sendPingsAutomatically: false,

    upgrade(res: HttpResponse, req: HttpRequest, context: us_socket_context_t) {
      let answered = false;
      let aborted = false;
      const answerStatus = (status: number, body = '') => {
        if (answered || aborted) return;
        answered = true;
        res.cork(() => {
          res.writeStatus(`${status} ${STATUS_CODES[status] ?? ''}`);
          if (body) res.writeHeader('content-type', 'application/json; charset=UTF-8');
          res.end(body, true);
        });
      };
      const fail = (error: unknown) => {
        report(error, 'upgrade');
        try {
          answerStatus(500);
        } catch (writeError) {
          report(writeError, 'upgrade');
        }
      };
      try {
        // HttpRequest is only valid synchronously: copy everything first.
        const appKey = req.getParameter(0) ?? '';
        const query = req.getQuery() ?? '';
        let headSize = requestLineSize('GET', req.getUrl(), query);
        req.forEach((name, value) => (headSize += name.length + value.length + HEADER_LINE_OVERHEAD));
        if (headSize > maxHeadBytes) {
          refused('head_too_large', 'upgrade');
          return answerStatus(431, JSON.stringify({ error: `the request head is larger than ${maxHeadBytes} bytes`, code: 431 }));
        }
        const origin = req.getHeader('origin') || undefined;
        const key = req.getHeader('sec-websocket-key');
        const protocol = req.getHeader('sec-websocket-protocol');
        const extensions = req.getHeader('sec-websocket-extensions');
        const remoteAddress = Buffer.from(res.getRemoteAddressAsText()).toString();
        const request = { appKey, origin, protocol: queryParameter(query, 'protocol'), remoteAddress };

        const upgrade = (app: UpgradeDetails['app']) => {
          res.upgrade<SocketUserData>({ upgrade: { app, request }, connection: undefined }, key, protocol, extensions, context);
          answered = true;
        };

        const found = server.apps.findByKey(appKey);
        if (!(found instanceof Promise)) return upgrade(found);
        res.onAborted(() => (aborted = true));
        found.then(
          (app) => {
            if (aborted || answered) return;
            try {
              res.cork(() => upgrade(app));
            } catch (error) {
              fail(error);
            }
          },
          (error: unknown) => fail(error),
        );
      } catch (error) {
        fail(error);
      }
    },

    open(ws) {
      try {
        const data = ws.getUserData();
        const { upgrade } = data;
        if (!upgrade) return;
        // Only the handshake needs it; 10,000 idle sockets would otherwise each keep its strings.
        data.upgrade = undefined;
        data.connection = server.open(ws, upgrade.app, upgrade.request);
      } catch (error) {
        report(error, 'open');
        // The engine did not take the socket: nothing would ever serve it. (If it closed it already, uWS throws.)
        try {
          ws.end(INTERNAL_ERROR_CLOSE_CODE, 'Internal server error.');
        } catch (closeError) {
          report(closeError, 'open');
        }
      }
    },

    message(ws, message, isBinary) {
      try {
        const { connection } = ws.getUserData();
        if (!connection) return;
        if (message.byteLength > maxPayloadLength) {
          // uWS reports the close at once: the engine is done with the socket before the next line.
          ws.end(FRAME_TOO_LARGE_CLOSE_CODE, tooLargeReason);
          return refused('frame_too_large', 'message');
        }
        if (isBinary) {
          server.binaryMessage(connection, message.byteLength);
          return;
        }
        server.message(connection, decoder.decode(message));
      } catch (error) {
        // The socket stays open: one bad frame (or an engine bug it hits) must not cost the client its connection.
        report(error, 'message');
      }
    },

    close(ws, code, message) {
      try {
        const { connection } = ws.getUserData();
        // Past uWS's own ceiling the frame was never read: uWS dropped the connection, and says why only here.
        if (code === 1006 && message.byteLength === UWS_TOO_BIG_REASON.length && decoder.decode(message) === UWS_TOO_BIG_REASON) {
          refused('frame_too_large', 'close');
        }
        if (connection) server.close(connection);
      } catch (error) {
        report(error, 'close');
      }
    },
  };
}
