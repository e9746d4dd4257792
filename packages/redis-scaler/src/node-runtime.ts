import type { ClusterMessage, ClusterMessageHandler, ClusterState, NodeLossHandler, ScalerStartOptions } from '@org/protocol';
import { Bus } from './bus.js';
import { openConnections, quit } from './connections.js';
import { fallbackFor, type WithFallback } from './fallback.js';
import { Health } from './health.js';
import { createKeys, type Keys } from './keys.js';
import { Membership } from './membership.js';
import type { ResolvedOptions } from './options.js';
import { OutboxRelease } from './outbox-release.js';
import type { PubSub } from './pubsub.js';
import type { OutagePresence } from './outage-presence.js';
import { Resync } from './resync.js';
import { ScriptArgs } from './script-args.js';
import type { ScriptClient } from './scripts.js';
import { TopicInterest } from './topic-interest.js';
import { Topics } from './topics.js';

/**
 * The moving parts of one node and how they are wired: its two connections, its health, the
 * bus and the outbox's release, the heartbeat, the resync; and its life (start, stop, crash).
 * The Scaler calls themselves are `RedisScalerNode`'s, over `withFallback`.
 */
export class NodeRuntime {
  readonly keys: Keys;
  readonly args: ScriptArgs;
  readonly health: Health;
  readonly bus: Bus;
  readonly topics: Topics;
  /** The channel topics this node listens to (routing `'subscribed'`). */
  readonly interest: TopicInterest;
  readonly withFallback: WithFallback;
  readonly #state: ClusterState;
  readonly #commands: ScriptClient;
  readonly #pubsub: PubSub;
  readonly #release: OutboxRelease;
  readonly #membership: Membership;
  readonly #resync: Resync;
  readonly #heartbeat: ReturnType<typeof setInterval>;
  #beating = false;
  #closing: Promise<void> | undefined;

  constructor(options: ResolvedOptions, state: ClusterState, outagePresence: OutagePresence) {
    const { nodeId, prefix, logger } = options;
    this.#state = state;
    this.keys = createKeys(prefix);
    this.args = new ScriptArgs(this.keys, nodeId);
    // Plain pub/sub on a single Redis, sharded on a Redis Cluster (connections.ts).
    const { commands, subscriber, pubsub } = openConnections(options.redis, nodeId, options.commandTimeoutMs, logger);
    this.#commands = commands;
    this.#pubsub = pubsub;
    const markDown = (error: unknown) => this.health.markDown(error);

    commands.on('error', markDown);
    commands.on('close', () => markDown(new Error('connection closed')));
    // Registered before Health's first-ready listener: the resync is sent before any waiting call.
    commands.on('ready', () => void this.#resync.run());
    subscriber.on('error', markDown);

    this.health = new Health({
      commands,
      nodeId,
      prefix,
      logger,
      commandTimeoutMs: options.commandTimeoutMs,
      // From now on cluster messages wait in the outbox until this node is resynchronised and the others listen.
      onDown: () => {
        this.bus.publisher.hold();
        this.#release.restartWait();
      },
    });
    this.withFallback = fallbackFor(this.health, commands);
    const { outboxMaxBytes, outboxMaxSeconds, nodeTimeoutMs } = options;
    this.topics = new Topics(this.keys);
    this.bus = new Bus({
      pubsub: this.#pubsub,
      commandsReady: () => this.health.commandsReady,
      topics: this.topics,
      nodeId,
      outboxMaxBytes,
      outboxMaxAgeMs: outboxMaxSeconds * 1_000,
      replayWindowMs: 2 * options.heartbeatIntervalMs + options.commandTimeoutMs,
      logger,
      onDown: markDown,
    });
    this.interest = new TopicInterest({
      pubsub: this.#pubsub,
      lingerMs: options.topicLingerMs,
      maxLingering: options.maxLingeringTopics,
      onForget: (topic) => this.bus.forget(topic),
    });
    const { publisher } = this.bus;
    this.#release = new OutboxRelease({
      commands,
      pubsub: this.#pubsub,
      publisher,
      health: this.health,
      listening: () => this.bus.listening,
      busKey: this.keys.bus,
      nodesKey: this.keys.nodes,
      nodeId, prefix, nodeTimeoutMs, outboxMaxSeconds, outboxMaxBytes, logger,
    });
    this.#membership = new Membership({ commands, keys: this.keys, nodeId, nodeTimeoutMs, logger, onDown: markDown });
    this.#resync = new Resync({
      commands,
      keys: this.keys,
      args: this.args,
      state,
      outagePresence,
      health: this.health,
      nodeId, nodeTimeoutMs, commandTimeoutMs: options.commandTimeoutMs,
      onResynced: ({ entries, nodes, announcements }) => {
        const { outboxMessages, outboxBytes } = publisher.stats;
        this.health.markSynced({ entries, outboxMessages, outboxBytes });
        this.#release.noteResync(nodes);
        // Ahead of what was held: a user who joined during the outage is announced before their messages.
        publisher.prepend(announcements);
        void this.#release.tryFlush();
      },
    });

    this.#heartbeat = setInterval(() => void this.#tick(), options.heartbeatIntervalMs);
    this.#heartbeat.unref?.();
  }

  get connected(): boolean {
    return this.health.synced && !this.health.closed && this.bus.listening && this.health.commandsReady;
  }

  /** True once started with routing `'subscribed'`: channel messages come on the channels' topics. */
  get routed(): boolean {
    return this.bus.routed;
  }

  async start(onMessage: ClusterMessageHandler, onNodeLost: NodeLossHandler | undefined, options: ScalerStartOptions | undefined, channels: () => Iterable<[appId: string, channel: string]>): Promise<void> {
    this.health.assertOpen();
    this.#membership.onNodeLost = onNodeLost;
    const routed = options?.routing === 'subscribed';
    this.#membership.routed = routed;
    // Queued while Redis is down and sent once it is up: start() never waits longer than a connect.
    // The bus first: after a reconnect ioredis resubscribes in this order, so once every node is back on
    // the bus its topics are back too (one SUBSCRIBE, see plain-pubsub.ts).
    const subscribed = this.bus.listen(onMessage, routed);
    if (routed) this.bus.publisher.route();
    // Channels that had local listeners before start (not the engine's way, but allowed).
    const topics = routed ? [...channels()].map(([appId, channel]) => this.interest.want(this.topics.channel(appId, channel)).catch(() => undefined)) : [];
    // Also wait for this node's state to be written, so `connected` is settled when start() returns.
    const written = this.health.firstReady.then(() => this.#resync.running);
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([Promise.all([subscribed, written, ...topics]), new Promise((resolve) => (timer = setTimeout(resolve, this.health.connectWaitMs)))]);
    clearTimeout(timer);
    // Say at once whether this node is routed, and learn whether any node still hears only the bus.
    void this.#tick();
  }

  /**
   * Sends a message to the other nodes, in publish order. While Redis is unreachable (or still
   * connecting at start-up) it waits in the outbox, and so does every message after it until the
   * outbox is flushed.
   */
  publish(message: ClusterMessage): void {
    if (this.health.closed) return;
    // Still connecting for the first time: held quietly (no outage to log yet), sent once this node is written.
    this.bus.publish(message, !this.health.startupSettled && !this.health.commandsReady);
  }

  close(): Promise<void> {
    this.#closing ??= this.#shutDown();
    return this.#closing;
  }

  /** Vanishes as under SIGKILL, leaving its state in Redis (a test hook). */
  crash(): void {
    this.health.close();
    clearInterval(this.#heartbeat);
    this.interest.close();
    this.#commands.disconnect();
    this.#pubsub.disconnect();
  }

  async #shutDown(): Promise<void> {
    // Closed first: no call may write an entry after the removal below, where no reaper would find it.
    this.health.close();
    this.bus.stopListening();
    clearInterval(this.#heartbeat);
    this.interest.close();
    this.#release.stop();
    await this.#release.flushAtClose();
    // Graceful stop: everything this node held leaves the cluster state now, not after a timeout.
    await this.#membership.drain();
    this.#state.clear();
    await Promise.all([quit(this.#commands), this.#pubsub.close()]);
  }

  /** Every heartbeat: say this node is alive, then remove nodes that stopped saying so. */
  async #tick(): Promise<void> {
    // A resync in flight heartbeats itself; a beat queued behind its MULTI would only time out.
    if (this.#beating || this.health.closed || this.#resync.running) return;
    this.#beating = true;
    try {
      this.#state.pruneCache();
      if (!this.health.commandsReady) return;
      const beat = await this.#membership.beat();
      if (!beat) return;
      this.#release.noteHeartbeat(beat.nodes);
      // Routed: channel messages are copied to the bus while some node hears only the bus.
      this.bus.publisher.allCopies = beat.allModeNodes > 0;
      // Added means another node reaped this one (an outage, a stalled event loop): put the state back.
      if (!this.health.synced || beat.added) await this.#resync.run();
      for (const nodeId of beat.dead) await this.#membership.reap(nodeId);
      if (this.bus.publisher.holding) await this.#release.tryFlush();
    } finally {
      this.#beating = false;
    }
  }
}
