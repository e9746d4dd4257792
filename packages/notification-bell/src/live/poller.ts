/**
 * Calls `tick` every `intervalMs` unless `isPaused()` (hidden tab, healthy
 * live connection). Catches up immediately when the tab becomes visible or
 * the browser comes back online, so a paused poller never leaves stale data.
 */
export class Poller {
  #timer: ReturnType<typeof setInterval> | undefined;
  readonly #onWake = () => {
    if (!this.isPaused()) this.tick();
  };

  constructor(
    private readonly intervalMs: number,
    private readonly tick: () => void,
    private readonly isPaused: () => boolean,
  ) {}

  start(): void {
    this.stop();
    this.#timer = setInterval(this.#onWake, this.intervalMs);
    document.addEventListener('visibilitychange', this.#onWake);
    window.addEventListener('online', this.#onWake);
  }

  stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
    document.removeEventListener('visibilitychange', this.#onWake);
    window.removeEventListener('online', this.#onWake);
  }
}
