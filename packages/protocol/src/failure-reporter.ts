import type { Logger } from './logger.js';

/** How often one kind of failure is logged again while it keeps happening. */
export const failureLogIntervalMs = 60_000;

/**
 * Logs handler failures without letting a client flood the log: the first
 * failure of a kind is logged at once, later ones at most once a minute with
 * the number suppressed meanwhile. Kinds are a small fixed set (handler
 * names), never client-chosen strings, so the map cannot grow.
 */
export class FailureReporter {
  readonly #log: Logger;
  readonly #now: () => number;
  readonly #kinds = new Map<string, { loggedAt: number; suppressed: number }>();

  constructor(log: Logger, now: () => number = Date.now) {
    this.#log = log;
    this.#now = now;
  }

  report(kind: string, error: unknown, context: Record<string, unknown>): void {
    const now = this.#now();
    const seen = this.#kinds.get(kind);
    if (seen && now - seen.loggedAt < failureLogIntervalMs) {
      seen.suppressed++;
      return;
    }
    const suppressed = seen?.suppressed ?? 0;
    this.#kinds.set(kind, { loggedAt: now, suppressed: 0 });
    this.#log.error({ err: error, kind, ...context, ...(suppressed > 0 ? { suppressed } : {}) }, `handling a ${kind} failed; the connection stays open`);
  }
}
