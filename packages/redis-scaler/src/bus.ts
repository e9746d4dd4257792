import { randomBytes } from 'node:crypto';
import type { ClusterMessage, ClusterMessageHandler } from '@org/protocol';
import { decodeEnvelope, ownMessagePrefix, senderPrefix } from './bus-codec.js';
import { BusPublisher, type PublisherStats } from './bus-publisher.js';
import type { ScalerLogger } from './options.js';
import type { PubSub } from './pubsub.js';
import { SequenceTracker } from './sequence-tracker.js';

/** What the daemon can export as metrics: a snapshot, cheap to read on every scrape. */
export interface RedisScalerStats extends PublisherStats {
  /** Bus messages from other nodes received twice (a resend after an unconfirmed PUBLISH) and dropped, since start. */
  duplicateMessages: number;
  /** Bus messages of other nodes this node never received (gaps in their sequence numbers: it was cut off), since start. */
  missedMessages: number;
  /** Malformed bus payloads ignored, since start. */
  invalidMessages: number;
}

export interface BusOptions {
  pubsub: PubSub;
  /** Whether a command (a PUBLISH) can be sent now. */
  commandsReady(): boolean;
  busKey: string;
  nodeId: string;
  outboxMaxBytes: number;
  outboxMaxAgeMs: number;
  logger: ScalerLogger;
  /** A PUBLISH or the subscription failed: the node is cut off. */
  onDown(error: unknown): void;
}

/**
 * The cluster bus of one node: its messages out, in publish order (through the outbox while
 * they must wait, see `BusPublisher`), and the other nodes' messages in, each checked, handed
 * to the engine once and in order, never this node's own.
 */
export class Bus {
  readonly publisher: BusPublisher;
  readonly #options: BusOptions;
  readonly #ownPrefix: string;
  readonly #sequences = new SequenceTracker();
  #handler: ClusterMessageHandler | undefined;
  #invalidMessages = 0;

  constructor(options: BusOptions) {
    this.#options = options;
    this.#ownPrefix = ownMessagePrefix(options.nodeId);
    this.publisher = new BusPublisher({
      pubsub: options.pubsub,
      commandsReady: options.commandsReady,
      busKey: options.busKey,
      ownPrefix: senderPrefix(options.nodeId, randomBytes(6).toString('hex')),
      outboxMaxBytes: options.outboxMaxBytes,
      outboxMaxAgeMs: options.outboxMaxAgeMs,
      onDown: options.onDown,
    });
    options.pubsub.onMessage((channel, payload) => this.receive(channel, payload));
  }

  /** True unless this node has a handler but its subscription is not up: it would miss messages. */
  get listening(): boolean {
    return this.#handler === undefined || this.#options.pubsub.ready;
  }

  get stats(): RedisScalerStats {
    return {
      ...this.publisher.stats,
      duplicateMessages: this.#sequences.duplicates,
      missedMessages: this.#sequences.missed,
      invalidMessages: this.#invalidMessages,
    };
  }

  /** Subscribes; while Redis is down the subscription is queued and sent once it is up. */
  listen(handler: ClusterMessageHandler): Promise<void> {
    this.#handler = handler;
    return this.#options.pubsub.subscribe([this.#options.busKey]).then(
      () => undefined,
      (error: unknown) => this.#options.onDown(error),
    );
  }

  stopListening(): void {
    this.#handler = undefined;
  }

  /**
   * Sends a message to the other nodes. `quietHold`: still connecting for the first time, so it
   * is held without an outage to log, and sent once this node is written.
   */
  publish(message: ClusterMessage, quietHold: boolean): void {
    if (quietHold) this.publisher.hold();
    this.publisher.publish(message);
  }

  /** A payload from the subscription. */
  receive(channel: string, payload: string): void {
    if (channel !== this.#options.busKey || payload.startsWith(this.#ownPrefix)) return;
    const { logger, nodeId } = this.#options;
    const envelope = decodeEnvelope(payload);
    if (!envelope) {
      if (this.#invalidMessages++ === 0) logger.warn({ node: nodeId, bytes: payload.length }, 'ignored a malformed message on the bus');
      return;
    }
    const { message, sender, seq } = envelope;
    if (sender !== undefined && seq !== undefined && !this.#sequences.accept(sender, seq)) return;
    try {
      this.#handler?.(message);
    } catch (error) {
      logger.error({ err: error, node: nodeId, type: message.type }, 'the cluster message handler threw');
    }
  }
}
