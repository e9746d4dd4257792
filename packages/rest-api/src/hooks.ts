import type { ResolvedOptions } from './options.js';
import type { ResponseInfo } from './options.js';

/** Hands an unexpected error to `onError`; a failing reporter is swallowed, never answered. */
export function reportError(config: ResolvedOptions, error: unknown, info: { method: string; route: string }): void {
  try {
    config.onError?.(error, info);
  } catch {
    // The error reporter itself failed; nothing sensible is left to do.
  }
}

/** Calls `onResponse`; if it throws, the answer stands and the error goes to `onError`. */
export function notifyResponse(config: ResolvedOptions, info: ResponseInfo): void {
  if (!config.onResponse) return;
  try {
    config.onResponse(info);
  } catch (error) {
    reportError(config, error, { method: info.method, route: info.route });
  }
}
