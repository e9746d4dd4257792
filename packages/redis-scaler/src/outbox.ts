import { Fifo } from './fifo.js';

/** A cluster message on its way to the bus. */
export interface OutboxEntry {
  /** The message as JSON, serialised once when it was published. */
  readonly body: string;
  /** UTF-8 size of `body`, what the byte bound counts (measured when the entry enters the outbox). */
  bytes: number;
  /** When it entered the outbox (ms since the epoch); the age bound counts from here. */
  at: number;
  /** The bus payload with its sequence number, fixed at the first attempt so that a resend is recognised. */
  payload?: string;
  /** That sequence number (set with `payload`): entries put back keep the order of their numbers. */
  seq?: number;
  /**
   * Confirmed by Redis before an outage and held again only in case that Redis died before passing it on
   * (see `RecentlyConfirmed`): most likely delivered already, so not counted when dropped.
   */
  confirmed?: boolean;
}

/**
 * The messages this node published while the bus was unreachable, oldest
 * first, bounded by age and by bytes. Past a bound the OLDEST go: after an
 * outage the recent messages matter more, and what is kept stays in order.
 * A bound of 0 disables the outbox (every message offered is dropped).
 */
export class Outbox<E extends OutboxEntry = OutboxEntry> {
  readonly #maxBytes: number;
  readonly #maxAgeMs: number;
  readonly #entries = new Fifo<E>();
  #bytes = 0;
  /** Dropped by the bounds since this outbox was made (not counting `confirmed` ones). */
  dropped = 0;

  constructor(maxBytes: number, maxAgeMs: number) {
    this.#maxBytes = maxBytes;
    this.#maxAgeMs = maxAgeMs;
  }

  get size(): number {
    return this.#entries.size;
  }

  get bytes(): number {
    return this.#bytes;
  }

  /** Appends the newest message, then drops the oldest ones past a bound. */
  push(entry: E, now: number): void {
    this.#entries.push(entry);
    this.#bytes += entry.bytes;
    this.#enforce(now);
  }

  /**
   * Puts numbered messages (sent once) back in front, merged with those already put back in the order of
   * their sequence numbers: receivers drop a number at or below the last they saw, so a lower number must
   * never follow a higher one.
   */
  requeue(entries: readonly E[], now: number): void {
    if (entries.length === 0) return;
    const held = this.#entries.drain();
    let numbered = 0;
    while (numbered < held.length && held[numbered]!.seq !== undefined) numbered++;
    const front = [...held.slice(0, numbered), ...entries].sort((x, y) => x.seq! - y.seq!);
    this.#entries.unshiftAll([...front, ...held.slice(numbered)]);
    for (const entry of entries) this.#bytes += entry.bytes;
    this.#enforce(now);
  }

  /**
   * Puts messages ahead of every message not yet attempted, but behind those already numbered (sent once and
   * put back): a resend keeps its place, so receivers see one sender's numbers in increasing order.
   */
  insertBeforeUnsent(entries: readonly E[], now: number): void {
    const held = this.#entries.drain();
    let sent = 0;
    while (sent < held.length && held[sent]!.seq !== undefined) sent++;
    this.#entries.unshiftAll([...held.slice(0, sent), ...entries, ...held.slice(sent)]);
    for (const entry of entries) this.#bytes += entry.bytes;
    this.#enforce(now);
  }

  /** Takes the oldest messages still within the bounds: at most `maxCount`, and about `maxBytes` (at least one). */
  take(maxCount: number, maxBytes: number, now: number): E[] {
    this.#enforce(now);
    const taken: E[] = [];
    let bytes = 0;
    while (this.#entries.size > 0 && taken.length < maxCount && (taken.length === 0 || bytes < maxBytes)) {
      const entry = this.#entries.shift()!;
      this.#bytes -= entry.bytes;
      bytes += entry.bytes;
      taken.push(entry);
    }
    return taken;
  }

  /** Empties the outbox; returns how many messages it held (not counting `confirmed` ones). */
  clear(): number {
    const count = this.#entries.drain().filter((entry) => !entry.confirmed).length;
    this.#bytes = 0;
    return count;
  }

  /** Drops the oldest messages past a bound. */
  #enforce(now: number): void {
    const oldestAllowed = now - this.#maxAgeMs;
    const disabled = this.#maxAgeMs === 0 || this.#maxBytes === 0;
    while (this.#entries.size > 0 && (disabled || this.#bytes > this.#maxBytes || this.#entries.peek()!.at < oldestAllowed)) {
      const entry = this.#entries.shift()!;
      this.#bytes -= entry.bytes;
      if (!entry.confirmed) this.dropped++;
    }
  }
}
