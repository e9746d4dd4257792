import type { Redis } from 'ioredis';
import { isReady } from './connections.js';
import { RedisScalerError } from './errors.js';
import type { ScalerLogger } from './options.js';

export interface HealthOptions {
  /** The command connection; its `ready` event must already have the resync's listener (see the constructor). */
  commands: Redis;
  nodeId: string;
  prefix: string;
  commandTimeoutMs: number;
  logger: ScalerLogger;
  /** The node was found cut off (every time, not once per outage): cluster messages must wait from now on. */
  onDown(): void;
}

/**
 * Whether this node may use Redis: closed or open, connected, and synced (its state written
 * since the last outage). Logs one line when an outage begins and one when it ends.
 */
export class Health {
  readonly #options: HealthOptions;
  /** How long start-up calls wait for a first connection before answering locally. */
  readonly connectWaitMs: number;
  /** Resolves at the first connection, or after `connectWaitMs` without one. */
  readonly firstReady: Promise<void>;
  #startupSettled = false;
  #closed = false;
  #synced = false;
  #outageLogged = false;

  constructor(options: HealthOptions) {
    this.#options = options;
    const connectWaitMs = (this.connectWaitMs = Math.max(2 * options.commandTimeoutMs, 1_000));
    // Listens after the resync's own `ready` listener: the resync is sent before any waiting call.
    this.firstReady = new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, connectWaitMs);
      timer.unref?.();
      options.commands.once('ready', () => {
        clearTimeout(timer);
        resolve();
      });
    }).then(() => {
      this.#startupSettled = true;
    });
  }

  /** True once the first connection came or was waited for. */
  get startupSettled(): boolean {
    return this.#startupSettled;
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** True from a completed resync until the next sign of an outage. */
  get synced(): boolean {
    return this.#synced;
  }

  /** A command can be sent now. */
  get commandsReady(): boolean {
    return isReady(this.#options.commands);
  }

  close(): void {
    this.#closed = true;
  }

  assertOpen(): void {
    if (this.#closed) throw new RedisScalerError('SCALER_CLOSED', `@org/redis-scaler: node ${this.#options.nodeId} was closed`);
  }

  /** True when a command can be sent now; waits once for the first connection. Rejects once closed. */
  async ready(): Promise<boolean> {
    this.assertOpen();
    if (this.#options.commands.status === 'ready') return true;
    if (!this.#startupSettled) await this.firstReady;
    this.assertOpen();
    if (this.commandsReady) return true;
    this.markDown(new Error('not connected'));
    return false;
  }

  /** Redis failed this node (a failed or timed-out command, a closed connection). One log line per outage. */
  markDown(error: unknown): void {
    this.#synced = false;
    this.#options.onDown();
    if (this.#closed || this.#outageLogged) return;
    this.#outageLogged = true;
    const { nodeId, prefix, logger } = this.#options;
    logger.warn({ err: error, node: nodeId, prefix }, 'redis unreachable: serving this node from local state; cross-node delivery paused until it is back');
  }

  /** This node's state is written into Redis again; ends the outage's log with `fields` (what the resync did). */
  markSynced(fields: Record<string, unknown>): void {
    this.#synced = true;
    if (!this.#outageLogged) return;
    this.#outageLogged = false;
    const { nodeId, prefix, logger } = this.#options;
    logger.info(
      { node: nodeId, prefix, ...fields },
      'redis reachable again: state resynchronised, cross-node delivery resumed (held messages follow once every node listens)',
    );
  }
}
