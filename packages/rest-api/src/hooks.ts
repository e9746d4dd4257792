import type { ResolvedOptions } from './options.js';
import type { ResponseInfo } from './response-event.js';

/** Hands an unexpected error to `onError`; a failing reporter is swallowed, never answered. */
export function reportError(config: ResolvedOptions, error: unknown, info: { method: string; route: string }): void {
  try {
    config.onError?.(error, info);
  } catch {
    // The error reporter itself failed; nothing sensible is left to do.
  }
}

/**
 * Calls `onResponse`, then emits `http.api.response` on the server's events. If `onResponse`
 * throws, the answer stands and the error goes to `onError`; the engine's emitter isolates its
 * own listeners.
 */
export function notifyResponse(config: ResolvedOptions, info: ResponseInfo): void {
  if (config.onResponse) {
    try {
      config.onResponse(info);
    } catch (error) {
      reportError(config, error, { method: info.method, route: info.route });
    }
  }
  config.server.events.emit('http.api.response', info);
}
