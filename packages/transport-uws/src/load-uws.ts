import { createRequire } from 'node:module';
import type * as uWS from 'uWebSockets.js';

export type UwsModule = typeof uWS;

/** Thrown when uWebSockets.js loaded its slow `ws`-based emulation instead of the native addon. */
export class UwsFallbackError extends Error {
  readonly code = 'UWS_FALLBACK';
  override readonly name = 'UwsFallbackError';
}

/**
 * Some builds (the npm mirror we install) silently fall back to a JavaScript
 * emulation when the native binary does not load. The native `App` is a
 * C++ function; the emulation's is plain JavaScript.
 */
export function isNativeUws(uws: UwsModule): boolean {
  return Function.prototype.toString.call(uws.App).includes('[native code]');
}

export interface LoadUwsOptions {
  /** Accept the emulation (slow, for development only). Default false. */
  allowFallback?: boolean;
}

/** Loads uWebSockets.js and refuses its emulation unless allowed. */
export function loadUws(options: LoadUwsOptions = {}): UwsModule {
  const require = createRequire(import.meta.url);
  const uws = require('uWebSockets.js') as UwsModule;
  if (!isNativeUws(uws) && !options.allowFallback) {
    throw new UwsFallbackError(
      'uWebSockets.js could not load its native addon and fell back to a slow JavaScript emulation. ' +
        'Install a build for this platform and Node.js version, or allow the fallback explicitly for development.',
    );
  }
  return uws;
}
