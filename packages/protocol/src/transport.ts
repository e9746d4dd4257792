/**
 * What a transport does for the engine (uWebSockets.js in production, the
 * in-memory one in tests). Its operations are server-wide and take the
 * transport's own handle for a socket (a uWS `WebSocket`, a test socket): the
 * engine keeps that handle on its record of the connection and hands it back,
 * so nothing wraps a socket per connection.
 *
 * The engine never passes a socket again once it asked `close` for it or the
 * transport reported its close (`RealtimeServer.close`).
 */
export interface Transport<S = unknown> {
  /** Sends one text frame. */
  send(socket: S, frame: string): void;
  /**
   * Closes with a WebSocket close code and reason. The transport then reports
   * the close to the engine, at once or soon after.
   */
  close(socket: S, code: number, reason: string): void;
  /** Joins a fan-out topic. */
  subscribe(socket: S, topic: string): void;
  /** Leaves a fan-out topic. */
  unsubscribe(socket: S, topic: string): void;
  /** Every socket on `topic` receives `frame`, except `except` when given. */
  publish(topic: string, frame: string, except?: S): void;
  /** How many sockets of this node are on `topic`. */
  subscriberCount(topic: string): number;
}

/** What a transport tells the engine about a new connection. */
export interface ConnectionRequest {
  /** The `{key}` of `/app/{key}`. */
  appKey: string;
  /** The `Origin` header, when sent. */
  origin?: string | undefined;
  /** The `protocol` query parameter, when given. */
  protocol?: string | undefined;
  /** The peer's address, for logs. */
  remoteAddress?: string | undefined;
}
