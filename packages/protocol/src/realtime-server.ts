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
import { ErrorCode } from './close-codes.js';
import { ConnectionRecord, type Connection } from './connection.js';
import { FailureReporter } from './failure-reporter.js';
import { fanOutTopic } from './fan-out-topic.js';
import { LocalNode } from './local-node.js';
import { memberChangeFrom, type MemberChange } from './member-events.js';
import { OrderedDelivery } from './ordered-delivery.js';
import { spendFrame, type FrameVerdict } from './frame-budget.js';
import { connectionEstablishedFrame, errorFrame, parseInboundFrame, pongFrame, type InboundFrame, type InboundFrameProblem } from './frames.js';
import { silentLoggerFactory, type LoggerFactory } from './logger.js';
import { originAllowed } from './origin.js';
import { createLocalScaler } from './local-scaler.js';
import type { ClusterMessage, NodeLoss, Scaler } from './scaler.js';
import { ServerEvents, type FrameRefusalReason, type HandlerKind } from './server-events.js';
import { handleSignin } from './signin.js';
import { announceMemberRemoved, handleSubscribe, handleUnsubscribe, releaseChannels } from './subscribe.js';
import type { ConnectionRequest, Transport } from './transport.js';
import { watchedUserTopic } from './watchlist-index.js';

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

/** Every Connection is a record the engine made in `open`: nobody else can make one. */
const record = (connection: Connection) => connection as ConnectionRecord;

const nodes = new WeakMap<RealtimeServer, LocalNode>();

/** A server's node (its clock and connections), for this package's own tests. */
export function localNodeOf(server: RealtimeServer): LocalNode {
  const node = nodes.get(server);
  if (!node) throw new Error('not a RealtimeServer');
  return node;
}

/**
 * The Pusher protocol engine. A transport feeds it sockets and frames
 * (`open`, `message`, `close`); the HTTP API calls its operations; a scaler
 * makes it a cluster. It knows nothing of uWebSockets.js, hono or Redis.
 *
 * This class is the lifecycle (`attach`, `start`, `stop`) and the dispatch of
 * what arrives (sockets, frames, cluster messages) to the handlers; they act
 * through this node's `EngineContext` (local-node.ts), never through it.
 */
export class RealtimeServer {
  readonly apps: AppProvider;
  readonly scaler: Scaler;
  readonly events = new ServerEvents();

  readonly #node: LocalNode;
  readonly #sweepIntervalMs: number;
  readonly #protocolVersion: string;
  readonly #socketIdPrefix = String(randomInt(1, 2_000_000_000));
  #socketCounter = 0;
  #sweepTimer: ReturnType<typeof setInterval> | undefined;
  readonly #failures: FailureReporter;
  readonly #fromBus: OrderedDelivery;
  #draining = false;
  readonly #pendingCleanups = new Set<Promise<void>>();

  constructor(options: RealtimeServerOptions) {
    this.apps = options.apps;
    this.scaler = options.scaler ?? createLocalScaler();
    const logger = options.logger ?? silentLoggerFactory;
    const log = {
      connection: logger('socket.connection'),
      channel: logger('socket.channel'),
      handler: logger('socket.handler'),
      server: logger('socket.server'),
    };
    this.#failures = new FailureReporter(log.handler);
    this.#node = new LocalNode(this.scaler, this.events, log, (kind, error, app, context) => this.#failed(kind, error, app, context));
    nodes.set(this, this.#node);
    this.#sweepIntervalMs = options.sweepIntervalMs ?? 1_000;
    this.#protocolVersion = String(options.protocolVersion ?? 7);
    this.#fromBus = new OrderedDelivery((error) => {
      this.#failed('member_event', error, undefined, {});
    });
    this.events.onListenerError = (error, event) => log.server.error({ err: error, event }, 'a server event listener threw');
  }

  /** Connects the engine to its transport: sockets, topics and server-wide fan-out. */
  attach(transport: Transport): void {
    this.#node.transport = transport;
  }

  async start(): Promise<void> {
    await this.scaler.start(
      (message) => this.#onClusterMessage(message),
      (loss) =>
        void this.#onNodeLost(loss).catch((error: unknown) => {
          this.#failed('node_loss', error, undefined, {});
        }),
      // The engine records every channel a socket holds with the scaler before it delivers to it, so a
      // channel's messages are only needed where it has subscribers.
      { routing: 'subscribed' },
    );
    this.#sweepTimer = setInterval(() => this.#node.sweep(), this.#sweepIntervalMs);
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
    const { connections } = this.#node;
    for (const connection of [...connections.values()]) this.#node.refuse(connection, ErrorCode.ReconnectNow, reason);
    // Transports report closes synchronously or soon after; give them a moment, then release cluster state.
    await new Promise((resolve) => setTimeout(resolve, 50));
    for (const connection of [...connections.values()]) this.close(connection);
    await Promise.all(this.#pendingCleanups);
    // After the cleanups, before the scaler closes: the counts still coalescing go out now (the other nodes'
    // subscribers learn the final count, the webhook reports it), then no timer is left.
    await this.#node.subscriptionCounts.stop();
    await this.scaler.close();
  }

  /**
   * A new socket (the transport's handle, which the engine hands back to the
   * transport's operations) for `app`, undefined when the key was unknown.
   * Returns the connection the transport keeps for this socket, or undefined
   * if refused.
   */
  open(socket: unknown, app: App | undefined, request: ConnectionRequest): Connection | undefined {
    if (this.#draining) return this.#refuseOpen(socket, app, ErrorCode.ReconnectNow, 'Server is shutting down, please reconnect.');
    if (!app) return this.#refuseOpen(socket, app, ErrorCode.AppNotFound, `App key ${request.appKey} does not exist.`);
    if (request.protocol !== undefined && request.protocol !== this.#protocolVersion) {
      return this.#refuseOpen(socket, app, ErrorCode.UnsupportedProtocol, `Unsupported protocol version ${request.protocol}; this server speaks ${this.#protocolVersion}.`);
    }
    if (!originAllowed(app.allowedOrigins, request.origin)) {
      return this.#refuseOpen(socket, app, ErrorCode.Unauthorized, 'Origin not allowed.');
    }

    const node = this.#node;
    // The clock is refreshed here, not left to the sweep: a connection stamped up to a sweep interval in the
    // past would be pinged that much before activity_timeout (a second early with activity_timeout 1).
    const connection = new ConnectionRecord(`${this.#socketIdPrefix}.${++this.#socketCounter}`, app, socket, node.readClock());
    node.track(connection);
    void this.scaler.addConnection(app.id, connection.socketId).then(
      (count) => this.#established(connection, count),
      (error: unknown) => {
        node.log.connection.error({ err: error, app: app.id }, 'could not register the connection');
        this.#refuseRegistered(connection, ErrorCode.ReconnectNow, 'Server error, please reconnect.');
      },
    );
    return connection;
  }

  #established(connection: ConnectionRecord, count: number): void {
    if (connection.state === 'closed') return;
    const { app } = connection;
    if (count > app.maxConnections) {
      this.#refuseRegistered(connection, ErrorCode.OverConnectionQuota, 'Application is over connection quota.');
      return;
    }
    connection.state = 'open';
    this.#node.send(connection, connectionEstablishedFrame(connection.socketId, app.activityTimeout));
    this.#node.log.connection.debug({ app: app.id, socketId: connection.socketId }, 'connection established');
    this.events.emit('connection.opened', { connection });
  }

  /** Refuses a connection the node already tracks, before it was established: reported like any refusal. */
  #refuseRegistered(connection: ConnectionRecord, code: number, reason: string): void {
    this.events.emit('connection.refused', { app: connection.app, code, reason });
    this.#node.refuse(connection, code, reason);
  }

  #refuseOpen(socket: unknown, app: App | undefined, code: number, reason: string): undefined {
    this.events.emit('connection.refused', { app, code, reason });
    this.#node.refuseSocket(socket, code, reason);
    return undefined;
  }

  /** A text frame from the client. Never throws: a failing handler is answered and reported. */
  message(connection: Connection, text: string): void {
    const client = record(connection);
    if (client.state !== 'open') return;
    const node = this.#node;
    client.lastSeen = node.now;
    client.pingSentAt = 0;
    const { app } = client;
    const verdict = spendFrame(client, app, Math.floor(node.now / 1000));
    if (verdict !== 'accept') return this.#overFrameBudget(client, verdict);

    const frame = parseInboundFrame(text, app.maxJsonDepth);
    if (typeof frame === 'string') {
      this.events.emit('message.received', { connection, bytes: text.length, event: '' });
      this.events.emit('frame.refused', { app, reason: frameRefusalReasons[frame] });
      node.send(client, errorFrame(ErrorCode.ReconnectNow, frameProblemMessages[frame](app)));
      return;
    }
    this.events.emit('message.received', { connection, bytes: text.length, event: frame.event });
    try {
      this.#dispatch(client, frame);
    } catch (error) {
      this.#handlerFailed(client, handlerKind(frame.event), error);
    }
  }

  /** A binary frame: the protocol is JSON text, but it counts against the frame budget like any other. */
  binaryMessage(connection: Connection, bytes: number): void {
    const client = record(connection);
    if (client.state !== 'open') return;
    const node = this.#node;
    client.lastSeen = node.now;
    const { app } = client;
    const verdict = spendFrame(client, app, Math.floor(node.now / 1000));
    if (verdict !== 'accept') return this.#overFrameBudget(client, verdict);
    this.events.emit('message.received', { connection, bytes, event: '' });
    this.events.emit('frame.refused', { app, reason: 'binary' });
    node.send(client, errorFrame(ErrorCode.ReconnectNow, 'Binary frames are not supported; send JSON text.'));
  }

  #dispatch(connection: ConnectionRecord, frame: InboundFrame): void {
    const node = this.#node;
    switch (frame.event) {
      case 'pusher:ping':
        node.send(connection, pongFrame);
        return;
      case 'pusher:pong':
        return;
      case 'pusher:subscribe':
        handleSubscribe(node, connection, frame.data).catch((error: unknown) => this.#handlerFailed(connection, 'subscribe', error));
        return;
      case 'pusher:unsubscribe':
        handleUnsubscribe(node, connection, frame.data).catch((error: unknown) => this.#handlerFailed(connection, 'unsubscribe', error));
        return;
      case 'pusher:signin':
        handleSignin(node, connection, frame.data).catch((error: unknown) => this.#handlerFailed(connection, 'signin', error));
        return;
    }
    if (frame.event.startsWith('client-')) {
      handleClientEvent(node, connection, frame);
    } else if (frame.event.startsWith('pusher:') || frame.event.startsWith('pusher_internal:')) {
      node.send(connection, errorFrame(ErrorCode.ReconnectNow, `Unsupported event ${frame.event}.`));
    } else {
      node.send(connection, errorFrame(ErrorCode.ClientEventRejected, 'Client event names must start with "client-".'));
    }
  }

  #overFrameBudget(connection: ConnectionRecord, verdict: Exclude<FrameVerdict, 'accept'>): void {
    const { app } = connection;
    this.events.emit('frame.refused', { app, reason: 'rate_limited' });
    if (verdict === 'refuse') {
      this.#node.send(connection, errorFrame(ErrorCode.ClientEventRejected, `Rate limit exceeded: at most ${app.maxFramesPerSecond} frames per second; frames dropped.`));
    } else if (verdict === 'close') {
      this.events.emit('connection.flood_closed', { app, socketId: connection.socketId });
      this.#node.refuse(connection, ErrorCode.OverCapacity, `Too many frames: at most ${app.maxFramesPerSecond} per second.`);
    }
  }

  /** Every caught failure: one event for metrics, a rate-limited log line. */
  #failed(kind: HandlerKind, error: unknown, app: App | undefined, context: Record<string, unknown>): void {
    this.events.emit('handler.failed', { app, kind, error });
    this.#failures.report(kind, error, context);
  }

  #handlerFailed(connection: ConnectionRecord, kind: HandlerKind, error: unknown): void {
    this.#failed(kind, error, connection.app, { app: connection.app.id, socketId: connection.socketId });
    if (connection.state === 'open') this.#node.send(connection, errorFrame(null, 'Server error while handling the message.'));
  }

  /**
   * The socket is gone (the engine will not use it again). Its channels
   * leave the cluster in one scaler call once the operations in flight on
   * them have settled.
   */
  close(connection: Connection): void {
    const client = record(connection);
    if (client.state === 'closed') return;
    const wasOpen = client.state === 'open';
    client.state = 'closed';
    const node = this.#node;
    node.forget(client);
    const pending = releaseChannels(node, client)
      .catch((error: unknown) =>
        node.log.connection.error({ err: error, app: client.app.id, socketId: client.socketId }, 'cleanup after close failed'),
      )
      .finally(() => this.#pendingCleanups.delete(pending));
    this.#pendingCleanups.add(pending);
    if (wasOpen) this.events.emit('connection.closed', { connection });
  }

  #onClusterMessage(message: ClusterMessage): void {
    try {
      this.#handleClusterMessage(message);
    } catch (error) {
      this.#failed('cluster_message', error, undefined, { type: (message as { type?: unknown }).type });
    }
  }

  /** Runs `then` with the message's app (undefined when unknown): at once when the provider answers at once. */
  #withApp(message: Extract<ClusterMessage, { appId: string }>, then: (app: App | undefined) => void): void {
    const found = this.apps.findById(message.appId);
    if (!(found instanceof Promise)) return then(found);
    found.then(then).catch((error: unknown) => {
      this.#failed('cluster_message', error, undefined, { type: message.type });
    });
  }

  #handleClusterMessage(message: ClusterMessage): void {
    switch (message.type) {
      case 'broadcast':
      case 'member-added':
      case 'member-removed':
        return this.#withApp(message, (app) => this.#deliverFromBus(app, message));
      case 'subscription-count-changed':
        return this.#withApp(message, (app) => app && this.#node.subscriptionCounts.signalled(app, message.channel));
      case 'terminate-user':
        this.#node.terminateLocalUser(message.appId, message.userId);
        return;
      case 'user-online':
      case 'user-offline':
        this.#deliverUserStatus(message.appId, message.userId, message.type === 'user-online');
        return;
      case 'restart':
        this.events.emit('cluster.restart', {});
        return;
    }
  }

  /**
   * Another node's event or member change, to this node's subscribers, in
   * arrival order per channel; a member change only if it is still true.
   */
  #deliverFromBus(app: App | undefined, message: Extract<ClusterMessage, { type: 'broadcast' | 'member-added' | 'member-removed' }>): void {
    if (!app) return;
    const node = this.#node;
    if (message.type === 'broadcast') {
      const { channel, frame, exceptSocketId } = message;
      if (this.#fromBus.idle) {
        node.publishLocal(app, channel, frame, '', exceptSocketId); // the common case: nothing waits
      } else {
        this.#fromBus.deliver(fanOutTopic(app.id, channel), () => node.publishLocal(app, channel, frame, '', exceptSocketId));
      }
      return;
    }
    const change = memberChangeFrom(app, message);
    this.#fromBus.deliver(
      fanOutTopic(app.id, change.channel),
      () => node.publishMemberChange(change),
      async () => (await this.#isPresent(change)) === change.present,
    );
  }

  /**
   * Another node's watchlist event, to this node's watchers of the user (none: nothing to do), if still
   * true when its turn comes: the same user's events from different nodes cross the bus with different
   * delays, and a late `offline` must not follow the `online` of a user who came back (see OrderedDelivery).
   */
  #deliverUserStatus(appId: string, userId: string, online: boolean): void {
    const { watchlists } = this.#node;
    if (!watchlists.isWatched(appId, userId)) return;
    this.#fromBus.deliver(
      watchedUserTopic(appId, userId),
      () => watchlists.notify(appId, userId, online),
      async () => (await this.scaler.onlineUsers(appId, [userId])).length > 0 === online,
    );
  }

  async #isPresent({ app, channel, userId }: MemberChange): Promise<boolean> {
    if (this.scaler.isPresenceMember) return this.scaler.isPresenceMember(app.id, channel, userId);
    return (await this.scaler.presenceMembers(app.id, channel)).some((member) => member.userId === userId);
  }

  /**
   * Another node died and this one removed its state: its presence users are
   * gone from the cluster, so announce them as a graceful leave would (and its
   * signed-in users' watchers hear those that went offline).
   */
  async #onNodeLost(loss: NodeLoss): Promise<void> {
    for (const { appId, channel, userId } of loss.members) {
      const app = await this.apps.findById(appId);
      if (!app) continue;
      announceMemberRemoved(this.#node, app, channel, userId);
    }
    for (const { appId, channel } of loss.vacatedChannels) {
      const app = await this.apps.findById(appId);
      if (!app) continue;
      this.events.emit('channel.vacated', { app, channel });
      // No subscriber is left to tell, but `subscription.count` (the webhook) reports the 0.
      this.#node.subscriptionCountChanged(app, channel);
    }
    for (const { appId, channel } of loss.reducedChannels ?? []) {
      const app = await this.apps.findById(appId);
      if (app) this.#node.subscriptionCountChanged(app, channel);
    }
    for (const { appId, userId } of loss.usersOffline ?? []) {
      const app = await this.apps.findById(appId);
      if (app) this.#node.announceUserStatus(app, userId, false);
    }
  }

  /**
   * Publishes an event (HTTP API trigger); resolves to the requested `info` per channel. A plain event
   * is checked first (throws `RealtimeError`); one from `prepareTrigger` for this app is not checked again.
   */
  trigger(app: App, event: TriggerEvent | PreparedTrigger): Promise<Record<string, ChannelAttributes> | undefined> {
    return trigger(this.#node, app, event);
  }

  /** Attributes of one channel: `occupied` plus the requested `info`. */
  channel(app: App, channel: string, info: readonly string[] = []): Promise<ChannelAttributes> {
    return channelAttributes(this.#node, app, channel, info);
  }

  /** Occupied channels, optionally filtered by prefix. */
  channels(app: App, options: { prefix?: string | undefined; info?: readonly string[] | undefined } = {}): Promise<Record<string, ChannelAttributes>> {
    return listChannels(this.#node, app, options);
  }

  /** The users of a presence channel. */
  users(app: App, channel: string): Promise<{ id: string }[]> {
    return presenceUsers(this.#node, app, channel);
  }

  /** Closes every connection of a user across the cluster. */
  terminateUserConnections(app: App, userId: string): void {
    terminateUserConnections(this.#node, app, userId);
  }

  /** Connections of an app across the cluster. */
  connectionCount(app: App): Promise<number> {
    return this.scaler.connectionCount(app.id);
  }
}
