import { Fifo } from './fifo.js';
import type { OutboxEntry } from './outbox.js';

interface Confirmed<E> {
  entry: E;
  at: number;
}

/**
 * The messages Redis confirmed in the last `windowMs`. A Redis that dies right after answering a
 * PUBLISH may never write the message to its subscribers (it answers the publisher before it
 * writes to them, and a crash in between keeps the confirmation but loses the delivery), and the
 * publisher cannot tell. So when a node notices an outage, what was confirmed shortly before goes
 * back to the outbox with its sequence number: receivers that did get it drop the second copy.
 *
 * Bounded by age (`windowMs`) and by size (`maxChars`, UTF-16 code units of the payloads: counted
 * without encoding on this path, which runs per message while Redis is up).
 */
export class RecentlyConfirmed<E extends OutboxEntry> {
  readonly #windowMs: number;
  readonly #maxChars: number;
  readonly #entries = new Fifo<Confirmed<E>>();
  #chars = 0;

  constructor(windowMs: number, maxChars: number) {
    this.#windowMs = windowMs;
    this.#maxChars = maxChars;
  }

  get size(): number {
    return this.#entries.size;
  }

  /** Redis confirmed `entry` (in sequence order), now. */
  add(entry: E, now: number): void {
    if (this.#windowMs <= 0 || this.#maxChars <= 0) return;
    this.#entries.push({ entry, at: now });
    this.#chars += entry.payload?.length ?? 0;
    this.#trim(now);
  }

  /** Empties the window; returns what was confirmed within it, oldest first. */
  take(now: number): E[] {
    this.#trim(now);
    const entries = this.#entries.drain().map((confirmed) => confirmed.entry);
    this.#chars = 0;
    return entries;
  }

  #trim(now: number): void {
    const oldestKept = now - this.#windowMs;
    while (this.#entries.size > 0 && (this.#chars > this.#maxChars || this.#entries.peek()!.at < oldestKept)) {
      this.#chars -= this.#entries.shift()!.entry.payload?.length ?? 0;
    }
  }
}
