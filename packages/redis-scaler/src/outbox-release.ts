import type { BusPublisher } from './bus-publisher.js';
import type { Health } from './health.js';
import type { ScalerLogger } from './options.js';
import type { PubSub } from './pubsub.js';
import type { ScriptClient } from './scripts.js';

/** How often a node with a held outbox asks whether every node listens on the bus again. */
const flushPollMs = 50;

export interface OutboxReleaseOptions {
  commands: ScriptClient;
  pubsub: PubSub;
  publisher: BusPublisher;
  health: Health;
  /** Whether this node's own subscription is up (or it has no handler). */
  listening(): boolean;
  busKey: string;
  nodesKey: string;
  nodeId: string;
  prefix: string;
  nodeTimeoutMs: number;
  outboxMaxSeconds: number;
  outboxMaxBytes: number;
  logger: ScalerLogger;
}

/**
 * Decides when the outbox held during an outage may go to the bus. Pub/sub keeps nothing for a
 * node that is not subscribed, and after an outage every node reconnects on its own schedule: the
 * flush waits until this node is resynchronised and as many subscribers listen on the bus as there
 * were nodes before the outage (or heartbeat now), polling, for at most nodeTimeoutMs (a node that
 * died meanwhile never comes back).
 */
export class OutboxRelease {
  readonly #options: OutboxReleaseOptions;
  /** Nodes in the heartbeat set before the current outage: after one, the outbox waits until as many listen. */
  #knownNodes = 0;
  /** When this node was first ready to flush its outbox, waiting for the other nodes to listen. */
  #waitSince: number | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #trying = false;

  constructor(options: OutboxReleaseOptions) {
    this.#options = options;
  }

  /** A heartbeat counted the nodes; frozen while holding (after Redis restarted empty, the set fills up again only as nodes come back). */
  noteHeartbeat(nodes: number): void {
    if (!this.#options.publisher.holding) this.#knownNodes = nodes;
  }

  /** The resync's heartbeat counted the nodes: the outbox waits for at least as many listeners. */
  noteResync(nodes: number): void {
    this.#knownNodes = Math.max(this.#knownNodes, nodes);
  }

  /** An outage (re)began: the wait for listeners starts afresh when it is over. */
  restartWait(): void {
    this.#waitSince = undefined;
  }

  stop(): void {
    clearTimeout(this.#timer);
  }

  /** Flushes when the time has come; does nothing when not holding, not resynchronised yet (the resync calls again) or already waiting. */
  async tryFlush(): Promise<void> {
    const { publisher, health } = this.#options;
    if (health.closed || !publisher.holding || this.#timer !== undefined || this.#trying) return;
    if (!health.synced || !health.commandsReady) return;
    this.#trying = true;
    try {
      await this.#flushWhenListened();
    } finally {
      this.#trying = false;
    }
  }

  /** At close: whatever is still held goes to the bus now (the other nodes are listening), or is given up and logged. */
  async flushAtClose(): Promise<void> {
    const { publisher, health, logger, nodeId, prefix } = this.#options;
    // A PUBLISH sent just before an outage this node has not noticed yet fails now and puts its
    // message back: waited for, so that it is flushed or given up (counted, logged) like a held one.
    await publisher.settled();
    if (!publisher.holding) return;
    if (health.commandsReady && (await publisher.flush())) return;
    const discarded = publisher.discard();
    const dropped = publisher.takeOutageDrops() + discarded;
    if (dropped > 0) {
      logger.warn({ node: nodeId, prefix, dropped }, 'stopped while redis was unreachable: cluster messages held in the outbox were not delivered to other nodes');
    }
  }

  async #flushWhenListened(): Promise<void> {
    const { commands, pubsub, publisher, health, busKey, nodesKey, nodeTimeoutMs } = this.#options;
    this.#waitSince ??= Date.now();
    let counts: [number, number];
    try {
      counts = await Promise.all([pubsub.listeners(busKey), commands.zcard(nodesKey)]);
    } catch (error) {
      health.markDown(error);
      return;
    }
    const [listening, nodes] = counts;
    const waited = Date.now() - this.#waitSince;
    if ((listening < Math.max(nodes, this.#knownNodes) || !this.#options.listening()) && waited < nodeTimeoutMs) {
      this.#timer = setTimeout(() => {
        this.#timer = undefined;
        void this.tryFlush();
      }, flushPollMs);
      this.#timer.unref?.();
      return;
    }
    if (!(await publisher.flush())) return; // a PUBLISH failed: held again until the next resync
    this.#waitSince = undefined;
    this.#knownNodes = nodes;
    const dropped = publisher.takeOutageDrops();
    if (dropped > 0) {
      const { logger, nodeId, prefix, outboxMaxSeconds, outboxMaxBytes } = this.#options;
      logger.warn(
        { node: nodeId, prefix, dropped, outboxMaxSeconds, outboxMaxBytes },
        'cluster messages dropped during the redis outage: the outbox kept only the newest within its bounds',
      );
    }
  }
}
