import { randomBytes } from 'node:crypto';
import type { CachedEvent, ClusterMessage, ClusterMessageHandler, HeldChannel, NodeLoss, NodeLossHandler, PresenceJoin, PresenceMember, Scaler, SocketRemoval } from '@org/protocol';
import type { Redis, RedisOptions } from 'ioredis';
import { decodeEnvelope, ownMessagePrefix, senderPrefix } from './bus-codec.js';
import { BusPublisher, type PublisherStats } from './bus-publisher.js';
import { RedisScalerError } from './errors.js';
import { busMessageForTests, crashForTests } from './internal.js';
import { createKeys, socketMember, type Keys } from './keys.js';
import { LocalState } from './local-state.js';
import { SequenceTracker } from './sequence-tracker.js';
import { resolveOptions, type RedisScalerOptions, type ResolvedOptions } from './options.js';
import { defineScripts, entry, type ScriptClient, type ScriptPipeline } from './scripts.js';
import { addRemovalReply, removalCalls, removalWaveChunks } from './socket-removal.js';

/** A `Scaler` backed by Redis, with what an operator may want to see. */
export interface RedisScaler extends Scaler {
  /** The namespace of this deployment's keys and bus. */
  readonly prefix: string;
  /** False while Redis is unreachable or not yet resynchronised: answers then come from this node's own state. */
  readonly connected: boolean;
  /** Counters and gauges for monitoring (read-only snapshot). */
  readonly stats: RedisScalerStats;
}

/** What the daemon can export as metrics: a snapshot, cheap to read on every scrape. */
export interface RedisScalerStats extends PublisherStats {
  /** Bus messages from other nodes received twice (a resend after an unconfirmed PUBLISH) and dropped, since start. */
  duplicateMessages: number;
  /** Bus messages of other nodes this node never received (gaps in their sequence numbers: it was cut off), since start. */
  missedMessages: number;
  /** Malformed bus payloads ignored, since start. */
  invalidMessages: number;
}

const OFFLINE = Symbol('offline');
type Offline = typeof OFFLINE;

/** A join replayed during resynchronisation is never refused: the socket is already in. */
const unlimitedMembers = 2_147_483_647;
/** Presence changes remembered during an outage, to announce to the other nodes afterwards. */
const maxOutageAnnouncements = 10_000;

/** Time allowed per replayed entry when a resync rewrites a node's share (measured 10–20 µs; a margin for a busy Redis). */
const resyncMsPerEntry = 0.05;

/** How often a node with a held outbox asks whether every node listens on the bus again. */
const flushPollMs = 50;

/** Entries undone per script call when a node stops gracefully, and calls per round trip. */
const drainSliceEntries = 500;
const drainSlicesPerRound = 2;

/** Reconnect delays: 100 ms doubling up to 2 s, retried forever. */
const reconnectBackoff = (attempt: number) => Math.min(50 * 2 ** Math.min(attempt, 6), 2_000);

interface PresenceKey {
  appId: string;
  channel: string;
  userId: string;
}

/**
 * Creates the Redis scaler: cross-node delivery over pub/sub and
 * cluster-wide connections, subscriptions, presence and cached events kept
 * in Redis by each node. See the README for the key layout.
 *
 * @example
 * ```ts
 * const server = new RealtimeServer({ apps, scaler: createRedisScaler({ redis: new Redis(url), prefix: 'realtime' }) });
 * ```
 */
export function createRedisScaler(options: RedisScalerOptions): RedisScaler {
  return new RedisScalerNode(resolveOptions(options));
}

class RedisScalerNode implements RedisScaler {
  readonly nodeId: string;
  readonly prefix: string;
  readonly #options: ResolvedOptions;
  readonly #keys: Keys;
  readonly #nodeKey: string;
  readonly #ownPrefix: string;
  readonly #state = new LocalState();
  readonly #commands: ScriptClient;
  readonly #subscriber: Redis;
  readonly #firstReady: Promise<void>;
  readonly #heartbeat: ReturnType<typeof setInterval>;
  /** How long start-up calls wait for a first connection before answering locally. */
  readonly #connectWaitMs: number;
  #startupSettled = false;
  #handler: ClusterMessageHandler | undefined;
  #onNodeLost: NodeLossHandler | undefined;
  #closed = false;
  #closing: Promise<void> | undefined;
  #synced = false;
  #outageLogged = false;
  #invalidMessages = 0;
  readonly #publisher: BusPublisher;
  readonly #sequences = new SequenceTracker();
  /** Nodes in the heartbeat set before the current outage: after one, the outbox waits until as many listen. */
  #knownNodes = 0;
  /** When this node was first ready to flush its outbox, waiting for the other nodes to listen. */
  #flushWaitSince: number | undefined;
  #flushTimer: ReturnType<typeof setTimeout> | undefined;
  #tryingFlush = false;
  #beating = false;
  #resyncing: Promise<void> | undefined;
  readonly #joinedOffline = new Map<string, PresenceKey & { userInfo: string }>();
  readonly #leftOffline = new Map<string, PresenceKey>();

  constructor(options: ResolvedOptions) {
    this.#options = options;
    this.nodeId = options.nodeId;
    this.prefix = options.prefix;
    this.#keys = createKeys(options.prefix);
    this.#nodeKey = this.#keys.node(options.nodeId);
    this.#ownPrefix = ownMessagePrefix(options.nodeId);

    // Own connections, so the caller's client keeps its options and listeners.
    const common: Partial<RedisOptions> = {
      lazyConnect: false,
      keyPrefix: '',
      retryStrategy: reconnectBackoff,
      connectionName: `realtime-scaler:${options.nodeId}`,
    };
    // No offline queue and no resend: a command either runs now, in order, or
    // fails at once and the node answers from its own state; resync repairs Redis later.
    this.#commands = defineScripts(
      options.redis.duplicate({
        ...common,
        enableOfflineQueue: false,
        autoResendUnfulfilledCommands: false,
        maxRetriesPerRequest: 0,
        commandTimeout: options.commandTimeoutMs,
        // Commands issued in the same tick (a burst of broadcasts) go out in one write.
        enableAutoPipelining: true,
      }),
    );
    this.#subscriber = options.redis.duplicate({ ...common, enableOfflineQueue: true, autoResubscribe: true, maxRetriesPerRequest: null });
    this.#publisher = new BusPublisher({
      redis: this.#commands,
      busKey: this.#keys.bus,
      ownPrefix: senderPrefix(options.nodeId, randomBytes(6).toString('hex')),
      outboxMaxBytes: options.outboxMaxBytes,
      outboxMaxAgeMs: options.outboxMaxSeconds * 1_000,
      onDown: (error) => this.#markDown(error),
    });

    this.#commands.on('error', (error: unknown) => this.#markDown(error));
    this.#commands.on('close', () => this.#markDown(new Error('connection closed')));
    // Registered before #firstReady's listener: the resync is sent before any waiting call.
    this.#commands.on('ready', () => void this.#resync());
    this.#subscriber.on('error', (error: unknown) => this.#markDown(error));
    this.#subscriber.on('message', (channel: string, payload: string) => this.#onBusMessage(channel, payload));

    const connectWaitMs = (this.#connectWaitMs = Math.max(2 * options.commandTimeoutMs, 1_000));
    this.#firstReady = new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, connectWaitMs);
      timer.unref?.();
      this.#commands.once('ready', () => {
        clearTimeout(timer);
        resolve();
      });
    }).then(() => {
      this.#startupSettled = true;
    });

    this.#heartbeat = setInterval(() => void this.#tick(), options.heartbeatIntervalMs);
    this.#heartbeat.unref?.();
  }

  get connected(): boolean {
    const listening = this.#handler === undefined || this.#subscriber.status === 'ready';
    return this.#synced && !this.#closed && listening && isReady(this.#commands);
  }

  get stats(): RedisScalerStats {
    return {
      ...this.#publisher.stats,
      duplicateMessages: this.#sequences.duplicates,
      missedMessages: this.#sequences.missed,
      invalidMessages: this.#invalidMessages,
    };
  }

  async start(onMessage: ClusterMessageHandler, onNodeLost?: NodeLossHandler): Promise<void> {
    this.#assertOpen();
    this.#handler = onMessage;
    this.#onNodeLost = onNodeLost;
    // Queued while Redis is down and sent once it is up: start() never waits longer than a connect.
    const subscribed = this.#subscriber.subscribe(this.#keys.bus).catch((error: unknown) => this.#markDown(error));
    // Also wait for this node's state to be written, so `connected` is settled when start() returns.
    const written = this.#firstReady.then(() => this.#resyncing);
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([Promise.all([subscribed, written]), new Promise((resolve) => (timer = setTimeout(resolve, this.#connectWaitMs)))]);
    clearTimeout(timer);
  }

  /**
   * Sends a message to the other nodes, in publish order. While Redis is
   * unreachable (or still connecting at start-up) it waits in the outbox, and
   * so does every message after it until the outbox is flushed.
   */
  publish(message: ClusterMessage): void {
    if (this.#closed) return;
    // Still connecting for the first time: held quietly (no outage to log yet), sent once this node is written.
    if (!this.#startupSettled && !isReady(this.#commands)) this.#publisher.hold();
    this.#publisher.publish(message);
  }

  close(): Promise<void> {
    this.#closing ??= this.#shutDown();
    return this.#closing;
  }

  async #shutDown(): Promise<void> {
    // Closed first: no call may write an entry after the removal below, where no reaper would find it.
    this.#closed = true;
    this.#handler = undefined;
    clearInterval(this.#heartbeat);
    clearTimeout(this.#flushTimer);
    await this.#flushAtClose();
    // Graceful stop: everything this node held leaves the cluster state now, not after a timeout.
    await this.#drainOwnState();
    this.#state.clear();
    await Promise.all([quit(this.#commands), quit(this.#subscriber)]);
  }

  /** Whatever is still held goes to the bus now (the other nodes are listening), or is given up and logged. */
  async #flushAtClose(): Promise<void> {
    if (!this.#publisher.holding) return;
    if (isReady(this.#commands) && (await this.#publisher.flush())) return;
    const discarded = this.#publisher.discard();
    const dropped = this.#publisher.takeOutageDrops() + discarded;
    if (dropped > 0) {
      this.#options.logger.warn({ node: this.nodeId, prefix: this.prefix, dropped }, 'stopped while redis was unreachable: cluster messages held in the outbox were not delivered to other nodes');
    }
  }

  /**
   * Removes this node's entries a slice at a time, so a node holding 100,000
   * channels never blocks Redis (nor hits commandTimeoutMs) in one script.
   * Gives up at the first failure: the other nodes reap what is left.
   */
  async #drainOwnState(): Promise<void> {
    const drain = () => this.#commands.rsDrainNode(this.#keys.nodes, this.#nodeKey, this.nodeId, drainSliceEntries);
    // A few slices per round trip (SPOP hands each entry to one call only); the bound only guards against entries being added meanwhile.
    for (let round = 0; isReady(this.#commands) && round < 10_000; round++) {
      const left = await Promise.all(Array.from({ length: drainSlicesPerRound }, drain)).catch(() => undefined);
      if (left === undefined || left.some((count) => Number(count) === 0)) return;
    }
  }

  /** Test hook: the node vanishes as under SIGKILL, leaving its state in Redis. */
  [crashForTests](): void {
    this.#closed = true;
    clearInterval(this.#heartbeat);
    this.#commands.disconnect();
    this.#subscriber.disconnect();
  }

  /** Test hook: a payload as if it arrived on the bus. */
  [busMessageForTests](payload: string): void {
    this.#onBusMessage(this.#keys.bus, payload);
  }

  // Connections

  async addConnection(appId: string, socketId: string): Promise<number> {
    const connected = await this.#ready();
    const local = this.#state.addConnection(appId, socketId);
    if (!connected) return local;
    const key = this.#keys.connections(appId);
    const member = socketMember(this.nodeId, socketId);
    const reply = await this.#send((redis) => redis.rsAddConnection(key, this.#nodeKey, member, entry.connection(key, member)));
    return reply === OFFLINE ? local : Number(reply);
  }

  async removeConnection(appId: string, socketId: string, held: readonly HeldChannel[] = []): Promise<SocketRemoval> {
    let connected = await this.#ready();
    this.#state.removeConnection(appId, socketId);
    const calls = removalCalls(this.#keys, this.nodeId, appId, socketId, held);
    // Local state first, chunk by chunk: a resync that starts meanwhile must not replay this socket.
    const localAnswers = calls.map((call) => this.#state.removeHeld(appId, socketId, call.held));
    const removal: SocketRemoval = { vacated: [], membersLeft: [] };
    for (let start = 0; start < calls.length; start += removalWaveChunks) {
      const wave = calls.slice(start, start + removalWaveChunks);
      // Sent in one tick, so auto-pipelining writes the whole wave at once: one round trip per wave.
      const replies = connected ? await Promise.allSettled(wave.map((call) => this.#commands.rsRemoveSocket(...call.args))) : [];
      wave.forEach((_, i) => {
        const reply = replies[i];
        if (reply?.status === 'fulfilled') return addRemovalReply(removal, reply.value);
        // Not applied in Redis: answer from this node and announce presence leaves after the resync (which removes the rest).
        if (reply) {
          this.#markDown(reply.reason);
          connected = false;
        }
        const local = localAnswers[start + i]!;
        removal.vacated.push(...local.vacated);
        for (const { channel, userId } of local.membersLeft) {
          removal.membersLeft.push({ channel, userId });
          this.#rememberOfflineLeave({ appId, channel, userId });
        }
      });
    }
    return removal;
  }

  async connectionCount(appId: string): Promise<number> {
    const reply = (await this.#ready()) ? await this.#send((redis) => redis.scard(this.#keys.connections(appId))) : OFFLINE;
    return reply === OFFLINE ? this.#state.connectionCount(appId) : reply;
  }

  // Subscriptions

  async addSubscription(appId: string, channel: string, socketId: string): Promise<number> {
    const connected = await this.#ready();
    const local = this.#state.addSubscription(appId, channel, socketId);
    if (!connected) return local;
    const reply = await this.#send((redis) => redis.rsAddSubscription(...this.#subscriptionArgs(appId, channel, socketId)));
    return reply === OFFLINE ? local : Number(reply);
  }

  async removeSubscription(appId: string, channel: string, socketId: string): Promise<number> {
    const connected = await this.#ready();
    const local = this.#state.removeSubscription(appId, channel, socketId);
    if (!connected) return local;
    const reply = await this.#send((redis) => redis.rsRemoveSubscription(...this.#subscriptionArgs(appId, channel, socketId)));
    return reply === OFFLINE ? local : Number(reply);
  }

  async subscriptionCount(appId: string, channel: string): Promise<number> {
    const reply = (await this.#ready()) ? await this.#send((redis) => redis.scard(this.#keys.subscribers(appId, channel))) : OFFLINE;
    return reply === OFFLINE ? this.#state.subscriptionCount(appId, channel) : reply;
  }

  async channels(appId: string): Promise<Map<string, number>> {
    const reply = (await this.#ready()) ? await this.#send((redis) => redis.hgetall(this.#keys.channels(appId))) : OFFLINE;
    if (reply === OFFLINE) return this.#state.channels(appId);
    const result = new Map<string, number>();
    for (const [channel, count] of Object.entries(reply)) if (Number(count) > 0) result.set(channel, Number(count));
    return result;
  }

  // Presence

  async joinPresence(appId: string, channel: string, socketId: string, member: PresenceMember, maxMembers: number): Promise<PresenceJoin> {
    if (!(await this.#ready())) {
      const joined = this.#state.joinPresenceLimited(appId, channel, socketId, member, maxMembers);
      if (joined.status === 'joined' && joined.firstForUser) this.#rememberOfflineJoin({ appId, channel, userId: member.userId, userInfo: member.userInfo });
      return joined;
    }
    // The local record comes first: a resync that starts meanwhile must replay this socket.
    const firstLocal = this.#state.joinPresence(appId, channel, socketId, member);
    const reply = await this.#send((redis) =>
      redis.rsJoinPresence(...this.#presenceKeys(appId, channel), socketMember(this.nodeId, socketId), member.userId, member.userInfo, maxMembers, this.#presenceEntry(appId, channel, socketId, member.userId)),
    );
    if (reply === OFFLINE) {
      if (firstLocal) this.#rememberOfflineJoin({ appId, channel, userId: member.userId, userInfo: member.userInfo });
      return { status: 'joined', firstForUser: firstLocal, members: this.#state.presenceMembers(appId, channel) };
    }
    const values = reply as (string | number)[];
    if (values[0] === 0) {
      this.#state.leavePresence(appId, channel, socketId, member.userId);
      return { status: 'full' };
    }
    return { status: 'joined', firstForUser: values[1] === 1, members: toMembers(values.slice(2).map(String)) };
  }

  async leavePresence(appId: string, channel: string, socketId: string, userId: string): Promise<boolean> {
    const connected = await this.#ready();
    const lastLocal = this.#state.leavePresence(appId, channel, socketId, userId);
    const reply = connected
      ? await this.#send((redis) =>
          redis.rsLeavePresence(...this.#presenceKeys(appId, channel), socketMember(this.nodeId, socketId), userId, this.#presenceEntry(appId, channel, socketId, userId)),
        )
      : OFFLINE;
    if (reply !== OFFLINE) return reply === 1;
    if (lastLocal) this.#rememberOfflineLeave({ appId, channel, userId });
    return lastLocal;
  }

  async presenceMembers(appId: string, channel: string): Promise<PresenceMember[]> {
    const reply = (await this.#ready()) ? await this.#send((redis) => redis.hgetall(this.#keys.presenceInfo(appId, channel))) : OFFLINE;
    if (reply === OFFLINE) return this.#state.presenceMembers(appId, channel);
    return Object.entries(reply).map(([userId, userInfo]) => ({ userId, userInfo }));
  }

  async isPresenceMember(appId: string, channel: string, userId: string): Promise<boolean> {
    const reply = (await this.#ready()) ? await this.#send((redis) => redis.hexists(this.#keys.presenceUsers(appId, channel), userId)) : OFFLINE;
    // This node's own state knows nothing of other nodes' members: no answer beats a wrong "absent".
    if (reply === OFFLINE) throw new RedisScalerError('REDIS_UNAVAILABLE', `@org/redis-scaler: cannot tell whether ${userId} is in ${channel} while Redis is unreachable`);
    return reply === 1;
  }

  async userCount(appId: string, channel: string): Promise<number> {
    const reply = (await this.#ready()) ? await this.#send((redis) => redis.hlen(this.#keys.presenceUsers(appId, channel))) : OFFLINE;
    return reply === OFFLINE ? this.#state.userCount(appId, channel) : reply;
  }

  // Cached events

  async storeCachedEvent(appId: string, channel: string, frame: string, ttlSeconds: number): Promise<void> {
    const connected = await this.#ready();
    const ttl = Math.max(1, Math.ceil(ttlSeconds));
    this.#state.storeCachedEvent(appId, channel, frame, ttl, Date.now());
    if (connected) await this.#send((redis) => redis.set(this.#keys.cache(appId, channel), frame, 'EX', ttl));
  }

  async cachedEvent(appId: string, channel: string): Promise<CachedEvent | undefined> {
    const reply = (await this.#ready()) ? await this.#send((redis) => redis.rsCachedEvent(this.#keys.cache(appId, channel))) : OFFLINE;
    if (reply === OFFLINE) return this.#state.cachedEvent(appId, channel, Date.now());
    if (!Array.isArray(reply)) return undefined;
    const [frame, pttl] = reply as [string, number];
    const ttl = Math.ceil(pttl / 1000);
    return ttl > 0 ? { frame, ttl } : undefined;
  }

  // Plumbing

  #subscriptionArgs(appId: string, channel: string, socketId: string): [string, string, string, string, string, string] {
    const subs = this.#keys.subscribers(appId, channel);
    const chans = this.#keys.channels(appId);
    const member = socketMember(this.nodeId, socketId);
    return [subs, chans, this.#nodeKey, member, channel, entry.subscription(subs, chans, member, appId, channel)];
  }

  #presenceKeys(appId: string, channel: string): [string, string, string, string] {
    return [this.#keys.presenceSockets(appId, channel), this.#keys.presenceUsers(appId, channel), this.#keys.presenceInfo(appId, channel), this.#nodeKey];
  }

  #presenceEntry(appId: string, channel: string, socketId: string, userId: string): string {
    const [sockets, users, info] = this.#presenceKeys(appId, channel);
    return entry.presence(sockets, users, info, socketMember(this.nodeId, socketId), appId, channel, userId);
  }

  #assertOpen(): void {
    if (this.#closed) throw new RedisScalerError('SCALER_CLOSED', `@org/redis-scaler: node ${this.nodeId} was closed`);
  }

  /** True when a command can be sent now; waits once for the first connection. */
  async #ready(): Promise<boolean> {
    this.#assertOpen();
    if (this.#commands.status === 'ready') return true;
    if (!this.#startupSettled) await this.#firstReady;
    this.#assertOpen();
    if (isReady(this.#commands)) return true;
    this.#markDown(new Error('not connected'));
    return false;
  }

  async #send<T>(command: (redis: ScriptClient) => Promise<T>): Promise<T | Offline> {
    try {
      return await command(this.#commands);
    } catch (error) {
      this.#markDown(error);
      return OFFLINE;
    }
  }

  /** One log line per outage, however many calls fail during it. */
  #markDown(error: unknown): void {
    this.#synced = false;
    // From now on cluster messages wait in the outbox until this node is resynchronised and the others listen.
    this.#publisher.hold();
    this.#flushWaitSince = undefined;
    if (this.#closed || this.#outageLogged) return;
    this.#outageLogged = true;
    this.#options.logger.warn(
      { err: error, node: this.nodeId, prefix: this.prefix },
      'redis unreachable: serving this node from local state; cross-node delivery paused until it is back',
    );
  }

  #rememberOfflineJoin(user: PresenceKey & { userInfo: string }): void {
    const key = presenceKey(user);
    if (this.#leftOffline.delete(key)) return; // left and came back within the outage: nothing changed for the others
    if (this.#joinedOffline.size < maxOutageAnnouncements) this.#joinedOffline.set(key, user);
  }

  #rememberOfflineLeave(user: PresenceKey): void {
    const key = presenceKey(user);
    if (this.#joinedOffline.delete(key)) return;
    if (this.#leftOffline.size < maxOutageAnnouncements) this.#leftOffline.set(key, user);
  }

  #onBusMessage(channel: string, payload: string): void {
    if (channel !== this.#keys.bus || payload.startsWith(this.#ownPrefix)) return;
    const envelope = decodeEnvelope(payload);
    if (!envelope) {
      if (this.#invalidMessages++ === 0) this.#options.logger.warn({ node: this.nodeId, bytes: payload.length }, 'ignored a malformed message on the bus');
      return;
    }
    const { message, sender, seq } = envelope;
    if (sender !== undefined && seq !== undefined && !this.#sequences.accept(sender, seq)) return;
    try {
      this.#handler?.(message);
    } catch (error) {
      this.#options.logger.error({ err: error, node: this.nodeId, type: message.type }, 'the cluster message handler threw');
    }
  }

  /** Every heartbeat: say this node is alive, then remove nodes that stopped saying so. */
  async #tick(): Promise<void> {
    // A resync in flight heartbeats itself; a beat queued behind its MULTI would only time out.
    if (this.#beating || this.#closed || this.#resyncing) return;
    this.#beating = true;
    try {
      this.#state.pruneCache(Date.now());
      if (this.#commands.status !== 'ready') return;
      const reply = await this.#send((redis) => redis.rsHeartbeat(this.#keys.nodes, this.nodeId, this.#options.nodeTimeoutMs));
      if (reply === OFFLINE) return;
      const [added, dead, nodes] = reply as [number, string[], number];
      // Frozen while holding: after Redis restarted empty, the set fills up again only as nodes come back.
      if (!this.#publisher.holding) this.#knownNodes = Number(nodes);
      // Added means another node reaped this one (an outage, a stalled event loop): put the state back.
      if (!this.#synced || added === 1) await this.#resync();
      for (const nodeId of dead) if (nodeId !== this.nodeId) await this.#reap(nodeId);
      if (this.#publisher.holding) await this.#tryFlush();
    } finally {
      this.#beating = false;
    }
  }

  async #reap(deadNodeId: string): Promise<void> {
    const reply = await this.#send((redis) =>
      redis.rsReap(this.#keys.nodes, this.#keys.node(deadNodeId), deadNodeId, this.#options.nodeTimeoutMs, '0'),
    );
    if (reply === OFFLINE || !Array.isArray(reply)) return; // another node won, or it came back
    const [usersFlat, vacatedFlat] = reply as [string[], string[]];
    const removed: NodeLoss['members'] = [];
    for (let i = 0; i + 2 < usersFlat.length; i += 3) removed.push({ appId: usersFlat[i]!, channel: usersFlat[i + 1]!, userId: usersFlat[i + 2]! });
    const vacated: NodeLoss['vacatedChannels'] = [];
    for (let i = 0; i + 1 < vacatedFlat.length; i += 2) vacated.push({ appId: vacatedFlat[i]!, channel: vacatedFlat[i + 1]! });
    this.#options.logger.info(
      { node: this.nodeId, deadNode: deadNodeId, membersRemoved: removed.length, channelsVacated: vacated.length },
      'removed the state of a node that stopped heartbeating',
    );
    if (removed.length === 0 && vacated.length === 0) return;
    try {
      this.#onNodeLost?.({ members: removed, vacatedChannels: vacated });
    } catch (error) {
      this.#options.logger.error({ err: error, node: this.nodeId }, 'the node-loss handler threw');
    }
  }

  #resync(): Promise<void> {
    this.#resyncing ??= this.#writeOwnState().finally(() => {
      this.#resyncing = undefined;
    });
    return this.#resyncing;
  }

  /**
   * Rewrites this node's whole state into Redis in one transaction: its old
   * entries are removed and its local state replayed, so nothing another node
   * reads is half-done, whatever Redis lost or kept during the outage.
   */
  async #writeOwnState(): Promise<void> {
    if (this.#closed || this.#commands.status !== 'ready') return;
    const joined = [...this.#joinedOffline.values()];
    const left = [...this.#leftOffline.values()];
    this.#joinedOffline.clear();
    this.#leftOffline.clear();

    const { nodes } = this.#keys;
    const timeout = this.#options.nodeTimeoutMs;
    const multi = this.#commands.multi() as ScriptPipeline;
    multi.rsReap(nodes, this.#nodeKey, this.nodeId, timeout, '1');
    multi.rsHeartbeat(nodes, this.nodeId, timeout);
    let replayed = 0;
    for (const [appId, sockets] of this.#state.connections) {
      const key = this.#keys.connections(appId);
      for (const socketId of sockets) {
        const member = socketMember(this.nodeId, socketId);
        multi.rsAddConnection(key, this.#nodeKey, member, entry.connection(key, member));
        replayed++;
      }
    }
    for (const [appId, channels] of this.#state.subscriptions) {
      for (const [channel, sockets] of channels) {
        for (const socketId of sockets) {
          multi.rsAddSubscription(...this.#subscriptionArgs(appId, channel, socketId));
          replayed++;
        }
      }
    }
    const commandIndex = () => 2 + replayed;
    const firstJoinOf = new Map<string, number>();
    for (const [appId, channels] of this.#state.presence) {
      for (const [channel, users] of channels) {
        for (const [userId, user] of users) {
          firstJoinOf.set(presenceKey({ appId, channel, userId }), commandIndex());
          for (const socketId of user.sockets) {
            multi.rsJoinPresence(...this.#presenceKeys(appId, channel), socketMember(this.nodeId, socketId), userId, user.userInfo, unlimitedMembers, this.#presenceEntry(appId, channel, socketId, userId));
            replayed++;
          }
        }
      }
    }
    const stillPresent = left.map((user, i) => {
      multi.hexists(this.#keys.presenceUsers(user.appId, user.channel), user.userId);
      return commandIndex() + i;
    });

    let results: [Error | null, unknown][] | null;
    try {
      results = await this.#execWithRoom(multi, replayed);
    } catch (error) {
      results = null;
      this.#markDown(error);
    }
    const failed = !results || results.some(([error]) => error);
    if (!results || failed) {
      if (results) this.#markDown(results.find(([error]) => error)?.[0]);
      // Keep the announcements for the next attempt.
      for (const user of joined) this.#joinedOffline.set(presenceKey(user), user);
      for (const user of left) this.#leftOffline.set(presenceKey(user), user);
      return;
    }

    this.#synced = true;
    if (this.#outageLogged) {
      this.#outageLogged = false;
      const { outboxMessages, outboxBytes } = this.#publisher.stats;
      this.#options.logger.info(
        { node: this.nodeId, prefix: this.prefix, entries: replayed, outboxMessages, outboxBytes },
        'redis reachable again: state resynchronised, cross-node delivery resumed (held messages follow once every node listens)',
      );
    }

    // The heartbeat set before an outage: the outbox waits for that many listeners (a restarted Redis starts empty).
    this.#knownNodes = Math.max(this.#knownNodes, Number((results[1]?.[1] as unknown[] | undefined)?.[2] ?? 0));

    // Presence changes made during the outage reached only this node's clients; the others hear of them
    // with the outbox, once they listen again (see #tryFlush).
    const announcements: ClusterMessage[] = [];
    for (const user of joined) {
      const index = firstJoinOf.get(presenceKey(user));
      const reply = index === undefined ? undefined : (results[index]?.[1] as (number | string)[] | undefined);
      if (reply?.[1] === 1) announcements.push({ type: 'member-added', appId: user.appId, channel: user.channel, userId: user.userId, userInfo: user.userInfo });
    }
    left.forEach((user, i) => {
      if (results[stillPresent[i]!]?.[1] === 0) announcements.push({ type: 'member-removed', appId: user.appId, channel: user.channel, userId: user.userId });
    });
    // Ahead of what was held: a user who joined during the outage is announced before their messages.
    this.#publisher.prepend(announcements);
    void this.#tryFlush();
  }

  /**
   * Redis runs a MULTI as one command, so its reply comes after the whole
   * replay: with the connection's commandTimeoutMs a node holding 100,000
   * entries would time out and retry its resync forever. Its commands get a
   * timeout that grows with the replay (ioredis reads the option as each
   * command is sent, and `exec` sends them all at once).
   */
  #execWithRoom(multi: ScriptPipeline, entries: number): Promise<[Error | null, unknown][] | null> {
    const options = this.#commands.options;
    const base = options.commandTimeout;
    options.commandTimeout = this.#options.commandTimeoutMs + Math.ceil(entries * resyncMsPerEntry);
    try {
      return multi.exec();
    } finally {
      options.commandTimeout = base;
    }
  }

  /**
   * Flushes the outbox once this node is resynchronised and the other nodes
   * listen again. Pub/sub keeps nothing for a node that is not subscribed,
   * and after an outage every node reconnects on its own schedule: wait until
   * as many subscribers listen on the bus as there were nodes before the
   * outage (or as heartbeat now), polling, for at most nodeTimeoutMs (a node
   * that died meanwhile never comes back).
   */
  async #tryFlush(): Promise<void> {
    if (this.#closed || !this.#publisher.holding || this.#flushTimer !== undefined || this.#tryingFlush) return;
    // Not resynchronised yet: the resync calls again when it is done.
    if (!this.#synced || !isReady(this.#commands)) return;
    this.#tryingFlush = true;
    try {
      await this.#flushWhenListened();
    } finally {
      this.#tryingFlush = false;
    }
  }

  async #flushWhenListened(): Promise<void> {
    this.#flushWaitSince ??= Date.now();
    const counts = await this.#send((redis) => Promise.all([redis.pubsub('NUMSUB', this.#keys.bus), redis.zcard(this.#keys.nodes)]));
    if (counts === OFFLINE) return;
    const [numsub, nodes] = counts;
    const listening = Number((numsub as unknown[])[1] ?? 0);
    const ownListening = this.#handler === undefined || this.#subscriber.status === 'ready';
    const waited = Date.now() - this.#flushWaitSince;
    if ((listening < Math.max(nodes, this.#knownNodes) || !ownListening) && waited < this.#options.nodeTimeoutMs) {
      this.#flushTimer = setTimeout(() => {
        this.#flushTimer = undefined;
        void this.#tryFlush();
      }, flushPollMs);
      this.#flushTimer.unref?.();
      return;
    }
    if (!(await this.#publisher.flush())) return; // a PUBLISH failed: held again until the next resync
    this.#flushWaitSince = undefined;
    this.#knownNodes = nodes;
    const dropped = this.#publisher.takeOutageDrops();
    if (dropped > 0) {
      const { outboxMaxSeconds, outboxMaxBytes } = this.#options;
      this.#options.logger.warn(
        { node: this.nodeId, prefix: this.prefix, dropped, outboxMaxSeconds, outboxMaxBytes },
        'cluster messages dropped during the redis outage: the outbox kept only the newest within its bounds',
      );
    }
  }
}

/** Read through a function so TypeScript does not narrow a status that changes under us. */
function isReady(redis: Redis): boolean {
  return redis.status === 'ready';
}

function presenceKey(user: PresenceKey): string {
  return `${user.appId}\u0000${user.channel}\u0000${user.userId}`;
}

function toMembers(flat: string[]): PresenceMember[] {
  const members: PresenceMember[] = [];
  for (let i = 0; i + 1 < flat.length; i += 2) members.push({ userId: flat[i]!, userInfo: flat[i + 1]! });
  return members;
}

/** QUIT, or a hard disconnect when Redis does not answer in time. */
async function quit(redis: Redis): Promise<void> {
  if (redis.status === 'end') return;
  if (redis.status !== 'ready') {
    redis.disconnect();
    return;
  }
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, 1_000);
  });
  await Promise.race([redis.quit().then(() => undefined, () => undefined), timeout]);
  clearTimeout(timer);
  redis.disconnect();
}
