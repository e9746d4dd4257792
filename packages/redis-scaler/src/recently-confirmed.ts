import type { OutboxEntry } from './outbox.js';

/** Confirmed messages kept at most: a crash loses what Redis had not yet written, a few event-loop passes' worth. */
const defaultCapacity = 1_024;

/**
 * The last messages Redis confirmed, for `windowMs`. A Redis that dies right after answering a
 * PUBLISH may never write the message to its subscribers (it answers the publisher before it
 * writes to them, and a crash in between keeps the confirmation but loses the delivery), and the
 * publisher cannot tell. So when a node notices an outage, what was confirmed shortly before goes
 * back to the outbox with its sequence number: receivers that did get it drop the second copy.
 *
 * A ring of fixed size, written once per confirmed PUBLISH while Redis is up: no allocation, and
 * an entry is let go after `capacity` newer ones, so little of it lives long enough to burden the
 * garbage collector. After a crash nothing is confirmed any more, so the ring keeps the last
 * messages before it however long the outage takes to notice (within `windowMs`).
 */
export class RecentlyConfirmed<E extends OutboxEntry> {
  readonly #windowMs: number;
  readonly #entries: (E | undefined)[];
  readonly #times: Float64Array;
  /** Where the next confirmation is written. */
  #next = 0;
  #size = 0;

  constructor(windowMs: number, capacity = defaultCapacity) {
    this.#windowMs = windowMs;
    const slots = windowMs > 0 ? capacity : 0;
    this.#entries = new Array<E | undefined>(slots).fill(undefined);
    this.#times = new Float64Array(slots);
  }

  get size(): number {
    return this.#size;
  }

  /** Redis confirmed `entry` (in sequence order) at `now`. */
  add(entry: E, now: number): void {
    const capacity = this.#entries.length;
    if (capacity === 0) return;
    this.#entries[this.#next] = entry;
    this.#times[this.#next] = now;
    this.#next = (this.#next + 1) % capacity;
    if (this.#size < capacity) this.#size++;
  }

  /** Empties the ring; returns what was confirmed within the window before `now`, oldest first. */
  take(now: number): E[] {
    const capacity = this.#entries.length;
    const taken: E[] = [];
    const oldestKept = now - this.#windowMs;
    for (let i = 0; i < this.#size; i++) {
      const slot = (this.#next - this.#size + i + capacity) % capacity;
      const entry = this.#entries[slot]!;
      this.#entries[slot] = undefined;
      if (this.#times[slot]! >= oldestKept) taken.push(entry);
    }
    this.#size = 0;
    return taken;
  }
}
