/** setTimeout's longest delay (2^31 - 1 ms, about 24.8 days). */
const maxTimerMs = 2 ** 31 - 1;

/**
 * The HTTP requests a server is answering right now, and who waits for there to be none: a drain
 * is told the moment the last one settles, instead of polling the count.
 */
export class InFlightRequests {
  #count = 0;
  readonly #waiting = new Set<() => void>();

  get count(): number {
    return this.#count;
  }

  started(): void {
    this.#count++;
  }

  settled(): void {
    this.#count--;
    if (this.#count > 0) return;
    const waiting = [...this.#waiting];
    this.#waiting.clear();
    for (const done of waiting) done();
  }

  /**
   * Resolves true once no request is in flight (at once when none is), or false at `deadline`
   * (ms since the epoch, as `Date.now()`; Infinity waits for as long as it takes) with some still
   * in flight.
   */
  drained(deadline: number): Promise<boolean> {
    if (this.#count === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      const done = () => {
        clearTimeout(timer);
        resolve(true);
      };
      const giveUp = () => {
        this.#waiting.delete(done);
        resolve(false);
      };
      // A timer longer than setTimeout's ceiling would fire at once: a far deadline is waited for in steps.
      // Not unref'd: whoever drains wants the answer, and the wait ends at the deadline.
      const arm = () => {
        const left = deadline - Date.now();
        if (left <= 0) return giveUp();
        if (left !== Infinity) timer = setTimeout(arm, Math.min(left, maxTimerMs));
      };
      this.#waiting.add(done);
      arm();
    });
  }
}
