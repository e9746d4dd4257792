/**
 * Points spent per slot in fixed one-second windows, each window opened by
 * the first spend after the previous one ended (as rate-limiter-flexible's
 * memory limiter does), kept in a SharedArrayBuffer: the worker threads of
 * `--workers N` are handed the same buffer, so a limit holds for the whole
 * process rather than once per worker.
 *
 * One slot is one 64-bit word, updated by compare-and-swap (no lock; a spend
 * is a few atomic operations): the window's start in the high 40 bits (ms
 * since EPOCH_MS, good until 2059) and the points spent in it in the low 24.
 */
const START_BITS = 24n;
const SPENT_MASK = (1n << START_BITS) - 1n;
/** 2025-01-01T00:00:00Z: a clock before it counts from it. */
const EPOCH_MS = 1_735_689_600_000;
const WINDOW_MS = 1_000;
/** The most points one window can count: a higher limit is this one (no process serves 16.7M points a second). */
export const MAX_POINTS_PER_WINDOW = Number(SPENT_MASK);

export class WindowCounters {
  readonly #words: BigUint64Array;

  /** Bytes of the buffer for `slots` counters. */
  static bytesFor(slots: number): number {
    return slots * BigUint64Array.BYTES_PER_ELEMENT;
  }

  /** Counters of their own (one thread), or over a buffer shared with other threads. */
  constructor(slots: number, buffer: SharedArrayBuffer = new SharedArrayBuffer(WindowCounters.bytesFor(slots))) {
    if (buffer.byteLength !== WindowCounters.bytesFor(slots)) {
      throw new RangeError(`rate limit counters: the shared buffer holds ${buffer.byteLength} bytes, ${WindowCounters.bytesFor(slots)} expected for ${slots} slots`);
    }
    this.#words = new BigUint64Array(buffer);
  }

  /**
   * Spends `points` of `limit` in the current window of `slot`, if they fit;
   * a refusal spends nothing (a client retrying too early cannot push the
   * window's count further).
   */
  tryConsume(slot: number, points: number, limit: number, nowMs: number = Date.now()): boolean {
    const cap = Math.min(limit, MAX_POINTS_PER_WINDOW);
    if (points > cap) return false;
    const now = Math.max(0, Math.floor(nowMs) - EPOCH_MS);
    for (;;) {
      const word = Atomics.load(this.#words, slot);
      const start = Number(word >> START_BITS);
      // A window ended, never opened (start 0 with nothing spent), or ahead of a clock that stepped back: a new one opens now.
      const open = word !== 0n && now >= start && now - start < WINDOW_MS;
      const spent = open ? Number(word & SPENT_MASK) : 0;
      if (spent + points > cap) return false;
      const next = (BigInt(open ? start : now) << START_BITS) | BigInt(spent + points);
      if (Atomics.compareExchange(this.#words, slot, word, next) === word) return true;
    }
  }
}
