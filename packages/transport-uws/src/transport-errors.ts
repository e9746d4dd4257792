import { throttlePerKind } from '@org/protocol';

/** The uWS callback an exception escaped from: the engine's or a handler's bug, caught by the transport. */
export type TransportCallback = 'upgrade' | 'open' | 'message' | 'close' | 'http';

/**
 * Told about every exception the transport caught in a uWS callback. An
 * exception left to reach uWS would end the process, so the transport catches
 * it, keeps the connection or request going as best it can, and reports here.
 */
export type TransportErrorHandler = (error: unknown, where: TransportCallback) => void;

/** Calls `onError`, whose own exceptions are swallowed: a broken reporter must not take the process down either. */
export function reportSafely(onError: TransportErrorHandler, error: unknown, where: TransportCallback): void {
  try {
    onError(error, where);
  } catch {
    // Nothing left to tell.
  }
}

export interface RateLimitedReporterOptions {
  /** At most one report per kind (callback) in this many milliseconds. Default 60,000. */
  intervalMs?: number;
  /** Default: `console.error`. `suppressed` is how many errors of this kind were not reported since the last report. */
  write?: (error: unknown, where: TransportCallback, suppressed: number) => void;
  /** For tests. */
  now?: () => number;
}

function writeToConsole(error: unknown, where: TransportCallback, suppressed: number): void {
  const more = suppressed > 0 ? ` (${suppressed} more since the last report)` : '';
  console.error(`@org/transport-uws: an exception escaped the ${where} callback and was caught${more}:`, error);
}

/**
 * The default `onError`: reports the first error of each kind at once, then
 * at most one per kind per interval, with how many were left out, so a bug hit
 * on every message cannot flood the log.
 */
export function createRateLimitedReporter(options: RateLimitedReporterOptions = {}): TransportErrorHandler {
  const write = options.write ?? writeToConsole;
  const throttle = throttlePerKind<TransportCallback>({ intervalMs: options.intervalMs, now: options.now });
  return (error, where) => throttle(where, (suppressed) => write(error, where, suppressed));
}
