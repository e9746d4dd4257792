/**
 * The engine's view of one client connection. A transport (uWebSockets.js,
 * or the in-memory one in tests) implements it; the engine never sees the
 * underlying socket library.
 */
export interface Socket {
  /** Sends one text frame; false when the socket is closed or the frame was dropped. */
  send(frame: string): boolean;
  /** Closes with a WebSocket close code and reason. */
  close(code: number, reason: string): void;
  /** Joins a fan-out topic. */
  subscribe(topic: string): void;
  /** Leaves a fan-out topic. */
  unsubscribe(topic: string): void;
  /** Publishes to a topic, skipping this socket (for client events and `socket_id` exclusion). */
  publishExceptSelf(topic: string, frame: string): void;
  /** Runs `fn` with writes batched into one syscall where the transport can. */
  cork(fn: () => void): void;
}

/** Server-wide fan-out: every socket subscribed to `topic` receives `frame`. */
export interface Publisher {
  publish(topic: string, frame: string): void;
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
