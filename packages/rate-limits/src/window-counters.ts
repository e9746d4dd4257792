/**
 * Points spent per slot in fixed one-second windows, each window opened by
 * the first spend after the previous one ended (as rate-limiter-flexible's
 * memory limiter does), kept in a SharedArrayBuffer: worker threads handed
 * the same buffer count in the same words, so a limit holds for the whole
 * process rather than once per worker. Self-contained (no imports): the
 * thread test and the micro bench run this file's source as it is.
 *
 * One slot is one 64-bit word, updated by compare-and-swap (no lock; a spend
 * is a few atomic operations): the window's start in the high 40 bits and the
 * points spent in it in the low 24. The start is the clock in ms modulo 2^40
 * (about 35 years), compared by difference only, so any clock works, before
 * 1970 or after the wrap.
 */
const START_BITS = 24n;
const SPENT_MASK = (1n << START_BITS) - 1n;
const CLOCK_BITS = 40n;
const CLOCK_MASK = (1n << CLOCK_BITS) - 1n;
const HALF_CLOCK = 1n << (CLOCK_BITS - 1n);
const WINDOW_MS = 1_000n;
/** The most points one window can count: a higher limit is this one (no process serves 16.7M points a second). */
export const MAX_POINTS_PER_WINDOW = Number(SPENT_MASK);

/** `now - start` on the 40-bit clock, as a signed difference. */
function sinceStart(now: bigint, start: bigint): bigint {
  const difference = (now - start) & CLOCK_MASK;
  return difference >= HALF_CLOCK ? difference - (1n << CLOCK_BITS) : difference;
}

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
    const now = BigInt(Math.floor(nowMs)) & CLOCK_MASK;
    for (;;) {
      const word = Atomics.load(this.#words, slot);
      const start = word >> START_BITS;
      // Open while less than a window from its start either way: a thread whose clock was read just
      // before another thread opened the window sees a start slightly ahead of it, and must count in
      // that window, not reset it. Only a clock stepped back by more than a window opens a new one.
      const since = sinceStart(now, start);
      const open = word !== 0n && since < WINDOW_MS && since > -WINDOW_MS;
      const spent = open ? Number(word & SPENT_MASK) : 0;
      if (spent + points > cap) return false;
      const next = ((open ? start : now) << START_BITS) | BigInt(spent + points);
      if (Atomics.compareExchange(this.#words, slot, word, next) === word) return true;
    }
  }
}
