import type { App } from './app.js';
import { channelType, isCacheChannel, serverToUserPrefix } from './channel-name.js';
import { ErrorCode } from './close-codes.js';
import type { ConnectionRecord, Membership } from './connection.js';
import type { EngineContext, EngineLog, MemberMessage } from './engine-context.js';
import { errorFrame, pingFrame } from './frames.js';
import { memberChangeFrom, type MemberChange } from './member-events.js';
import type { Scaler } from './scaler.js';
import type { HandlerKind, ServerEventMap, ServerEventName, ServerEvents } from './server-events.js';
import { SubscriptionCounts } from './subscription-counts.js';
import type { Transport } from './transport.js';
import { WatchlistIndex } from './watchlist-index.js';
import { fanOutTopic } from './fan-out-topic.js';

/** Client events are relayed, never cached: they do not overtake a cache replay. */
const clientEventFramePrefix = '{"event":"client-';

/** Past this the clock is no longer kept a small integer (2^30 ms, about 12 days). */
const smallIntegerMax = 0x3fff_ffff;

/** Until a transport attaches, nothing is delivered. */
const detached: Transport = {
  send() {},
  close() {},
  subscribe() {},
  unsubscribe() {},
  publish() {},
  subscriberCount: () => 0,
};


/** Whether the connection hears the channel on this node. */
function hears(connection: ConnectionRecord, channel: string): boolean {
  if (connection.userId !== undefined && channel === serverToUserPrefix + connection.userId) return true;
  return connection.membership(channel)?.active === true;
}

function someOf<T>(items: Iterable<T>, test: (item: T) => boolean): boolean {
  for (const item of items) if (test(item)) return true;
  return false;
}

function addTo<K, V>(map: Map<K, Set<V>>, key: K, value: V): void {
  let set = map.get(key);
  if (!set) map.set(key, (set = new Set()));
  set.add(value);
}

function deleteFrom<K, V>(map: Map<K, Set<V>>, key: K, value: V): void {
  const set = map.get(key);
  if (set?.delete(value) && set.size === 0) map.delete(key);
}

interface CacheWatch {
  socketId: string;
  overtaken: boolean;
}

/**
 * This node's side of the engine: its connections, who hears what, and
 * delivery to them. It is the context handlers act through.
 *
 * Which socket is in which channel is kept once, on the connection (its
 * memberships), plus the transport's topics: counts and plain fan-out come
 * from the transport. Presence channels also keep their local listeners per
 * channel, written where the topics are (`join`, `leave`, `forget`): a
 * member event must sometimes skip every socket of one user.
 */
export class LocalNode implements EngineContext {
  /** Local connections by socket id. */
  readonly connections = new Map<string, ConnectionRecord>();
  /**
   * The coarse clock: ms since this node started, refreshed by the sweep and
   * when a connection opens. It starts at 1 s (0 is never a time) and stays a
   * small integer for 12 days, which V8 keeps inside each connection's record
   * instead of boxing it (past that, timestamps are boxed numbers again, as
   * exact).
   */
  now = 1_000;
  readonly #epoch = Date.now() - this.now;
  transport: Transport = detached;

  /** Confirmed local subscribers of each presence channel, per topic. */
  readonly #presenceListeners = new Map<string, Set<ConnectionRecord>>();
  /**
   * Presence subscribers whose member snapshot is being read, per topic: they hear member events (only)
   * until they are confirmed, so none published after their snapshot is missed.
   */
  readonly #awaitingMembers = new Map<string, Set<ConnectionRecord>>();
  /** Subscribers with a cache replay pending, per topic, and whether a cacheable event reached them since. */
  readonly #watchedTopics = new Map<string, Set<CacheWatch>>();
  /** `pusher_internal:subscription_count`, coalesced per channel (apps with `enableSubscriptionCount`). */
  readonly subscriptionCounts: SubscriptionCounts;
  /** This node's watchers per watched user (watchlist events). */
  readonly watchlists = new WatchlistIndex((connection, frame) => this.send(connection, frame));

  constructor(
    readonly scaler: Scaler,
    readonly events: ServerEvents,
    readonly log: EngineLog,
    /** A caught failure outside a client's frame (counted and logged by the engine). */
    failed: (kind: HandlerKind, error: unknown, app: App, context: Record<string, unknown>) => void = () => {},
  ) {
    this.subscriptionCounts = new SubscriptionCounts({
      scaler,
      localSubscribers: (app, channel) => this.transport.subscriberCount(fanOutTopic(app.id, channel)),
      publishLocal: (app, channel, frame, event) => this.publishLocal(app, channel, frame, event),
      wantsCountEvents: () => events.has('subscription.count'),
      emitCount: (app, channel, count) => events.emit('subscription.count', { app, channel, count }),
      failed: (error, app, channel) => failed('subscription_count', error, app, { app: app.id, channel }),
    });
  }

  emit<E extends ServerEventName>(event: E, payload: ServerEventMap[E]): void {
    this.events.emit(event, payload);
  }

  send(connection: ConnectionRecord, frame: string): void {
    if (connection.state !== 'closed') this.transport.send(connection.socket, frame);
  }

  refuse(connection: ConnectionRecord, code: number, reason: string): void {
    if (connection.state !== 'closed') this.refuseSocket(connection.socket, code, reason);
  }

  /** `pusher:error` then close, for a socket the engine may not have a record of. */
  refuseSocket(socket: unknown, code: number, reason: string): void {
    this.transport.send(socket, errorFrame(code, reason));
    this.transport.close(socket, code, reason);
  }

  join(connection: ConnectionRecord, membership: Membership): (() => boolean) | undefined {
    const { channel } = membership;
    const topic = fanOutTopic(connection.app.id, channel);
    membership.active = true;
    this.transport.subscribe(connection.socket, topic);
    const type = channelType(channel);
    if (type === 'presence') addTo(this.#presenceListeners, topic, connection);
    // Pusher counts a confirmed private- or presence- subscription as an authorized connection, for good.
    if (type !== 'public' && type !== 'server-to-user') connection.authorizeBy = 0;
    return isCacheChannel(channel) ? this.#watch(topic, connection.socketId) : undefined;
  }

  leave(connection: ConnectionRecord, membership: Membership): void {
    if (!membership.active) return;
    membership.active = false;
    const topic = fanOutTopic(connection.app.id, membership.channel);
    deleteFrom(this.#presenceListeners, topic, connection);
    if (connection.state === 'open') this.transport.unsubscribe(connection.socket, topic);
  }

  awaitMembers(connection: ConnectionRecord, channel: string): void {
    addTo(this.#awaitingMembers, fanOutTopic(connection.app.id, channel), connection);
  }

  stopAwaitingMembers(connection: ConnectionRecord, channel: string): void {
    deleteFrom(this.#awaitingMembers, fanOutTopic(connection.app.id, channel), connection);
  }

  signIn(connection: ConnectionRecord, userId: string): void {
    const { app, socket } = connection;
    if (connection.userId !== undefined && connection.userId !== userId) {
      this.transport.unsubscribe(socket, fanOutTopic(app.id, serverToUserPrefix + connection.userId));
    }
    connection.userId = userId;
    connection.authorizeBy = 0;
    this.transport.subscribe(socket, fanOutTopic(app.id, serverToUserPrefix + userId));
  }

  /** A new connection of this node. */
  track(connection: ConnectionRecord): void {
    this.connections.set(connection.socketId, connection);
  }

  /**
   * A closed connection leaves every local structure at once (the transport
   * dropped its topics); its memberships stay for the cluster cleanup.
   */
  forget(connection: ConnectionRecord): void {
    this.connections.delete(connection.socketId);
    this.watchlists.forget(connection);
    const appId = connection.app.id;
    for (const { channel } of connection.memberships()) {
      const topic = fanOutTopic(appId, channel);
      deleteFrom(this.#presenceListeners, topic, connection);
      deleteFrom(this.#awaitingMembers, topic, connection);
    }
  }

  broadcast(app: App, channel: string, frame: string, event: string, exceptSocketId?: string): void {
    this.publishLocal(app, channel, frame, event, exceptSocketId);
    this.scaler.publish(
      exceptSocketId === undefined
        ? { type: 'broadcast', appId: app.id, channel, frame }
        : { type: 'broadcast', appId: app.id, channel, frame, exceptSocketId },
    );
  }

  subscriptionCountChanged(app: App, channel: string): void {
    this.subscriptionCounts.changed(app, channel);
  }

  announceMember(app: App, message: MemberMessage): void {
    this.scaler.publish(message);
    this.publishMemberChange(memberChangeFrom(app, message));
    const { channel, userId } = message;
    this.events.emit(message.type === 'member-added' ? 'member.added' : 'member.removed', { app, channel, userId });
  }

  /** Delivers a frame to this node's subscribers of a channel, skipping `exceptSocketId` when it is one of them. */
  publishLocal(app: App, channel: string, frame: string, event: string, exceptSocketId?: string): void {
    const topic = fanOutTopic(app.id, channel);
    const { transport } = this;
    if (this.#watchedTopics.size !== 0) this.#noteCacheable(topic, frame, event, exceptSocketId);
    const found = exceptSocketId === undefined ? undefined : this.connections.get(exceptSocketId);
    const excluded = found && found.app.id === app.id && hears(found, channel) ? found : undefined;
    // Counted before publishing: a transport may close a slow socket while it delivers.
    const subscribers = this.events.has('message.sent') ? transport.subscriberCount(topic) : 0;
    if (excluded) transport.publish(topic, frame, excluded.socket);
    else transport.publish(topic, frame);
    if (subscribers > 0) {
      const recipients = subscribers - (excluded ? 1 : 0);
      this.events.emit('message.sent', { app, channel, event, recipients, bytes: frame.length * recipients });
    }
  }

  /**
   * Member events go to the channel's confirmed subscribers and to those
   * still waiting for their snapshot. A socket subscribed as a user is that
   * user's proof of presence: it never hears that its own user left (a late
   * `member_removed` from another node's socket of the same user would
   * otherwise drop the user from its own list).
   */
  publishMemberChange({ app, channel, frame, present, userId, exceptSocketId }: MemberChange): void {
    const event = present ? 'pusher_internal:member_added' : 'pusher_internal:member_removed';
    const topic = fanOutTopic(app.id, channel);
    const sameUser = (connection: ConnectionRecord) => !present && connection.membership(channel)?.presenceUserId === userId;
    const skip = (connection: ConnectionRecord) => connection.socketId === exceptSocketId || sameUser(connection);
    const waiting = this.#awaitingMembers.get(topic);
    if (waiting) for (const connection of waiting) if (!skip(connection)) this.send(connection, frame);

    const listeners = this.#presenceListeners.get(topic);
    if (!listeners) return;
    if (present || !someOf(listeners, sameUser)) {
      this.publishLocal(app, channel, frame, event, exceptSocketId);
      return;
    }
    let recipients = 0;
    for (const connection of listeners) {
      if (skip(connection)) continue;
      this.send(connection, frame);
      recipients++;
    }
    this.events.emit('message.sent', { app, channel, event, recipients, bytes: frame.length * recipients });
  }

  terminateLocalUser(appId: string, userId: string): number {
    let closed = 0;
    for (const connection of [...this.connections.values()]) {
      if (connection.app.id !== appId || connection.state === 'closed') continue;
      if (connection.userId !== userId && !connection.presentAs(userId)) continue;
      this.refuse(connection, ErrorCode.Unauthorized, 'You got disconnected by the app.');
      closed++;
    }
    return closed;
  }

  watch(connection: ConnectionRecord, userIds: readonly string[]): void {
    if (connection.state !== 'closed') this.watchlists.watch(connection, userIds);
  }

  sendWatchlistStatus(connection: ConnectionRecord, userIds: readonly string[], online: readonly string[]): void {
    this.watchlists.sendStatus(connection, userIds, online);
  }

  announceUserStatus(app: App, userId: string, online: boolean): void {
    this.scaler.publish({ type: online ? 'user-online' : 'user-offline', appId: app.id, userId });
    this.watchlists.notify(app.id, userId, online);
  }

  /** Refreshes the coarse clock and returns it. */
  readClock(): number {
    const ms = Date.now() - this.#epoch;
    // `| 0` makes it a small integer for V8 (a difference of two doubles stays a boxed double otherwise).
    return (this.now = ms <= smallIntegerMax ? ms | 0 : ms);
  }

  /**
   * Pings connections that were silent for `activity_timeout`; closes those that stay silent with 4201,
   * and, for apps with `enableUserAuthentication`, those not authorized by their deadline with 4009.
   */
  sweep(): void {
    const now = this.readClock();
    for (const connection of this.connections.values()) {
      if (connection.state !== 'open') continue;
      const { app } = connection;
      // 0 for every connection of an app without the option, and once authorized: one comparison.
      if (connection.authorizeBy !== 0 && now >= connection.authorizeBy) {
        this.#closeUnauthorized(connection);
        continue;
      }
      if (connection.pingSentAt === 0) {
        if (now - connection.lastSeen >= app.activityTimeout * 1000) {
          connection.pingSentAt = now;
          this.send(connection, pingFrame);
        }
      } else if (now - connection.pingSentAt >= app.pingInterval * 1000) {
        this.refuse(connection, ErrorCode.PongTimeout, 'Pong reply not received in time.');
      }
    }
  }

  #closeUnauthorized(connection: ConnectionRecord): void {
    const { app } = connection;
    const seconds = app.userAuthenticationTimeout;
    connection.authorizeBy = 0;
    this.events.emit('connection.unauthorized_closed', { app, socketId: connection.socketId });
    this.refuse(
      connection,
      ErrorCode.Unauthorized,
      `Connection not authorized within ${seconds} ${seconds === 1 ? 'second' : 'seconds'}: sign in (pusher.signin()) or subscribe to a private or presence channel.`,
    );
  }

  /**
   * Starts noting, for one subscriber of a topic, whether an event that a cache could hold
   * (not a member or client event) reaches it; the returned function tells and stops noting.
   */
  #watch(topic: string, socketId: string): () => boolean {
    let watches = this.#watchedTopics.get(topic);
    if (!watches) this.#watchedTopics.set(topic, (watches = new Set()));
    const watch: CacheWatch = { socketId, overtaken: false };
    watches.add(watch);
    const noted = watches;
    return () => {
      if (noted.delete(watch) && noted.size === 0 && this.#watchedTopics.get(topic) === noted) this.#watchedTopics.delete(topic);
      return watch.overtaken;
    };
  }

  #noteCacheable(topic: string, frame: string, event: string, exceptSocketId: string | undefined): void {
    const watches = this.#watchedTopics.get(topic);
    if (!watches || event.startsWith('pusher_internal:') || frame.startsWith(clientEventFramePrefix)) return;
    for (const watch of watches) if (watch.socketId !== exceptSocketId) watch.overtaken = true;
  }
}
