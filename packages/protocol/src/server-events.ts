import type { App } from './app.js';
import type { Connection } from './connection.js';

/**
 * Events the engine reports to its host (metrics, webhooks, the host app). Open to packages that
 * emit on an engine's `server.events` what the engine itself does not do: each declares its events
 * here by module augmentation (`declare module '@org/protocol' { interface ServerEventMap { ... } }`),
 * as `@org/rest-api` declares `http.api.response`.
 */
export interface ServerEventMap {
  'connection.opened': { connection: Connection };
  'connection.closed': { connection: Connection };
  'connection.refused': { app: App | undefined; code: number; reason: string };
  'channel.occupied': { app: App; channel: string };
  'channel.vacated': { app: App; channel: string };
  'member.added': { app: App; channel: string; userId: string };
  'member.removed': { app: App; channel: string; userId: string };
  'client.event': { app: App; channel: string; event: string; data: unknown; socketId: string; userId: string | undefined };
  'cache.miss': { app: App; channel: string };
  /**
   * A channel's cluster-wide subscription count after changes made on this node (apps with
   * `enableSubscriptionCount`), coalesced as its subscribers' frames are: at most one per channel per interval and node.
   */
  'subscription.count': { app: App; channel: string; count: number };
  /** A client event dropped because its connection sent more than the app allows per second (4301). */
  'client.event.rate_limited': { app: App; channel: string; event: string; socketId: string };
  /** A `pusher:signin` refused (closed with 4009): bad user_data, bad signature, or a watchlist bad or over `maxWatchlistSize`. */
  'signin.refused': { app: App; reason: SigninRefusalReason };
  /** A subscription refused: bad channel name or auth, presence full or bad channel_data, or the connection's channel limit. */
  'subscription.refused': { app: App; channel: string; reason: SubscriptionRefusalReason };
  /**
   * A frame refused before any handler: not JSON, nested deeper than `maxJsonDepth`, not a
   * `{"event": ...}` object, or over the connection's `maxFramesPerSecond`.
   */
  'frame.refused': { app: App; reason: FrameRefusalReason };
  /** A connection closed (4100) for sending frames far over `maxFramesPerSecond`. */
  'connection.flood_closed': { app: App; socketId: string };
  /**
   * A connection closed (4009) for not authorizing itself (signing in, or a private- or presence-
   * subscription) within `userAuthenticationTimeout` seconds of opening, on an app with `enableUserAuthentication`.
   */
  'connection.unauthorized_closed': { app: App; socketId: string };
  /**
   * A handler threw or rejected on a client's frame or a cluster message: a bug, answered
   * to the sender with a `pusher:error`; the connection and the node stay up.
   */
  'handler.failed': { app: App | undefined; kind: HandlerKind; error: unknown };
  /** A frame received from a client, with its size in bytes (UTF-16 length as an approximation). */
  'message.received': { connection: Connection; bytes: number; event: string };
  /** A channel event sent to `recipients` local sockets. */
  'message.sent': { app: App; channel: string; event: string; recipients: number; bytes: number };
  /** Another node (or `restart_server` through the cluster bus) asked every node to restart. */
  'cluster.restart': Record<string, never>;
}

export type SigninRefusalReason = 'invalid_user_data' | 'auth' | 'invalid_watchlist' | 'watchlist_too_long';
export type SubscriptionRefusalReason = 'invalid_channel' | 'auth' | 'invalid_presence_data' | 'presence_full' | 'channel_limit';
export type FrameRefusalReason = 'invalid_json' | 'too_deep' | 'invalid_shape' | 'binary' | 'rate_limited';
/** Where a handler failure happened: a fixed set, safe as a metric label. */
export type HandlerKind = 'subscribe' | 'unsubscribe' | 'signin' | 'client_event' | 'frame' | 'cluster_message' | 'node_loss' | 'member_event' | 'subscription_count';

export type ServerEventName = keyof ServerEventMap;
export type ServerEventListener<E extends ServerEventName> = (payload: ServerEventMap[E]) => void;

/**
 * A small typed emitter. Listeners run synchronously but are isolated: one
 * that throws, or returns a promise that rejects, is reported through
 * `onListenerError` and never reaches the delivery path. Emitting with no
 * listeners costs one map lookup.
 */
export class ServerEvents {
  readonly #listeners = new Map<ServerEventName, Set<(payload: never) => void>>();
  onListenerError: (error: unknown, event: ServerEventName) => void = () => {};

  on<E extends ServerEventName>(event: E, listener: ServerEventListener<E>): () => void {
    let set = this.#listeners.get(event);
    if (!set) this.#listeners.set(event, (set = new Set()));
    set.add(listener as (payload: never) => void);
    return () => set.delete(listener as (payload: never) => void);
  }

  has(event: ServerEventName): boolean {
    return (this.#listeners.get(event)?.size ?? 0) > 0;
  }

  emit<E extends ServerEventName>(event: E, payload: ServerEventMap[E]): void {
    const set = this.#listeners.get(event);
    if (!set || set.size === 0) return;
    for (const listener of set) {
      try {
        const result: unknown = (listener as ServerEventListener<E>)(payload);
        // An async listener's rejection would otherwise be unhandled and could end the process.
        if (result instanceof Promise) result.catch((error: unknown) => this.onListenerError(error, event));
      } catch (error) {
        this.onListenerError(error, event);
      }
    }
  }
}
