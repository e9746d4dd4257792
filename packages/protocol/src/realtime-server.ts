import { randomInt } from 'node:crypto';
import type { App } from './app.js';
import type { AppProvider } from './app-provider.js';
import { handleClientEvent } from './client-event.js';
import {
  channelAttributes,
  listChannels,
  presenceUsers,
  terminateUserConnections,
  trigger,
  type ChannelAttributes,
  type PreparedTrigger,
  type TriggerEvent,
} from './http-operations.js';
import { serverToUserPrefix } from './channel-name.js';
import { ErrorCode } from './close-codes.js';
import { Connection } from './connection.js';
import { channelOpsSettled } from './channel-order.js';
import { FailureReporter } from './failure-reporter.js';
import { memberChangeFrom, type MemberChange } from './member-events.js';
import { OrderedDelivery } from './ordered-delivery.js';
import { spendFrame, type FrameVerdict } from './frame-budget.js';
import { connectionEstablishedFrame, errorFrame, parseInboundFrame, pingFrame, pongFrame, type InboundFrame, type InboundFrameProblem } from './frames.js';
import { silentLoggerFactory, type Logger, type LoggerFactory } from './logger.js';
import { originAllowed } from './origin.js';
import { createLocalScaler } from './local-scaler.js';
import type { ClusterMessage, HeldChannel, NodeLoss, Scaler } from './scaler.js';
import { ServerEvents, type FrameRefusalReason, type HandlerKind } from './server-events.js';
import { handleSignin } from './signin.js';
import { announceMemberRemoved, handleSubscribe, handleUnsubscribe } from './subscribe.js';
import type { ConnectionRequest, Publisher, Socket } from './transport.js';

export interface RealtimeServerOptions {
  apps: AppProvider;
  /** Cluster state and bus; defaults to the in-memory single-node scaler. */
  scaler?: Scaler;
  logger?: LoggerFactory;
  /** How often idle connections are checked, in ms. */
  sweepIntervalMs?: number;
  /** The protocol version we speak; a client asking for another is refused with 4007. */
  protocolVersion?: number;
}

const nullPublisher: Publisher = { publish() {} };

/** Client events are relayed, never cached: they do not overtake a cache replay. */
const clientEventFramePrefix = '{"event":"client-';

const frameRefusalReasons: Record<InboundFrameProblem, FrameRefusalReason> = {
  syntax: 'invalid_json',
  depth: 'too_deep',
  shape: 'invalid_shape',
};

const frameProblemMessages: Record<InboundFrameProblem, (app: App) => string> = {
  syntax: () => 'Invalid message format: expected a JSON object with a string "event".',
  depth: (app) => `Invalid message format: JSON nests deeper than ${app.maxJsonDepth} levels.`,
  shape: () => 'Invalid message format: expected a JSON object with a string "event".',
};

function someOf<T>(items: Iterable<T>, test: (item: T) => boolean): boolean {
  for (const item of items) if (test(item)) return true;
  return false;
}

function handlerKind(event: string): HandlerKind {
  switch (event) {
    case 'pusher:subscribe':
      return 'subscribe';
    case 'pusher:unsubscribe':
      return 'unsubscribe';
    case 'pusher:signin':
      return 'signin';
    default:
      return event.startsWith('client-') ? 'client_event' : 'frame';
  }
}

/**
 * The Pusher protocol engine. A transport feeds it sockets and frames
 * (`open`, `message`, `close`); the HTTP API calls its operations; a scaler
 * makes it a cluster. It knows nothing of uWebSockets.js, hono or Redis.
 */
export class RealtimeServer {
  readonly apps: AppProvider;
  readonly scaler: Scaler;
  readonly events = new ServerEvents();
  /** @internal */ readonly log: { connection: Logger; channel: Logger; handler: Logger; server: Logger };
  /** @internal */ publisher: Publisher = nullPublisher;
  /** @internal Local connections by socket id. */
  readonly connections = new Map<string, Connection>();
  /** @internal Local subscribers per `appId\0channel` topic. */
  readonly localSubscribers = new Map<string, Set<Connection>>();
  /** @internal Coarse clock in ms, refreshed by the sweep. */
  now = Date.now();

  readonly #sweepIntervalMs: number;
  readonly #protocolVersion: string;
  readonly #socketIdPrefix = String(randomInt(1, 2_000_000_000));
  #socketCounter = 0;
  #sweepTimer: ReturnType<typeof setInterval> | undefined;
  readonly #failures: FailureReporter;
  /**
   * Presence subscribers whose member snapshot is being read, per topic: they hear member events (only)
   * until they are confirmed, so none published after their snapshot is missed.
   */
  readonly #awaitingMembers = new Map<string, Set<Connection>>();
  readonly #fromBus: OrderedDelivery;
  /** Subscribers with a cache replay pending, per topic, and whether a cacheable event reached them since. */
  readonly #watchedTopics = new Map<string, Set<{ socketId: string; overtaken: boolean }>>();
  #draining = false;
  readonly #pendingCleanups = new Set<Promise<void>>();

  constructor(options: RealtimeServerOptions) {
    this.apps = options.apps;
    this.scaler = options.scaler ?? createLocalScaler();
    const logger = options.logger ?? silentLoggerFactory;
    this.log = {
      connection: logger('socket.connection'),
      channel: logger('socket.channel'),
      handler: logger('socket.handler'),
      server: logger('socket.server'),
    };
    this.#sweepIntervalMs = options.sweepIntervalMs ?? 1_000;
    this.#protocolVersion = String(options.protocolVersion ?? 7);
    this.#failures = new FailureReporter(this.log.handler);
    this.#fromBus = new OrderedDelivery((error) => {
      this.#failed('member_event', error, undefined, {});
    });
    this.events.onListenerError = (error, event) =>
      this.log.server.error({ err: error, event }, 'a server event listener threw');
  }

  /** Connects the engine to its transport's server-wide publisher. */
  attach(publisher: Publisher): void {
    this.publisher = publisher;
  }

  async start(): Promise<void> {
    await this.scaler.start(
      (message) => this.#onClusterMessage(message),
      (loss) =>
        void this.#onNodeLost(loss).catch((error: unknown) => {
          this.#failed('node_loss', error, undefined, {});
        }),
    );
    this.#sweepTimer = setInterval(() => this.#sweep(), this.#sweepIntervalMs);
    this.#sweepTimer.unref?.();
  }

  /** True while shutting down: new connections are refused with 4200. */
  get draining(): boolean {
    return this.#draining;
  }

  /**
   * Tells every client to reconnect elsewhere (`pusher:error` and close 4200),
   * then releases cluster state. New connections are refused from now on.
   */
  async stop(reason = 'Server is restarting, please reconnect.'): Promise<void> {
    this.#draining = true;
    if (this.#sweepTimer) clearInterval(this.#sweepTimer);
    for (const connection of [...this.connections.values()]) {
      this.refuse(connection.socket, ErrorCode.ReconnectNow, reason);
    }
    // Transports report closes synchronously or soon after; give them a moment, then release cluster state.
    await new Promise((resolve) => setTimeout(resolve, 50));
    for (const connection of [...this.connections.values()]) this.close(connection);
    await Promise.all(this.#pendingCleanups);
    await this.scaler.close();
  }

  /** Resolves the app of `/app/{key}`; the transport calls it during the upgrade. */
  findApp(key: string): App | undefined | Promise<App | undefined> {
    return this.apps.findByKey(key);
  }

  /**
   * A new socket for `app` (undefined when the key was unknown). Returns the
   * connection the transport keeps for this socket, or undefined if refused.
   */
  open(socket: Socket, app: App | undefined, request: ConnectionRequest): Connection | undefined {
    if (this.#draining) return this.#refuseOpen(socket, app, ErrorCode.ReconnectNow, 'Server is shutting down, please reconnect.');
    if (!app) return this.#refuseOpen(socket, app, ErrorCode.AppNotFound, `App key ${request.appKey} does not exist.`);
    if (request.protocol !== undefined && request.protocol !== this.#protocolVersion) {
      return this.#refuseOpen(socket, app, ErrorCode.UnsupportedProtocol, `Unsupported protocol version ${request.protocol}; this server speaks ${this.#protocolVersion}.`);
    }
    if (!originAllowed(app.allowedOrigins, request.origin)) {
      return this.#refuseOpen(socket, app, ErrorCode.Unauthorized, 'Origin not allowed.');
    }

    const connection = new Connection(`${this.#socketIdPrefix}.${++this.#socketCounter}`, app, socket, this.now);
    this.connections.set(connection.socketId, connection);
    void this.scaler.addConnection(app.id, connection.socketId).then(
      (count) => this.#established(connection, count),
      (error: unknown) => {
        this.log.connection.error({ err: error, app: app.id }, 'could not register the connection');
        this.refuse(socket, ErrorCode.ReconnectNow, 'Server error, please reconnect.');
      },
    );
    return connection;
  }

  #established(connection: Connection, count: number): void {
    if (connection.state === 'closed') return;
    const { app } = connection;
    if (count > app.maxConnections) {
      this.refuse(connection.socket, ErrorCode.OverConnectionQuota, 'Application is over connection quota.');
      return;
    }
    connection.state = 'open';
    connection.socket.send(connectionEstablishedFrame(connection.socketId, app.activityTimeout));
    this.log.connection.debug({ app: app.id, socketId: connection.socketId }, 'connection established');
    this.events.emit('connection.opened', { connection });
  }

  #refuseOpen(socket: Socket, app: App | undefined, code: number, reason: string): undefined {
    this.events.emit('connection.refused', { app, code, reason });
    this.refuse(socket, code, reason);
    return undefined;
  }

  /** @internal Sends `pusher:error` then closes with the same code. */
  refuse(socket: Socket, code: number, reason: string): void {
    socket.send(errorFrame(code, reason));
    socket.close(code, reason);
  }

  /** A text frame from the client. Never throws: a failing handler is answered and reported. */
  message(connection: Connection, text: string): void {
    if (connection.state !== 'open') return;
    connection.lastSeen = this.now;
    connection.pingSentAt = 0;
    const { app } = connection;
    const verdict = spendFrame(connection, app, Math.floor(this.now / 1000));
    if (verdict !== 'accept') return this.#overFrameBudget(connection, verdict);

    const frame = parseInboundFrame(text, app.maxJsonDepth);
    if (typeof frame === 'string') {
      this.events.emit('message.received', { connection, bytes: text.length, event: '' });
      this.events.emit('frame.refused', { app, reason: frameRefusalReasons[frame] });
      connection.socket.send(errorFrame(ErrorCode.ReconnectNow, frameProblemMessages[frame](app)));
      return;
    }
    this.events.emit('message.received', { connection, bytes: text.length, event: frame.event });
    try {
      this.#dispatch(connection, frame);
    } catch (error) {
      this.#handlerFailed(connection, handlerKind(frame.event), error);
    }
  }

  /** A binary frame: the protocol is JSON text, but it counts against the frame budget like any other. */
  binaryMessage(connection: Connection, bytes: number): void {
    if (connection.state !== 'open') return;
    connection.lastSeen = this.now;
    const { app } = connection;
    const verdict = spendFrame(connection, app, Math.floor(this.now / 1000));
    if (verdict !== 'accept') return this.#overFrameBudget(connection, verdict);
    this.events.emit('message.received', { connection, bytes, event: '' });
    this.events.emit('frame.refused', { app, reason: 'binary' });
    connection.socket.send(errorFrame(ErrorCode.ReconnectNow, 'Binary frames are not supported; send JSON text.'));
  }

  #dispatch(connection: Connection, frame: InboundFrame): void {
    switch (frame.event) {
      case 'pusher:ping':
        connection.socket.send(pongFrame);
        return;
      case 'pusher:pong':
        return;
      case 'pusher:subscribe':
        handleSubscribe(this, connection, frame.data).catch((error: unknown) => this.#handlerFailed(connection, 'subscribe', error));
        return;
      case 'pusher:unsubscribe':
        handleUnsubscribe(this, connection, frame.data).catch((error: unknown) => this.#handlerFailed(connection, 'unsubscribe', error));
        return;
      case 'pusher:signin':
        handleSignin(this, connection, frame.data);
        return;
    }
    if (frame.event.startsWith('client-')) {
      handleClientEvent(this, connection, frame);
    } else if (frame.event.startsWith('pusher:') || frame.event.startsWith('pusher_internal:')) {
      connection.socket.send(errorFrame(ErrorCode.ReconnectNow, `Unsupported event ${frame.event}.`));
    } else {
      connection.socket.send(errorFrame(ErrorCode.ClientEventRejected, 'Client event names must start with "client-".'));
    }
  }

  #overFrameBudget(connection: Connection, verdict: Exclude<FrameVerdict, 'accept'>): void {
    const { app } = connection;
    this.events.emit('frame.refused', { app, reason: 'rate_limited' });
    if (verdict === 'refuse') {
      connection.socket.send(errorFrame(ErrorCode.ClientEventRejected, `Rate limit exceeded: at most ${app.maxFramesPerSecond} frames per second; frames dropped.`));
    } else if (verdict === 'close') {
      this.events.emit('connection.flood_closed', { app, socketId: connection.socketId });
      this.refuse(connection.socket, ErrorCode.OverCapacity, `Too many frames: at most ${app.maxFramesPerSecond} per second.`);
    }
  }

  /** Every caught failure: one event for metrics, a rate-limited log line. */
  #failed(kind: HandlerKind, error: unknown, app: App | undefined, context: Record<string, unknown>): void {
    this.events.emit('handler.failed', { app, kind, error });
    this.#failures.report(kind, error, context);
  }

  #handlerFailed(connection: Connection, kind: HandlerKind, error: unknown): void {
    this.#failed(kind, error, connection.app, { app: connection.app.id, socketId: connection.socketId });
    if (connection.state === 'open') connection.socket.send(errorFrame(null, 'Server error while handling the message.'));
  }

  /**
   * The socket is gone (the transport must not use it any more). Its channels
   * leave the cluster in one scaler call once the operations in flight on
   * them have settled.
   */
  close(connection: Connection): void {
    if (connection.state === 'closed') return;
    const wasOpen = connection.state === 'open';
    connection.state = 'closed';
    this.connections.delete(connection.socketId);
    const { app } = connection;
    if (connection.userId !== undefined) this.removeLocalSubscriber(this.topic(app, serverToUserPrefix + connection.userId), connection);
    for (const channel of connection.channels.keys()) {
      this.removeLocalSubscriber(this.topic(app, channel), connection);
      this.stopAwaitingMembers(app, channel, connection);
    }
    const pending = this.#releaseChannels(connection)
      .catch((error: unknown) =>
        this.log.connection.error({ err: error, app: app.id, socketId: connection.socketId }, 'cleanup after close failed'),
      )
      .finally(() => this.#pendingCleanups.delete(pending));
    this.#pendingCleanups.add(pending);
    if (wasOpen) this.events.emit('connection.closed', { connection });
  }

  async #releaseChannels(connection: Connection): Promise<void> {
    // A subscribe in flight finishes recording what it recorded; then all of it goes at once.
    await channelOpsSettled(connection);
    const { app } = connection;
    const held: HeldChannel[] = [];
    for (const [channel, membership] of connection.channels) {
      held.push({ channel, presenceUserId: membership.presenceUserId });
      membership.active = false;
    }
    connection.channels.clear();
    const removal = await this.scaler.removeConnection(app.id, connection.socketId, held);
    for (const { channel, userId } of removal.membersLeft) announceMemberRemoved(this, app, channel, userId);
    for (const channel of removal.vacated) this.events.emit('channel.vacated', { app, channel });
  }

  /** @internal */
  addLocalSubscriber(topic: string, connection: Connection): void {
    let subscribers = this.localSubscribers.get(topic);
    if (!subscribers) this.localSubscribers.set(topic, (subscribers = new Set()));
    subscribers.add(connection);
    connection.socket.subscribe(topic);
  }

  /** @internal */
  removeLocalSubscriber(topic: string, connection: Connection): void {
    const subscribers = this.localSubscribers.get(topic);
    if (subscribers) {
      subscribers.delete(connection);
      if (subscribers.size === 0) this.localSubscribers.delete(topic);
    }
    if (connection.state === 'open') connection.socket.unsubscribe(topic);
  }

  /** @internal The fan-out topic of a channel. */
  topic(app: App, channel: string): string {
    return `${app.id}\u0000${channel}`;
  }

  /**
   * @internal Delivers a frame to this node's subscribers of a channel,
   * skipping `exceptSocketId` when it is one of them.
   */
  publishLocal(app: App, channel: string, frame: string, event: string, exceptSocketId?: string): void {
    const topic = this.topic(app, channel);
    const subscribers = this.localSubscribers.get(topic);
    if (!subscribers) return;
    if (this.#watchedTopics.size !== 0) this.#noteCacheable(topic, frame, event, exceptSocketId);
    const excluded = exceptSocketId === undefined ? undefined : this.connections.get(exceptSocketId);
    if (excluded && excluded.app.id === app.id && subscribers.has(excluded)) {
      excluded.socket.publishExceptSelf(topic, frame);
    } else {
      this.publisher.publish(topic, frame);
    }
    if (this.events.has('message.sent')) {
      const recipients = subscribers.size - (excluded && subscribers.has(excluded) ? 1 : 0);
      this.events.emit('message.sent', { app, channel, event, recipients, bytes: frame.length * recipients });
    }
  }

  /** @internal A member event: to the other nodes at once, to this node's subscribers while it is still true. */
  broadcastMemberChange(message: Extract<ClusterMessage, { type: 'member-added' | 'member-removed' }>, app: App): void {
    this.scaler.publish(message);
    this.#publishMemberChange(memberChangeFrom(app, message));
  }

  /**
   * @internal Starts noting, for one subscriber of a topic, whether an event that a cache could hold
   * (not a member or client event) reaches it; the returned function tells and stops noting. A cache
   * channel's replay must not follow a newer live event.
   */
  watchTopic(topic: string, connection: Connection): () => boolean {
    let watches = this.#watchedTopics.get(topic);
    if (!watches) this.#watchedTopics.set(topic, (watches = new Set()));
    const watch = { socketId: connection.socketId, overtaken: false };
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

  /** @internal A presence subscriber waiting for its member snapshot hears member events meanwhile. */
  awaitMembers(app: App, channel: string, connection: Connection): void {
    const topic = this.topic(app, channel);
    let waiting = this.#awaitingMembers.get(topic);
    if (!waiting) this.#awaitingMembers.set(topic, (waiting = new Set()));
    waiting.add(connection);
  }

  /** @internal */
  stopAwaitingMembers(app: App, channel: string, connection: Connection): void {
    const topic = this.topic(app, channel);
    const waiting = this.#awaitingMembers.get(topic);
    if (waiting?.delete(connection) && waiting.size === 0) this.#awaitingMembers.delete(topic);
  }

  async #isPresent({ app, channel, userId }: MemberChange): Promise<boolean> {
    if (this.scaler.isPresenceMember) return this.scaler.isPresenceMember(app.id, channel, userId);
    return (await this.scaler.presenceMembers(app.id, channel)).some((member) => member.userId === userId);
  }

  /**
   * Member events go to the channel's confirmed subscribers and to those
   * still waiting for their snapshot. A socket subscribed as a user is that
   * user's proof of presence: it never hears that its own user left (a late
   * `member_removed` from another node's socket of the same user would
   * otherwise drop the user from its own list).
   */
  #publishMemberChange({ app, channel, frame, present, userId, exceptSocketId }: MemberChange): void {
    const event = present ? 'pusher_internal:member_added' : 'pusher_internal:member_removed';
    const topic = this.topic(app, channel);
    const waiting = this.#awaitingMembers.get(topic);
    const sameUser = (connection: Connection) => !present && connection.channels.get(channel)?.presenceUserId === userId;
    const skip = (connection: Connection) => connection.socketId === exceptSocketId || sameUser(connection);
    if (waiting) for (const connection of waiting) if (!skip(connection)) connection.socket.send(frame);

    const subscribers = this.localSubscribers.get(topic);
    if (!subscribers) return;
    if (present || !someOf(subscribers, sameUser)) {
      this.publishLocal(app, channel, frame, event, exceptSocketId);
      return;
    }
    let recipients = 0;
    for (const connection of subscribers) {
      if (skip(connection)) continue;
      connection.socket.send(frame);
      recipients++;
    }
    this.events.emit('message.sent', { app, channel, event, recipients, bytes: frame.length * recipients });
  }

  /** @internal Local delivery plus the cluster bus. */
  broadcast(app: App, channel: string, frame: string, event: string, exceptSocketId?: string): void {
    this.publishLocal(app, channel, frame, event, exceptSocketId);
    this.scaler.publish(
      exceptSocketId === undefined
        ? { type: 'broadcast', appId: app.id, channel, frame }
        : { type: 'broadcast', appId: app.id, channel, frame, exceptSocketId },
    );
  }

  /** @internal Closes this node's sockets of a user (signed in, or in presence channels). */
  terminateLocalUser(appId: string, userId: string): number {
    let closed = 0;
    for (const connection of [...this.connections.values()]) {
      if (connection.app.id !== appId || connection.state === 'closed') continue;
      const matches =
        connection.userId === userId ||
        [...connection.channels.values()].some((membership) => membership.presenceUserId === userId);
      if (!matches) continue;
      this.refuse(connection.socket, ErrorCode.Unauthorized, 'You got disconnected by the app.');
      closed++;
    }
    return closed;
  }

  #onClusterMessage(message: ClusterMessage): void {
    try {
      this.#handleClusterMessage(message);
    } catch (error) {
      this.#failed('cluster_message', error, undefined, { type: (message as { type?: unknown }).type });
    }
  }

  #handleClusterMessage(message: ClusterMessage): void {
    switch (message.type) {
      case 'broadcast':
      case 'member-added':
      case 'member-removed': {
        const deliver = (app: App | undefined) => {
          if (!app) return;
          if (message.type === 'broadcast') {
            const { channel, frame, exceptSocketId } = message;
            if (this.#fromBus.idle) {
              this.publishLocal(app, channel, frame, '', exceptSocketId); // the common case: nothing waits
            } else {
              this.#fromBus.deliver(this.topic(app, channel), () => this.publishLocal(app, channel, frame, '', exceptSocketId));
            }
            return;
          }
          const change = memberChangeFrom(app, message);
          this.#fromBus.deliver(
            this.topic(app, change.channel),
            () => this.#publishMemberChange(change),
            async () => (await this.#isPresent(change)) === change.present,
          );
        };
        const found = this.apps.findById(message.appId);
        if (found instanceof Promise) {
          found.then(deliver).catch((error: unknown) => {
            this.#failed('cluster_message', error, undefined, { type: message.type });
          });
        } else {
          deliver(found);
        }
        return;
      }
      case 'terminate-user':
        this.terminateLocalUser(message.appId, message.userId);
        return;
      case 'restart':
        this.events.emit('cluster.restart', {});
        return;
    }
  }

  /**
   * Another node died and this one removed its state: its presence users are
   * gone from the cluster, so announce them as a graceful leave would.
   */
  async #onNodeLost(loss: NodeLoss): Promise<void> {
    for (const { appId, channel, userId } of loss.members) {
      const app = await this.apps.findById(appId);
      if (!app) continue;
      announceMemberRemoved(this, app, channel, userId);
    }
    for (const { appId, channel } of loss.vacatedChannels) {
      const app = await this.apps.findById(appId);
      if (app) this.events.emit('channel.vacated', { app, channel });
    }
  }

  /**
   * Publishes an event (HTTP API trigger); resolves to the requested `info` per channel. A plain event
   * is checked first (throws `RealtimeError`); one from `prepareTrigger` for this app is not checked again.
   */
  trigger(app: App, event: TriggerEvent | PreparedTrigger): Promise<Record<string, ChannelAttributes> | undefined> {
    return trigger(this, app, event);
  }

  /** Attributes of one channel: `occupied` plus the requested `info`. */
  channel(app: App, channel: string, info: readonly string[] = []): Promise<ChannelAttributes> {
    return channelAttributes(this, app, channel, info);
  }

  /** Occupied channels, optionally filtered by prefix. */
  channels(app: App, options: { prefix?: string | undefined; info?: readonly string[] | undefined } = {}): Promise<Record<string, ChannelAttributes>> {
    return listChannels(this, app, options);
  }

  /** The users of a presence channel. */
  users(app: App, channel: string): Promise<{ id: string }[]> {
    return presenceUsers(this, app, channel);
  }

  /** Closes every connection of a user across the cluster. */
  terminateUserConnections(app: App, userId: string): void {
    terminateUserConnections(this, app, userId);
  }

  /** Connections of an app across the cluster. */
  connectionCount(app: App): Promise<number> {
    return this.scaler.connectionCount(app.id);
  }

  /** Pings connections that were silent for `activity_timeout`; closes those that stay silent with 4201. */
  #sweep(): void {
    const now = (this.now = Date.now());
    for (const connection of this.connections.values()) {
      if (connection.state !== 'open') continue;
      const { app } = connection;
      if (connection.pingSentAt === 0) {
        if (now - connection.lastSeen >= app.activityTimeout * 1000) {
          connection.pingSentAt = now;
          connection.socket.send(pingFrame);
        }
      } else if (now - connection.pingSentAt >= app.pingInterval * 1000) {
        this.refuse(connection.socket, ErrorCode.PongTimeout, 'Pong reply not received in time.');
      }
    }
  }
}
