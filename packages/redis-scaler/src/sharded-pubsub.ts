import type { Cluster, Redis } from 'ioredis';
import { keySlot, slotCount } from './key-slot.js';
import type { ScalerLogger } from './options.js';
import type { PubSub } from './pubsub.js';
import { quit } from './redis-client.js';

/** A failed shard logs an error per reconnect attempt (221 in 9 s measured): at most one line per window. */
const errorLogWindowMs = 10_000;
/** A confirmation that failed (the shard still failing over) is tried again after this long, doubling up to 2 s. */
const confirmRetryMs = 250;
const confirmRetryMaxMs = 2_000;
/**
 * A re-sent SSUBSCRIBE that got no answer in this long counts as failed (and is retried): ioredis
 * never settles an SSUBSCRIBE answered with MOVED (it only refreshes its slots), and an unsettled
 * confirmation would block every later one.
 */
const confirmTimeoutMs = 3_000;
/** Default of `topologyCheckMs`. */
const defaultTopologyCheckMs = 1_000;

export interface ShardedPubSubOptions {
  nodeId: string;
  logger: ScalerLogger;
  /**
   * How often both Clusters re-read the slot owners (`CLUSTER SLOTS`, one round trip each). A slot
   * that changed owner while every connection stayed up (a `CLUSTER FAILOVER`, a resharding) gives
   * no connection event: Redis just drops the slot's shard subscriptions on the old owner's
   * connection, and a command Cluster whose MOVED came back inside a mixed auto-pipeline keeps its
   * stale map. This check is what finds both. Default 1000 ms.
   */
  topologyCheckMs?: number;
}

/** A command ioredis did not settle in time. */
class NoAnswerError extends Error {}

/** Rejects once `ms` passed without `promise` settling. */
function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new NoAnswerError(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** `-MOVED`/`-ASK`: the slot moved and the Cluster's map is stale. */
function isRedirection(error: unknown): boolean {
  const message = error instanceof Error ? error.message : '';
  return message.startsWith('MOVED ') || message.startsWith('ASK ');
}

/**
 * ioredis' reply to a push it did not expect. When a master loses a slot (a `CLUSTER FAILOVER`, a
 * resharding), Redis pushes an unsolicited `sunsubscribe` per channel of the slot to every subscriber
 * connection. ioredis takes each one for the reply of the next pending command on that connection:
 * an SSUBSCRIBE in flight there is resolved by it (not subscribed, yet confirmed), and the push that
 * brings the count to 0 takes the connection out of subscriber mode in ioredis' view while Redis
 * still has subscriptions on it, so every later `smessage` there is dropped as this error. The
 * connection's state is then unknowable: it is replaced (see `#replaceConnection`).
 */
function isQueueStateError(error: unknown): boolean {
  return error instanceof Error && error.message.startsWith('Command queue state error');
}

/** ioredis' `ShardedSubscriber`: one master's subscriber connection. */
interface ShardedSubscriberHandle {
  getInstance?: () => Redis | null;
  stop?: () => void;
}

/** ioredis' sharded subscribers by master (`host:port`); undefined if this ioredis has none. */
function shardedSubscribers(subscriber: Cluster): Map<string, ShardedSubscriberHandle> | undefined {
  const group = (subscriber as unknown as { shardedSubscribers?: { shardedSubscribers?: unknown } }).shardedSubscribers;
  const subscribers = group?.shardedSubscribers;
  return subscribers instanceof Map ? (subscribers as Map<string, ShardedSubscriberHandle>) : undefined;
}

const ignore = () => {};

/**
 * ioredis stops a sharded subscriber it no longer needs (its master lost its slots) with
 * `disconnect()` then `removeAllListeners()`; replies still buffered on that socket are parsed
 * after, and a mismatched one (`isQueueStateError`: exactly what a master that lost its slots
 * sends) is emitted as an `error` nobody listens to, an uncaught exception that stops the daemon.
 * Each sharded subscriber's `stop` is wrapped once so that its connection keeps a listener that
 * ignores those late errors.
 */
const guarded = new WeakSet<ShardedSubscriberHandle>();
function guardStops(subscriber: Cluster): void {
  for (const handle of shardedSubscribers(subscriber)?.values() ?? []) {
    if (guarded.has(handle) || typeof handle.stop !== 'function') continue;
    guarded.add(handle);
    const stop = handle.stop.bind(handle);
    handle.stop = () => {
      const connection = handle.getInstance?.();
      stop();
      connection?.on('error', ignore);
    };
  }
}

/**
 * Where ioredis actually sends a slot's SSUBSCRIBE: its subscriber group's own slot map, which lags
 * the Cluster's (`slots`) while a previous reset of the group is still connecting. Undefined if
 * this ioredis has no such map.
 */
function subscriberRoutes(subscriber: Cluster): (string[] | undefined)[] | undefined {
  const group = (subscriber as unknown as { shardedSubscribers?: { clusterSlots?: unknown } }).shardedSubscribers;
  const routes = group?.clusterSlots;
  return Array.isArray(routes) && routes.length > 0 ? (routes as (string[] | undefined)[]) : undefined;
}

/**
 * ioredis' per-slot channel lists (its `ClusterSubscriberGroup`), which it re-sends after it replaced a
 * subscriber. It appends on every SSUBSCRIBE without deduplicating; undefined if this ioredis has none.
 */
function channelLists(subscriber: Cluster): Map<number, string[]> | undefined {
  const group = (subscriber as unknown as { shardedSubscribers?: { channels?: unknown } }).shardedSubscribers;
  return group?.channels instanceof Map ? (group.channels as Map<number, string[]>) : undefined;
}

/**
 * Pub/sub on a Redis Cluster (Redis 7+): sharded SPUBLISH/SSUBSCRIBE, so each topic lives on the
 * master that owns its slot and the traffic spreads over the masters (plain PUBLISH would be
 * broadcast to every node of the cluster). `commands` is the node's command Cluster, `subscriber`
 * a Cluster built with `shardedSubscribers: true` (one subscriber connection per master).
 */
export function createShardedPubSub(commands: Cluster, subscriber: Cluster, options: ShardedPubSubOptions): PubSub {
  return new ShardedPubSub(commands, subscriber, options);
}

/** Topics grouped by slot: ioredis refuses an SSUBSCRIBE whose channels are in several slots. */
function bySlot(topics: Iterable<string>): string[][] {
  const groups = new Map<number, string[]>();
  for (const topic of topics) {
    const slot = keySlot(topic);
    const group = groups.get(slot);
    if (group) group.push(topic);
    else groups.set(slot, [topic]);
  }
  return [...groups.values()];
}

class ShardedPubSub implements PubSub {
  readonly #commands: Cluster;
  readonly #subscriber: Cluster;
  readonly #options: ShardedPubSubOptions;
  /**
   * Topics asked for and not released, each with its SSUBSCRIBE's outcome. Kept here because ioredis
   * does not deduplicate: a second SSUBSCRIBE of a topic would be stored and resubscribed twice.
   */
  readonly #topics = new Map<string, Promise<void>>();
  /**
   * Bumped whenever a subscriber connection may have been lost: a confirmation counts only if no
   * loss happened while it ran.
   */
  #generation = 0;
  /** The node's topics are not known to be subscribed on their owners' subscriber connections. */
  #unconfirmed = false;
  #retryTimer: ReturnType<typeof setTimeout> | undefined;
  #retryDelay = confirmRetryMs;
  /** Masters (`host:port`) whose connection was lost since the last confirmation: their topics are re-sent. */
  readonly #lostNodes = new Set<string>();
  /** The owner of every slot when the topics were last confirmed; a slot whose owner changed is re-sent. */
  #confirmedOwners: (string | undefined)[] | undefined;
  /** A confirmation is running; `#confirmAgain`: another was asked for meanwhile and runs after it. */
  #confirming = false;
  #confirmAgain = false;
  #closed = false;
  /** Connections closed by `#replaceConnection`. */
  readonly #replaced = new WeakSet<Redis>();
  readonly #topologyTimer: ReturnType<typeof setInterval>;
  #checkingTopology = false;
  #errorsSinceLog = 0;
  #lastErrorLog = 0;

  constructor(commands: Cluster, subscriber: Cluster, options: ShardedPubSubOptions) {
    this.#commands = commands;
    this.#subscriber = subscriber;
    this.#options = options;
    // A sharded subscriber ended, or failed to reconnect: until its topics are confirmed again, not ready.
    subscriber.on('-node', (_redis: unknown, nodeKey: unknown) => this.#lost(typeof nodeKey === 'string' ? nodeKey : undefined));
    subscriber.on('-subscriber', () => this.#lost());
    subscriber.on('error', (error: unknown) => {
      this.#lost();
      this.#logError(error);
    });
    subscriber.on('nodeError', (error: unknown, nodeKey: unknown) => {
      if (isQueueStateError(error) && typeof nodeKey === 'string') this.#replaceConnection(nodeKey);
      this.#logError(error);
    });
    // ioredis replaced its subscribers and re-sent every slot's SSUBSCRIBE without awaiting them
    // (ClusterSubscriberGroup._resubscribe): the node sends its own and awaits them.
    subscriber.on('subscribersReady', () => {
      guardStops(subscriber);
      void this.#confirm();
    });
    subscriber.on('+subscriber', () => guardStops(subscriber));
    subscriber.on('ready', () => {
      if (this.#unconfirmed) void this.#confirm();
    });
    this.#topologyTimer = setInterval(() => this.#checkTopology(), options.topologyCheckMs ?? defaultTopologyCheckMs);
    this.#topologyTimer.unref?.();
  }

  get ready(): boolean {
    return this.#subscriber.status === 'ready' && !this.#unconfirmed;
  }

  publish(topic: string, payload: string): Promise<number> {
    return (this.#commands.spublish(topic, payload) as Promise<number>).catch((error: unknown) => {
      // ioredis retries a MOVED itself, except inside an auto-pipeline whose other commands succeeded:
      // then the MOVED reaches us and its slot map stays stale. Re-read it and send once more.
      if (!isRedirection(error) || this.#closed) throw error;
      return this.#refreshSlots(this.#commands).then(() => this.#commands.spublish(topic, payload) as Promise<number>);
    });
  }

  async subscribe(topics: readonly string[]): Promise<void> {
    const waits: Promise<void>[] = [];
    const fresh: string[] = [];
    for (const topic of topics) {
      const pending = this.#topics.get(topic);
      if (pending) waits.push(pending);
      else fresh.push(topic);
    }
    for (const group of bySlot(fresh)) {
      const sent: Promise<void> = this.#ssubscribe(group, () => group.some((topic) => this.#topics.get(topic) === sent)).then(
        () => this.#dedupe(group),
        (error: unknown) => {
          // Not subscribed: a later call sends it again (unless it was released meanwhile).
          for (const topic of group) if (this.#topics.get(topic) === sent) this.#topics.delete(topic);
          throw error;
        },
      );
      for (const topic of group) this.#topics.set(topic, sent);
      waits.push(sent);
    }
    await Promise.all(waits);
  }

  /**
   * SSUBSCRIBE, sent again each `confirmTimeoutMs` without an answer while `wanted()`: ioredis may
   * never settle it (a MOVED; a connection whose replies it mismatched and that was replaced).
   */
  async #ssubscribe(group: readonly string[], wanted: () => boolean): Promise<void> {
    for (;;) {
      try {
        await within(this.#subscriber.ssubscribe(...group), confirmTimeoutMs);
        return;
      } catch (error) {
        if (this.#closed || !(error instanceof NoAnswerError) || !wanted()) throw error;
      }
    }
  }

  async unsubscribe(topics: readonly string[]): Promise<void> {
    const known = topics.filter((topic) => this.#topics.delete(topic));
    // Always with the channels named: SUNSUBSCRIBE without arguments fails with sharded subscribers (redis/ioredis#2133).
    await Promise.all(bySlot(known).map((group) => this.#subscriber.sunsubscribe(...group)));
  }

  onMessage(handler: (topic: string, payload: string) => void): void {
    this.#subscriber.on('smessage', handler);
  }

  /** `PUBSUB SHARDNUMSUB` counts only the node it runs on: asked of the master that owns the topic's slot. */
  async listeners(topic: string): Promise<number> {
    const owner = this.#owner(keySlot(topic));
    if (!owner) throw new Error(`no master known for the slot of ${topic} (the cluster is not ready)`);
    const reply = (await owner.call('PUBSUB', 'SHARDNUMSUB', topic)) as unknown[];
    return Number(reply[1] ?? 0);
  }

  /** QUIT on every subscriber connection, bounded: a Cluster that does not answer is disconnected. */
  close(): Promise<void> {
    this.#stop();
    return quit(this.#subscriber);
  }

  disconnect(): void {
    this.#stop();
    this.#subscriber.disconnect();
  }

  #stop(): void {
    this.#closed = true;
    clearTimeout(this.#retryTimer);
    clearInterval(this.#topologyTimer);
  }

  /** Re-reads a Cluster's slot map; resolves either way (a failed read is retried at the next check). */
  #refreshSlots(cluster: Cluster): Promise<void> {
    return new Promise((resolve) => cluster.refreshSlotsCache(() => resolve()));
  }

  /**
   * Every `topologyCheckMs`: both Clusters re-read the slot owners (the subscriber Cluster then
   * replaces its subscriber connections itself), and if a slot changed owner since the topics were
   * last confirmed, the node is not ready until the changed slots' topics are confirmed on their
   * new owners.
   */
  #checkTopology(): void {
    if (this.#closed || this.#checkingTopology || this.#subscriber.status !== 'ready') return;
    this.#checkingTopology = true;
    if (this.#commands.status === 'ready') void this.#refreshSlots(this.#commands);
    void this.#refreshSlots(this.#subscriber).then(() => {
      this.#checkingTopology = false;
      if (this.#closed || this.#topics.size === 0 || this.#confirming || this.#unconfirmed) return;
      if (!this.#ownersChanged()) return;
      this.#lost();
      void this.#confirm();
    });
  }

  /** Whether a slot's master differs from the one recorded at the last confirmation (or none was recorded). */
  #ownersChanged(): boolean {
    const confirmed = this.#confirmedOwners;
    if (!confirmed) return true;
    const slots = this.#subscriber.slots;
    for (let slot = 0; slot < slotCount; slot++) if (slots[slot]?.[0] !== confirmed[slot]) return true;
    return false;
  }

  /**
   * Drops the repeats our SSUBSCRIBEs left in ioredis' channel lists for these topics' slots (every
   * re-confirmation appends the re-sent topics once more), so the lists hold each topic once.
   */
  #dedupe(topics: readonly string[]): void {
    const lists = channelLists(this.#subscriber);
    if (!lists || topics.length === 0) return;
    const slot = keySlot(topics[0]!);
    const list = lists.get(slot);
    if (list && list.length > 1) {
      const unique = [...new Set(list)];
      if (unique.length !== list.length) lists.set(slot, unique);
    }
  }

  #owner(slot: number): Redis | undefined {
    const key = this.#commands.slots[slot]?.[0];
    if (!key) return undefined;
    return this.#commands.nodes('master').find((node) => `${node.options.host}:${node.options.port}` === key);
  }

  /**
   * ioredis lost track of what this master's subscriber connection is subscribed to (`isQueueStateError`):
   * it is closed, so ioredis replaces it (`-node`, then a fresh connection resubscribed), and every
   * topic is confirmed afresh, on every master: a confirmation that connection answered may be void.
   */
  #replaceConnection(nodeKey: string): void {
    if (this.#closed) return;
    // Once per connection: its late errors (while it closes) must not close again, nor confirm again.
    const connection = shardedSubscribers(this.#subscriber)?.get(nodeKey)?.getInstance?.();
    if (connection && this.#replaced.has(connection)) return;
    this.#confirmedOwners = undefined;
    this.#lost(nodeKey);
    if (!connection) return;
    this.#replaced.add(connection);
    connection.disconnect();
  }

  #lost(nodeKey?: string): void {
    this.#generation++;
    if (nodeKey !== undefined) this.#lostNodes.add(nodeKey);
    if (this.#topics.size === 0) return;
    this.#unconfirmed = true;
    // In case no subscribersReady follows (ioredis emits it only after it replaced a subscriber).
    this.#scheduleRetry();
  }

  /**
   * The topics to send again: those of slots whose owner changed or whose owner's connection was
   * lost since the last confirmation (all of them the first time). ioredis keeps every re-sent topic
   * once more in its per-slot list, so re-sending only these keeps that growth to the failed shard.
   */
  #topicsToConfirm(owners: (string | undefined)[]): string[] {
    const confirmed = this.#confirmedOwners;
    if (!confirmed) return [...this.#topics.keys()];
    const topics: string[] = [];
    for (const topic of this.#topics.keys()) {
      const slot = keySlot(topic);
      const owner = owners[slot];
      if (owner === undefined || owner !== confirmed[slot] || this.#lostNodes.has(owner)) topics.push(topic);
    }
    return topics;
  }

  /**
   * Re-sends SSUBSCRIBE for this node's topics whose master changed or was lost (`#topicsToConfirm`),
   * one command per slot, and awaits them all: a reply comes from the connection to the slot's
   * current owner, so once every one arrived the node hears every topic again. ioredis keeps each
   * re-sent topic once more in its (non-deduplicating) per-slot list until the topic is
   * unsubscribed: a few entries per topic of the failed shard per failover (one per attempt).
   */
  async #confirm(): Promise<void> {
    clearTimeout(this.#retryTimer);
    this.#retryTimer = undefined;
    if (this.#closed) return;
    if (this.#confirming) {
      this.#confirmAgain = true;
      return;
    }
    this.#confirming = true;
    try {
      await this.#confirmOnce();
    } finally {
      this.#confirming = false;
    }
    if (this.#confirmAgain) {
      this.#confirmAgain = false;
      await this.#confirm();
    }
  }

  async #confirmOnce(): Promise<void> {
    const generation = this.#generation;
    if (this.#topics.size === 0) {
      this.#unconfirmed = false;
      return;
    }
    this.#unconfirmed = true;
    // Recorded as ioredis routes the SSUBSCRIBEs: if its subscriber group still lags the slot map,
    // the next check sees the difference and sends them again to the slots' real owners.
    const routes = subscriberRoutes(this.#subscriber) ?? this.#subscriber.slots;
    const owners = Array.from({ length: slotCount }, (_, slot) => routes[slot]?.[0]);
    const lostNodes = [...this.#lostNodes];
    const results = await Promise.allSettled(
      bySlot(this.#topicsToConfirm(owners)).map((group) => within(this.#subscriber.ssubscribe(...group), confirmTimeoutMs).then(() => this.#dedupe(group))),
    );
    if (this.#closed || generation !== this.#generation) {
      // Lost again meanwhile: the next subscribersReady (or the retry) confirms afresh.
      if (!this.#closed) this.#scheduleRetry();
      return;
    }
    if (results.every((result) => result.status === 'fulfilled')) {
      this.#unconfirmed = false;
      this.#retryDelay = confirmRetryMs;
      this.#confirmedOwners = owners;
      for (const node of lostNodes) this.#lostNodes.delete(node);
      return;
    }
    this.#scheduleRetry();
  }

  #scheduleRetry(): void {
    if (this.#retryTimer !== undefined || this.#closed) return;
    this.#retryTimer = setTimeout(() => void this.#confirm(), this.#retryDelay);
    this.#retryTimer.unref?.();
    this.#retryDelay = Math.min(this.#retryDelay * 2, confirmRetryMaxMs);
  }

  /** One line for the first error, then at most one per window, with how many were left out. */
  #logError(error: unknown): void {
    if (this.#closed) return;
    this.#errorsSinceLog++;
    const now = Date.now();
    if (now - this.#lastErrorLog < errorLogWindowMs) return;
    const { logger, nodeId } = this.#options;
    logger.warn(
      { err: error, node: nodeId, errors: this.#errorsSinceLog, windowMs: errorLogWindowMs },
      'redis cluster: a sharded subscriber connection failed (a master failing over?); retrying, at most one such line per window',
    );
    this.#errorsSinceLog = 0;
    this.#lastErrorLog = now;
  }
}
