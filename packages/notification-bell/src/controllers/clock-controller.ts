import type { ReactiveController, ReactiveControllerHost } from 'lit';

const TICK_MS = 30_000;

/** Re-renders the host every 30 s while running, so relative times ("5 minutes ago") stay true. */
export class ClockController implements ReactiveController {
  #timer: ReturnType<typeof setInterval> | undefined;

  constructor(private readonly host: ReactiveControllerHost) {
    host.addController(this);
  }

  /** Starts or stops the clock; idempotent. */
  run(running: boolean): void {
    if (running === (this.#timer !== undefined)) return;
    clearInterval(this.#timer);
    this.#timer = running ? setInterval(() => this.host.requestUpdate(), TICK_MS) : undefined;
  }

  hostDisconnected(): void {
    this.run(false);
  }
}
