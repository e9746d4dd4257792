import type { App } from './app.js';
import type { ConnectionRecord, Membership } from './connection.js';
import type { Logger } from './logger.js';
import type { ClusterMessage, Scaler } from './scaler.js';
import type { ServerEventMap, ServerEventName } from './server-events.js';

/** A presence change as it crosses the bus: the engine alone turns it into frames. */
export type MemberMessage = Extract<ClusterMessage, { type: 'member-added' | 'member-removed' }>;

export interface EngineLog {
  connection: Logger;
  channel: Logger;
  handler: Logger;
  server: Logger;
}

/**
 * What a handler may do: the handlers of client frames (subscribe, sign-in,
 * client events) and the HTTP API's operations get this, never the engine.
 * They look up and record cluster state through the scaler, act on this
 * node's connections (send, refuse, join and leave channels, sign in),
 * deliver (broadcast, announce members), report (server events) and log.
 * The engine implements it once per node.
 */
export interface EngineContext {
  /** Cluster state, to look up and record, and the bus. */
  readonly scaler: Scaler;
  readonly log: EngineLog;
  /** Reports a server event (metrics, webhooks, the host application). */
  emit<E extends ServerEventName>(event: E, payload: ServerEventMap[E]): void;

  /** Sends a frame to one connection; nothing once it closed. */
  send(connection: ConnectionRecord, frame: string): void;
  /** Sends `pusher:error`, then closes with the same code. */
  refuse(connection: ConnectionRecord, code: number, reason: string): void;
  /**
   * The connection hears the membership's channel on this node from now on
   * (the membership turns active). For a cache channel, returns a function
   * that tells, once, whether an event a cache could hold reached it since:
   * the cache replay must not follow a newer live event.
   */
  join(connection: ConnectionRecord, membership: Membership): (() => boolean) | undefined;
  /** The connection no longer hears the channel (the membership turns inactive). */
  leave(connection: ConnectionRecord, membership: Membership): void;
  /** A presence subscriber waiting for its member snapshot hears member events (only) meanwhile. */
  awaitMembers(connection: ConnectionRecord, channel: string): void;
  stopAwaitingMembers(connection: ConnectionRecord, channel: string): void;
  /** The connection is `userId` from now on: it hears `#server-to-user-{userId}`, no longer a previous user's. */
  signIn(connection: ConnectionRecord, userId: string): void;

  /** An event to a channel's subscribers on every node, skipping the socket `exceptSocketId`. */
  broadcast(app: App, channel: string, frame: string, event: string, exceptSocketId?: string): void;
  /**
   * The channel's subscription count changed through this node and the change is committed in the
   * scaler: its subscribers on every node get the new count (coalesced; nothing for apps without
   * `enableSubscriptionCount` or channels without counts).
   */
  subscriptionCountChanged(app: App, channel: string): void;
  /** A presence change, to every node's subscribers of the channel; reported as `member.added` or `member.removed`. */
  announceMember(app: App, message: MemberMessage): void;
  /** Closes this node's connections of a user (signed in as it, or in a presence channel as it); returns how many. */
  terminateLocalUser(appId: string, userId: string): number;

  /**
   * Watchlist events: the connection hears about these users from now on, in place of any earlier
   * watchlist (none when empty). Events about them that go out before `sendWatchlistStatus` are noted.
   */
  watch(connection: ConnectionRecord, userIds: readonly string[]): void;
  /** The initial status of the list given to `watch` (`online`: those of them signed in anywhere, read after `watch`). */
  sendWatchlistStatus(connection: ConnectionRecord, userIds: readonly string[], online: readonly string[]): void;
  /** A user's first signed-in socket anywhere came (`online`) or their last went: to every node's watchers. */
  announceUserStatus(app: App, userId: string, online: boolean): void;
}
