import { ClusterState } from '@org/protocol';
import type { CachedEvent, ClusterMessage, ClusterMessageHandler, HeldChannel, NodeLossHandler, PresenceJoin, PresenceMember, Scaler, ScalerStartOptions, SocketRemoval } from '@org/protocol';
import type { RedisScalerStats } from './bus.js';
import { RedisScalerError } from './errors.js';
import type { WithFallback } from './fallback.js';
import { busMessageForTests, crashForTests } from './internal.js';
import type { Keys } from './keys.js';
import { NodeRuntime } from './node-runtime.js';
import { resolveOptions, type RedisScalerOptions } from './options.js';
import { OutagePresence } from './outage-presence.js';
import type { ScriptArgs } from './script-args.js';
import { addLocalRemoval, removalCalls, removeInWaves, removeLocally } from './socket-removal.js';

export type { RedisScalerStats } from './bus.js';

/** A `Scaler` backed by Redis, with what an operator may want to see. */
export interface RedisScaler extends Scaler {
  /** The namespace of this deployment's keys and bus. */
  readonly prefix: string;
  /** False while Redis is unreachable or not yet resynchronised: answers then come from this node's own state. */
  readonly connected: boolean;
  /** Counters and gauges for monitoring (read-only snapshot). */
  readonly stats: RedisScalerStats;
}

/** Cache channels whose last event is also kept locally for outages; Redis keeps them all. */
const maxLocalCachedEvents = 10_000;

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
  return new RedisScalerNode(options);
}

/**
 * The Scaler calls of one node, each one `withFallback(redisCall, localAnswer, change?)` over this
 * node's own state (see fallback.ts). The node's machinery is `NodeRuntime`'s.
 */
class RedisScalerNode implements RedisScaler {
  readonly nodeId: string;
  readonly prefix: string;
  /** This node's own share: the answer while Redis is unreachable and what the resync writes back. */
  readonly #state = new ClusterState({ maxCachedEvents: maxLocalCachedEvents });
  readonly #outage = new OutagePresence();
  readonly #node: NodeRuntime;
  readonly #keys: Keys;
  readonly #args: ScriptArgs;
  readonly #withFallback: WithFallback;
  readonly #commandTimeoutMs: number;

  constructor(options: RedisScalerOptions) {
    const resolved = resolveOptions(options);
    this.#commandTimeoutMs = resolved.commandTimeoutMs;
    this.nodeId = resolved.nodeId;
    this.prefix = resolved.prefix;
    this.#node = new NodeRuntime(resolved, this.#state, this.#outage);
    ({ keys: this.#keys, args: this.#args, withFallback: this.#withFallback } = this.#node);
  }

  get connected(): boolean {
    return this.#node.connected;
  }

  get stats(): RedisScalerStats {
    return { ...this.#node.bus.stats, ...this.#node.interest.stats };
  }

  start(onMessage: ClusterMessageHandler, onNodeLost?: NodeLossHandler, options?: ScalerStartOptions): Promise<void> {
    return this.#node.start(onMessage, onNodeLost, options, () => this.#listenedChannels());
  }

  publish(message: ClusterMessage): void {
    this.#node.publish(message);
  }

  close(): Promise<void> {
    return this.#node.close();
  }

  /** Test hook: the node vanishes as under SIGKILL, leaving its state in Redis. */
  [crashForTests](): void {
    this.#node.crash();
  }

  /** Test hook: a payload as if it arrived on the bus (or on `topic`). */
  [busMessageForTests](payload: string, topic = this.#keys.bus): void {
    this.#node.bus.receive(topic, payload);
  }

  // Routing: which channel topics this node listens to follows its own state (`#state`), nothing else.

  /** True while this node holds a subscription or a presence socket in the channel. */
  #listens(appId: string, channel: string): boolean {
    return this.#state.subscriptionCount(appId, channel) > 0 || this.#state.userCount(appId, channel) > 0;
  }

  /**
   * After a change of this node's state in a channel: its topic is wanted (the confirmation returned)
   * or released (it lingers). Nothing when the node is not routed.
   */
  #follow(appId: string, channel: string): Promise<void> | undefined {
    if (!this.#node.routed) return undefined;
    const topic = this.#keys.topic(appId, channel);
    if (this.#listens(appId, channel)) return this.#node.interest.want(topic);
    this.#node.interest.release(topic);
    return undefined;
  }

  /**
   * Waits for a SUBSCRIBE as long as a command may take: past it the call counts as failed (the node
   * is cut off from its subscriber) and is answered locally; the SUBSCRIBE stays queued.
   */
  async #confirmed(subscribed: Promise<void> | undefined): Promise<void> {
    if (subscribed === undefined) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new RedisScalerError('REDIS_UNAVAILABLE', '@org/redis-scaler: a channel topic SUBSCRIBE was not confirmed in time')), this.#commandTimeoutMs);
    });
    try {
      await Promise.race([subscribed, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Every channel this node listens to now (for a start after subscriptions were made). */
  *#listenedChannels(): Generator<[appId: string, channel: string]> {
    const seen = new Set<string>();
    for (const [appId, channel] of this.#state.subscriptionEntries()) {
      seen.add(`${appId}\u0000${channel}`);
      yield [appId, channel];
    }
    for (const [appId, channel] of this.#state.presenceEntries()) {
      const key = `${appId}\u0000${channel}`;
      if (seen.has(key)) continue;
      seen.add(key);
      yield [appId, channel];
    }
  }

  // Connections

  addConnection(appId: string, socketId: string): Promise<number> {
    const change = () => this.#state.addConnection(appId, socketId);
    return this.#withFallback((redis) => redis.rsAddConnection(...this.#args.connection(appId, socketId)).then(Number), (local) => local, change);
  }

  removeConnection(appId: string, socketId: string, held: readonly HeldChannel[] = [], signedInAs?: string): Promise<SocketRemoval> {
    const calls = removalCalls(this.#keys, this.nodeId, appId, socketId, held, signedInAs);
    // Removed locally first, every chunk: a resync that starts meanwhile must not replay this socket.
    const change = () => {
      const locals = removeLocally(this.#state, appId, socketId, calls, signedInAs);
      for (const { channel } of held) this.#follow(appId, channel);
      return locals;
    };
    // A chunk Redis did not remove is answered locally; its presence leaves are announced after the resync.
    const answerLocally = (into: SocketRemoval, local: SocketRemoval) => {
      addLocalRemoval(into, local);
      for (const { channel, userId } of local.membersLeft) this.#outage.left({ appId, channel, userId });
    };
    return this.#withFallback(
      (redis, locals) => removeInWaves(redis, calls, locals, (error) => this.#node.health.markDown(error), answerLocally),
      (locals) => {
        const removal: SocketRemoval = { vacated: [], membersLeft: [] };
        for (const local of locals) answerLocally(removal, local);
        return removal;
      },
      change,
    );
  }

  connectionCount(appId: string): Promise<number> {
    return this.#withFallback((redis) => redis.scard(this.#keys.connections(appId)), () => this.#state.connectionCount(appId));
  }

  // Subscriptions

  addSubscription(appId: string, channel: string, socketId: string): Promise<number> {
    const change = () => ({ count: this.#state.addSubscription(appId, channel, socketId), subscribed: this.#follow(appId, channel) });
    return this.#withFallback(
      // The node's first subscriber of the channel: its topic's SUBSCRIBE and the script go out together, and the
      // call resolves once both are answered, so whatever is published after it resolved reaches this node.
      async (redis, { subscribed }) => {
        const [count] = await Promise.all([redis.rsAddSubscription(...this.#args.subscription(appId, channel, socketId)), this.#confirmed(subscribed)]);
        return Number(count);
      },
      // During an outage the answer does not wait for the SUBSCRIBE (it is queued until Redis is back).
      ({ count }) => count,
      change,
    );
  }

  removeSubscription(appId: string, channel: string, socketId: string): Promise<number> {
    const change = () => {
      const count = this.#state.removeSubscription(appId, channel, socketId);
      this.#follow(appId, channel);
      return count;
    };
    return this.#withFallback((redis) => redis.rsRemoveSubscription(...this.#args.subscription(appId, channel, socketId)).then(Number), (local) => local, change);
  }

  subscriptionCount(appId: string, channel: string): Promise<number> {
    return this.#withFallback((redis) => redis.scard(this.#keys.subscribers(appId, channel)), () => this.#state.subscriptionCount(appId, channel));
  }

  channels(appId: string): Promise<Map<string, number>> {
    return this.#withFallback(
      async (redis) => {
        const result = new Map<string, number>();
        for (const [channel, count] of Object.entries(await redis.hgetall(this.#keys.channels(appId)))) if (Number(count) > 0) result.set(channel, Number(count));
        return result;
      },
      () => this.#state.channels(appId),
    );
  }

  // Presence

  joinPresence(appId: string, channel: string, socketId: string, member: PresenceMember, maxMembers: number): Promise<PresenceJoin> {
    const { userId, userInfo } = member;
    // Recorded without the limit: Redis decides it cluster-wide (and a refusal is undone below).
    const change = () => ({ firstLocal: this.#state.addPresenceSocket(appId, channel, socketId, member), subscribed: this.#follow(appId, channel) });
    return this.#withFallback(
      async (redis, { subscribed }): Promise<PresenceJoin> => {
        // The topic is confirmed BEFORE the script reads the members: a member event published after the
        // snapshot then reaches this node, one published before it is in the snapshot.
        await this.#confirmed(subscribed);
        const reply = (await redis.rsJoinPresence(...this.#args.presenceJoin(appId, channel, socketId, member, maxMembers))) as (string | number)[];
        if (reply[0] === 0) {
          this.#state.leavePresence(appId, channel, socketId, userId);
          this.#follow(appId, channel);
          return { status: 'full' };
        }
        return { status: 'joined', firstForUser: reply[1] === 1, members: toMembers(reply.slice(2).map(String)) };
      },
      // Only this node's members are known: the limit counts them.
      ({ firstLocal }) => {
        const join = this.#state.settlePresenceJoin(appId, channel, socketId, userId, firstLocal, maxMembers);
        if (join.status === 'full') this.#follow(appId, channel);
        if (join.status === 'joined' && firstLocal) this.#outage.joined({ appId, channel, userId, userInfo });
        return join;
      },
      change,
    );
  }

  leavePresence(appId: string, channel: string, socketId: string, userId: string): Promise<boolean> {
    const change = () => {
      const lastLocal = this.#state.leavePresence(appId, channel, socketId, userId);
      this.#follow(appId, channel);
      return lastLocal;
    };
    return this.#withFallback(
      async (redis) => (await redis.rsLeavePresence(...this.#args.presenceLeave(appId, channel, socketId, userId))) === 1,
      (lastLocal) => {
        if (lastLocal) this.#outage.left({ appId, channel, userId });
        return lastLocal;
      },
      change,
    );
  }

  presenceMembers(appId: string, channel: string): Promise<PresenceMember[]> {
    return this.#withFallback(
      async (redis) => Object.entries(await redis.hgetall(this.#keys.presenceInfo(appId, channel))).map(([userId, userInfo]) => ({ userId, userInfo })),
      () => this.#state.presenceMembers(appId, channel),
    );
  }

  isPresenceMember(appId: string, channel: string, userId: string): Promise<boolean> {
    return this.#withFallback(
      async (redis) => (await redis.hexists(this.#keys.presenceUsers(appId, channel), userId)) === 1,
      // This node's own state knows nothing of other nodes' members: no answer beats a wrong "absent".
      () => {
        throw new RedisScalerError('REDIS_UNAVAILABLE', `@org/redis-scaler: cannot tell whether ${userId} is in ${channel} while Redis is unreachable`);
      },
    );
  }

  userCount(appId: string, channel: string): Promise<number> {
    return this.#withFallback((redis) => redis.hlen(this.#keys.presenceUsers(appId, channel)), () => this.#state.userCount(appId, channel));
  }

  // Signed-in users (watchlist events). During an outage the answers are this node's own (first and last
  // here): a receiving node checks each watchlist event against the state before delivering it.

  signIn(appId: string, userId: string, socketId: string): Promise<boolean> {
    const change = () => this.#state.signIn(appId, userId, socketId);
    return this.#withFallback(async (redis) => (await redis.rsSignIn(...this.#args.signin(appId, userId, socketId))) === 1, (firstLocal) => firstLocal, change);
  }

  signOut(appId: string, userId: string, socketId: string): Promise<boolean> {
    const change = () => this.#state.signOut(appId, userId, socketId);
    return this.#withFallback(async (redis) => (await redis.rsSignOut(...this.#args.signin(appId, userId, socketId))) === 1, (lastLocal) => lastLocal, change);
  }

  onlineUsers(appId: string, userIds: readonly string[]): Promise<string[]> {
    if (userIds.length === 0) return Promise.resolve([]);
    return this.#withFallback(
      async (redis) => {
        const counts = await redis.hmget(this.#keys.online(appId), ...userIds);
        return userIds.filter((_, index) => counts[index] !== null);
      },
      () => this.#state.onlineUsers(appId, userIds),
    );
  }

  // Cached events

  storeCachedEvent(appId: string, channel: string, frame: string, ttlSeconds: number): Promise<void> {
    const ttl = Math.max(1, Math.ceil(ttlSeconds));
    // Kept locally too, to answer during an outage.
    const change = () => this.#state.storeCachedEvent(appId, channel, frame, ttl);
    return this.#withFallback(async (redis) => void (await redis.set(this.#keys.cache(appId, channel), frame, 'EX', ttl)), () => undefined, change);
  }

  cachedEvent(appId: string, channel: string): Promise<CachedEvent | undefined> {
    return this.#withFallback(
      async (redis) => {
        const reply = await redis.rsCachedEvent(this.#keys.cache(appId, channel));
        if (!Array.isArray(reply)) return undefined;
        const [frame, pttl] = reply as [string, number];
        const ttl = Math.ceil(pttl / 1000);
        return ttl > 0 ? { frame, ttl } : undefined;
      },
      () => this.#state.cachedEvent(appId, channel),
    );
  }
}

function toMembers(flat: string[]): PresenceMember[] {
  const members: PresenceMember[] = [];
  for (let i = 0; i + 1 < flat.length; i += 2) members.push({ userId: flat[i]!, userInfo: flat[i + 1]! });
  return members;
}
