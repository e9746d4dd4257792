/** setTimeout's longest delay (2^31 - 1 ms, about 24.8 days). */
const maxTimerMs = 2 ** 31 - 1;

/**
 * The HTTP requests a server is answering right now, and who waits for there to be none: a drain
 * is told as soon as the last one settles, instead of polling the count.
 *
 * Told one loop turn later, not at once: an answer written from a promise that resolved inside a
 * uWS callback (an async handler answering as the body's last chunk arrives) sits in uWS's cork
 * buffer until that callback returns, and a `close()` before then would drop it.
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
    // Never below zero: a request settled twice must not hide the next one from a drain.
    if (this.#count > 0) this.#count--;
    if (this.#count > 0) return;
    const waiting = [...this.#waiting];
    this.#waiting.clear();
    for (const idle of waiting) idle();
  }

  /**
   * Resolves true once no request is in flight and the last answers are out of uWS's cork buffer
   * (the loop turn after the last one settled), or false at `deadline` (ms since the epoch, as
   * `Date.now()`; Infinity waits for as long as it takes) with some still in flight.
   */
  drained(deadline: number): Promise<boolean> {
    return new Promise((resolve) => {
      let finished = false;
      let timer: NodeJS.Timeout | undefined;
      const finish = (drained: boolean) => {
        finished = true;
        clearTimeout(timer);
        this.#waiting.delete(idle);
        resolve(drained);
      };
      // A timer longer than setTimeout's ceiling would fire at once: a far deadline is waited for in steps.
      // Not unref'd: whoever drains wants the answer, and the wait ends at the deadline.
      const arm = () => {
        const left = deadline - Date.now();
        if (left <= 0) return finish(false);
        if (left !== Infinity) timer = setTimeout(arm, Math.min(left, maxTimerMs));
      };
      const wait = () => {
        this.#waiting.add(idle);
        if (timer === undefined) arm();
      };
      // A request may start in the turn we wait: then it is waited for too.
      const check = () => {
        if (finished) return;
        if (this.#count === 0) finish(true);
        else wait();
      };
      const idle = () => setImmediate(check);
      if (this.#count === 0) idle();
      else wait();
    });
  }
}
