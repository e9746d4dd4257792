import type { ClusterMessage } from '@org/protocol';
import { sequencedPayload } from './bus-codec.js';
import { Fifo } from './fifo.js';
import { Outbox, type OutboxEntry } from './outbox.js';
import type { PubSub } from './pubsub.js';
import { RecentlyConfirmed } from './recently-confirmed.js';
import type { TopicKind, Topics } from './topics.js';

/** A flush sends at most this many messages, or about this many bytes, per round trip. */
const flushBatchMessages = 1_000;
const flushBatchBytes = 1_048_576;

/** Topics whose last sequence number this node remembers (for `p`); past it the oldest-remembered goes and its next PUBLISH says 0. */
const maxRememberedTopics = 65_536;

/** One PUBLISH: a message on one topic (a channel message may go to two: its topic, and the bus as a copy). */
interface BusEntry extends OutboxEntry {
  readonly topic: string;
  /** The bus copy of a channel message, for nodes that hear only the bus (`"a":1`). */
  readonly allCopy: boolean;
}

/** One PUBLISH on its way; `live` until it is confirmed or put back in the outbox. */
interface Attempt {
  entry: BusEntry;
  live: boolean;
  /** `#holds` when it was sent: confirmed after a later `hold()`, it was confirmed by a Redis that may have lost it. */
  holds: number;
}

export interface BusPublisherOptions {
  /** Where PUBLISHes go (on the command connection: no offline queue, a command fails at once while Redis is away). */
  pubsub: PubSub;
  /** Whether a command can be sent now. */
  commandsReady(): boolean;
  topics: Topics;
  /** `senderPrefix(nodeId, epoch)`: starts with `ownMessagePrefix(nodeId)`. */
  ownPrefix: string;
  outboxMaxBytes: number;
  outboxMaxAgeMs: number;
  /**
   * How long a confirmed PUBLISH is kept to be sent again if an outage is noticed meanwhile (a Redis that
   * crashed may have confirmed it without passing it on): as long as a crash can go unnoticed, one
   * heartbeat interval (the next command) plus the commands' timeout, and a heartbeat to spare for timer lag.
   */
  replayWindowMs: number;
  /** A PUBLISH failed or could not be sent: the node is cut off from Redis. */
  onDown(error: unknown): void;
}

/** What the daemon can put into /metrics. */
export interface PublisherStats {
  /** Messages waiting in the outbox now. */
  outboxMessages: number;
  /** Their size in bytes (UTF-8 of the serialised messages). */
  outboxBytes: number;
  /** Messages the outbox dropped, oldest first, past its age or byte bound, since start. */
  outboxDropped: number;
  /** Messages of this node that never reached the bus, since start: `outboxDropped` plus what `close()` gave up. */
  droppedMessages: number;
  /**
   * Messages Redis had confirmed shortly before an outage, put back in the outbox to be sent again (in case
   * that Redis died before writing them to the subscribers; those who got them drop the copy), since start.
   */
  replayedMessages: number;
  /** PUBLISHes this node sent (resends not counted), by the kind of topic, since start. */
  busMessagesPublished: Record<TopicKind, number>;
}

/**
 * Sends this node's cluster messages to the bus, in the order they were
 * published, and keeps them in a bounded outbox while the bus is not
 * reachable (Redis down, or this node not yet resynchronised). While the
 * outbox holds anything, new messages queue behind it: nothing overtakes a
 * held message. A PUBLISH that fails is put back in front with its sequence
 * number, so a resend of a message Redis did run is dropped by the receivers.
 */
export class BusPublisher {
  readonly #options: BusPublisherOptions;
  readonly #outbox: Outbox<BusEntry>;
  readonly #enabled: boolean;
  /** Each topic's last sequence number sent, for the next PUBLISH's `p`. */
  readonly #lastOnTopic = new Map<string, number>();
  readonly #published: Record<TopicKind, number> = { channel: 0, node: 0 };
  /**
   * Routing `'subscribed'` (set at start): channel messages go to their channels' topics. Otherwise (routing
   * `'all'`, and before start) every message goes to the bus, unflagged, as before routing existed: nodes of
   * either kind take it from there.
   */
  #routed = false;
  /**
   * Routed: whether channel messages also go to the bus, flagged, for nodes that hear only the bus. True
   * until the first heartbeat answered, then while it sees such a node.
   */
  #allCopies = true;
  readonly #inFlight = new Fifo<Attempt>();
  /** Confirmed in the last `replayWindowMs`, sent again after an outage (see `RecentlyConfirmed`). */
  readonly #recent: RecentlyConfirmed<BusEntry>;
  #seq = 0;
  #holding = false;
  #flushing: Promise<boolean> | undefined;
  #droppedAtClose = 0;
  /** Confirmed messages put back after an outage, since start. */
  #replayed = 0;
  /** Calls of `hold()`: each may mark an outage, after which a confirmation of an earlier PUBLISH is unsure. */
  #holds = 0;
  /**
   * PUBLISHes sent before the latest `hold()` and confirmed after it (in number order): to go back to the
   * outbox like the replay, collected here and put back once per flush batch rather than one by one.
   */
  #confirmedLate: BusEntry[] = [];
  /** The last PUBLISH sent: replies come in order, so once it settled every earlier one has. */
  #lastSend: Promise<boolean> = Promise.resolve(true);
  /** Outbox drops counted when the current outage began, to log this outage's share once. */
  #droppedBeforeOutage = 0;

  constructor(options: BusPublisherOptions) {
    this.#options = options;
    this.#outbox = new Outbox<BusEntry>(options.outboxMaxBytes, options.outboxMaxAgeMs);
    this.#enabled = options.outboxMaxBytes > 0 && options.outboxMaxAgeMs > 0;
    this.#recent = new RecentlyConfirmed(this.#enabled ? options.replayWindowMs : 0);
  }

  /** True from an outage until the outbox is flushed: messages queue instead of going to the bus. */
  get holding(): boolean {
    return this.#holding;
  }

  get stats(): PublisherStats {
    return {
      outboxMessages: this.#outbox.size,
      outboxBytes: this.#outbox.bytes,
      outboxDropped: this.#outbox.dropped,
      droppedMessages: this.#outbox.dropped + this.#droppedAtClose,
      replayedMessages: this.#replayed,
      busMessagesPublished: { ...this.#published },
    };
  }

  /** Channel messages go to their topics from now on (routing `'subscribed'`). */
  route(): void {
    this.#routed = true;
  }

  /** Whether channel messages also go to the bus as flagged copies (see `#allCopies`). */
  set allCopies(value: boolean) {
    this.#allCopies = value;
  }

  get allCopies(): boolean {
    return this.#allCopies;
  }

  /** The topic of a message this node publishes. */
  #topicOf(message: ClusterMessage): string {
    return this.#routed ? this.#options.topics.of(message) : this.#options.topics.bus;
  }

  publish(message: ClusterMessage): void {
    const body = JSON.stringify(message);
    const topic = this.#topicOf(message);
    const copy = topic !== this.#options.topics.bus && this.#allCopies;
    const ready = this.#options.commandsReady();
    if (!this.#holding && !ready) {
      this.hold();
      this.#options.onDown(new Error('not connected'));
    }
    if (!this.#holding && ready) {
      void this.#send({ body, bytes: -1, at: 0, topic, allCopy: false });
      if (copy) void this.#send({ body, bytes: -1, at: 0, topic: this.#options.topics.bus, allCopy: true });
      return;
    }
    // Held, or dropped (and counted) by a disabled outbox.
    const now = Date.now();
    const bytes = Buffer.byteLength(body);
    this.#outbox.push({ body, bytes, at: now, topic, allCopy: false }, now);
    if (copy) this.#outbox.push({ body, bytes, at: now, topic: this.#options.topics.bus, allCopy: true }, now);
  }

  /**
   * Queues every message from now on, until `flush()` empties the outbox, behind the messages confirmed
   * within the replay window (sent again: the outage may have lost them). A disabled outbox never holds.
   */
  hold(): void {
    if (!this.#enabled) return;
    this.#holds++;
    this.#replayRecent(Date.now());
    if (this.#holding) return;
    this.#holding = true;
    this.#droppedBeforeOutage = this.#outbox.dropped;
  }

  /** The messages confirmed within the replay window, and those confirmed late, go back to the outbox, in order, marked `confirmed`. */
  #replayRecent(now: number): void {
    this.#requeueConfirmed([...this.#recent.take(now), ...this.#takeConfirmedLate()], now);
  }

  /** Confirmed messages back to the outbox, merged in number order, keeping their age (see `#confirmed`). */
  #requeueConfirmed(entries: BusEntry[], now: number): void {
    for (const entry of entries) {
      entry.bytes = Buffer.byteLength(entry.body);
      entry.confirmed = true;
    }
    this.#replayed += entries.length;
    this.#outbox.requeue(entries, now);
  }

  /**
   * Messages that must reach the other nodes before any message published during the outage (presence
   * changes of an outage). Messages sent before it and put back keep their place in front: they carry
   * lower sequence numbers, and a receiver that saw a higher one first would count a gap, then drop them.
   */
  prepend(messages: readonly ClusterMessage[]): void {
    if (messages.length === 0) return;
    if (!this.#enabled) {
      // Nothing is held without an outbox: they go now, to whoever listens already.
      for (const message of messages) this.publish(message);
      return;
    }
    this.hold();
    const now = Date.now();
    const { topics } = this.#options;
    const entries: BusEntry[] = [];
    for (const message of messages) {
      const body = JSON.stringify(message);
      const bytes = Buffer.byteLength(body);
      const topic = this.#topicOf(message);
      entries.push({ body, bytes, at: now, topic, allCopy: false });
      if (topic !== topics.bus && this.#allCopies) entries.push({ body, bytes, at: now, topic: topics.bus, allCopy: true });
    }
    this.#outbox.insertBeforeUnsent(entries, now);
  }

  /**
   * Sends the outbox in order, a batch per round trip, then lets new messages
   * go straight to the bus. Resolves to true when the outbox was emptied, false
   * when a PUBLISH failed (the rest waits for the next attempt).
   */
  flush(): Promise<boolean> {
    // One flush at a time; a second caller shares its outcome.
    this.#flushing ??= this.#sendHeld().finally(() => {
      this.#flushing = undefined;
    });
    return this.#flushing;
  }

  async #sendHeld(): Promise<boolean> {
    // What a Redis that has gone since confirmed (an earlier flush cut short, or PUBLISHes answered after
    // the outage was noticed) goes first; each batch also takes what was confirmed late meanwhile.
    if (this.#holding) this.#replayRecent(Date.now());
    while (this.#outbox.size > 0 || this.#confirmedLate.length > 0) {
      if (!this.#options.commandsReady()) return false;
      this.#requeueConfirmed(this.#takeConfirmedLate(), Date.now());
      const batch = this.#outbox.take(flushBatchMessages, flushBatchBytes, Date.now());
      const sent = await Promise.all(batch.map((entry) => this.#send(entry)));
      if (sent.includes(false)) return false;
    }
    // Checked and released in the same turn: a message published from here on finds the outbox empty.
    this.#holding = false;
    return true;
  }

  /** Empties `#confirmedLate`; returns what it held, in number order. */
  #takeConfirmedLate(): BusEntry[] {
    const late = this.#confirmedLate;
    if (late.length > 0) this.#confirmedLate = [];
    return late;
  }

  /** Outbox drops since the outage began (for its one log line), and starts counting afresh. */
  takeOutageDrops(): number {
    const dropped = this.#outbox.dropped - this.#droppedBeforeOutage;
    this.#droppedBeforeOutage = this.#outbox.dropped;
    return dropped;
  }

  /**
   * Resolves once every PUBLISH sent so far is confirmed or, failed, put back in the outbox
   * (bounded by the commands' timeout). At close, a message still in flight then counts as held.
   */
  async settled(): Promise<void> {
    await this.#lastSend;
  }

  /** At close, when the bus cannot be reached: gives up what is held; returns how many. */
  discard(): number {
    this.#takeConfirmedLate();
    const count = this.#outbox.clear();
    this.#droppedAtClose += count;
    return count;
  }

  /** One PUBLISH; resolves to false when it failed (and was put back in the outbox). Never rejects. */
  #send(entry: BusEntry): Promise<boolean> {
    entry.payload ??= this.#number(entry);
    const attempt: Attempt = { entry, live: true, holds: this.#holds };
    this.#inFlight.push(attempt);
    const sent = this.#options.pubsub.publish(entry.topic, entry.payload).then(
      () => {
        attempt.live = false;
        // Replies come in order; earlier attempts were confirmed or put back already.
        const now = Date.now();
        while (this.#inFlight.size > 0 && !this.#inFlight.peek()!.live) this.#confirmed(this.#inFlight.shift()!, now);
        return true;
      },
      (error: unknown) => {
        if (attempt.live) this.#putBack(error);
        return false;
      },
    );
    this.#lastSend = sent;
    return sent;
  }

  /**
   * Redis confirmed an attempt. Normally kept in the replay window. But a PUBLISH sent before the latest
   * `hold()` and confirmed after it (the replay already taken) goes back to the outbox too (`#confirmedLate`).
   */
  #confirmed({ entry, holds }: Attempt, now: number): void {
    // Its age, should it go back to the outbox: from now if it went straight to the bus, else from when it entered the outbox.
    if (entry.bytes < 0) entry.at = now;
    if (this.#holding && holds < this.#holds) this.#confirmedLate.push(entry);
    else this.#recent.add(entry, now);
  }

  /** The payload of a first attempt: the next sequence number, and the topic's previous one. */
  #number(entry: BusEntry): string {
    const seq = ++this.#seq;
    entry.seq = seq;
    const last = this.#lastOnTopic;
    const prev = last.get(entry.topic);
    if (prev === undefined && last.size >= maxRememberedTopics) last.delete(last.keys().next().value!);
    last.set(entry.topic, seq);
    this.#published[this.#options.topics.kind(entry.topic)]++;
    return sequencedPayload(this.#options.ownPrefix, seq, entry.body, prev ?? 0, entry.allCopy);
  }

  /**
   * A PUBLISH failed: every unconfirmed one goes back in front of the outbox,
   * in order, and the node holds until it is resynchronised. Those that Redis
   * did run reach the receivers twice and are dropped there by sequence number.
   */
  #putBack(error: unknown): void {
    const now = Date.now();
    const entries: BusEntry[] = [];
    for (const attempt of this.#inFlight.drain()) {
      if (!attempt.live) {
        // Confirmed behind one still waiting (its reply was lost to a timeout): as unsure as any confirmed one.
        this.#confirmed(attempt, now);
        continue;
      }
      attempt.live = false;
      const { entry } = attempt;
      // Sent straight away, so never measured: its age counts from now, a few milliseconds late.
      if (entry.bytes < 0) {
        entry.bytes = Buffer.byteLength(entry.body);
        entry.at = now;
      }
      entries.push(entry);
    }
    this.#outbox.requeue(entries, now);
    this.hold();
    this.#options.onDown(error);
  }
}
