import type { Logger } from './logger.js';

/** How often one kind of failure is reported again while it keeps happening. */
export const failureLogIntervalMs = 60_000;

/**
 * Reports per kind without letting a client flood the log: the first of a
 * kind goes out at once, later ones at most once per interval, told how many
 * were held back meanwhile. Kinds must be a small fixed set (handler or
 * callback names), never client-chosen strings, so the map cannot grow.
 * The engine's failure log and `@org/transport-uws`'s error reporter share it.
 */
export function throttlePerKind<K>(options: { intervalMs?: number | undefined; now?: (() => number) | undefined } = {}): (kind: K, report: (suppressed: number) => void) => void {
  const intervalMs = options.intervalMs ?? failureLogIntervalMs;
  const now = options.now ?? Date.now;
  const kinds = new Map<K, { reportedAt: number; suppressed: number }>();
  return (kind, report) => {
    const at = now();
    const seen = kinds.get(kind);
    if (seen && at - seen.reportedAt < intervalMs) {
      seen.suppressed++;
      return;
    }
    kinds.set(kind, { reportedAt: at, suppressed: 0 });
    report(seen?.suppressed ?? 0);
  };
}

/** Handler failures, logged through `throttlePerKind`. */
export class FailureReporter {
  readonly #log: Logger;
  readonly #throttle: (kind: string, report: (suppressed: number) => void) => void;

  constructor(log: Logger, now: () => number = Date.now) {
    this.#log = log;
    this.#throttle = throttlePerKind({ now });
  }

  report(kind: string, error: unknown, context: Record<string, unknown>): void {
    this.#throttle(kind, (suppressed) =>
      this.#log.error({ err: error, kind, ...context, ...(suppressed > 0 ? { suppressed } : {}) }, `handling a ${kind} failed; the connection stays open`),
    );
  }
}
