import { randomBytes } from 'node:crypto';
import type { ClusterMessage, ClusterMessageHandler } from '@org/protocol';
import { decodeEnvelope, ownMessagePrefix, senderPrefix } from './bus-codec.js';
import { BusPublisher, type PublisherStats } from './bus-publisher.js';
import type { ScalerLogger } from './options.js';
import type { PubSub } from './pubsub.js';
import { SequenceTracker } from './sequence-tracker.js';
import type { TopicStats } from './topic-interest.js';
import type { TopicKind, Topics } from './topics.js';

/** What the daemon can export as metrics: a snapshot, cheap to read on every scrape. */
export interface BusStats extends PublisherStats {
  /** Bus messages from other nodes received twice (a resend after an unconfirmed PUBLISH) and dropped, since start. */
  duplicateMessages: number;
  /** Bus messages of other nodes this node never received (gaps in their sequence numbers: it was cut off), since start. */
  missedMessages: number;
  /** Malformed bus payloads ignored, since start. */
  invalidMessages: number;
  /** Payloads this node received from Redis (its own echoes included), by the kind of topic, since start. */
  busMessagesReceived: Record<TopicKind, number>;
}

/** The scaler's whole snapshot: the bus's counters and the channel topics'. */
export interface RedisScalerStats extends BusStats, TopicStats {}

export interface BusOptions {
  pubsub: PubSub;
  /** Whether a command (a PUBLISH) can be sent now. */
  commandsReady(): boolean;
  topics: Topics;
  nodeId: string;
  outboxMaxBytes: number;
  outboxMaxAgeMs: number;
  /** How long a confirmed message is kept to be sent again after an outage (see `BusPublisherOptions`). */
  replayWindowMs: number;
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
  readonly #received: Record<TopicKind, number> = { channel: 0, node: 0 };
  #handler: ClusterMessageHandler | undefined;
  /** Routing `'subscribed'`: channel messages come on their topics, their bus copies are dropped. */
  #routed = false;
  #invalidMessages = 0;

  constructor(options: BusOptions) {
    this.#options = options;
    this.#ownPrefix = ownMessagePrefix(options.nodeId);
    this.publisher = new BusPublisher({
      pubsub: options.pubsub,
      commandsReady: options.commandsReady,
      topics: options.topics,
      ownPrefix: senderPrefix(options.nodeId, randomBytes(6).toString('hex')),
      outboxMaxBytes: options.outboxMaxBytes,
      outboxMaxAgeMs: options.outboxMaxAgeMs,
      replayWindowMs: options.replayWindowMs,
      onDown: options.onDown,
    });
    options.pubsub.onMessage((channel, payload) => this.receive(channel, payload));
  }

  /** True unless this node has a handler but its subscription is not up: it would miss messages. */
  get listening(): boolean {
    return this.#handler === undefined || this.#options.pubsub.ready;
  }

  get stats(): BusStats {
    return {
      ...this.publisher.stats,
      duplicateMessages: this.#sequences.duplicates,
      missedMessages: this.#sequences.missed,
      invalidMessages: this.#invalidMessages,
      busMessagesReceived: { ...this.#received },
    };
  }

  get routed(): boolean {
    return this.#routed;
  }

  /**
   * Subscribes to the node-wide bus; while Redis is down the subscription is queued and sent once it
   * is up. Routed (`'subscribed'`): the node's channel topics are subscribed by `TopicInterest`, and
   * the bus copies of channel messages are dropped here.
   */
  listen(handler: ClusterMessageHandler, routed: boolean): Promise<void> {
    this.#handler = handler;
    this.#routed = routed;
    return this.#options.pubsub.subscribe([this.#options.topics.bus]).then(
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

  /** A topic this node no longer listens to (or listens to afresh): its sequence baselines go. */
  forget(topic: string): void {
    this.#sequences.forget(topic);
  }

  /** A payload from the subscription: the node-wide bus or one of this node's channel topics. */
  receive(topic: string, payload: string): void {
    const kind = this.#options.topics.kind(topic);
    this.#received[kind]++;
    if (payload.startsWith(this.#ownPrefix)) return;
    const { logger, nodeId } = this.#options;
    const envelope = decodeEnvelope(payload);
    if (!envelope) {
      if (this.#invalidMessages++ === 0) logger.warn({ node: nodeId, bytes: payload.length, topicKind: kind }, 'ignored a malformed message on the bus');
      return;
    }
    const { message, sender, seq } = envelope;
    // Tracked before a bus copy is dropped: the copies are part of the sender's sequence on the bus.
    if (sender !== undefined && seq !== undefined && !this.#sequences.accept(sender, topic, seq, envelope.prev)) return;
    if (envelope.allCopy && this.#routed) return;
    try {
      this.#handler?.(message);
    } catch (error) {
      logger.error({ err: error, node: nodeId, type: message.type }, 'the cluster message handler threw');
    }
  }
}
