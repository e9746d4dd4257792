import type { App } from './app.js';
import type { ConnectionRecord } from './connection.js';

/**
 * What to do with an inbound frame, given the connection's budget:
 * - `accept`: within `maxFramesPerSecond`;
 * - `refuse`: the first frame over it this second, dropped and answered with 4301;
 * - `drop`: later frames over it this second, dropped silently (answering each would amplify the flood);
 * - `close`: the connection keeps flooding (twice the limit in one second, or over it three seconds in a row).
 */
export type FrameVerdict = 'accept' | 'refuse' | 'drop' | 'close';

/** Seconds in a row over the limit after which a connection is closed. */
const floodSecondsBeforeClose = 3;

/**
 * Fixed one-second windows: a few numbers on the connection, no limiter
 * objects to allocate or leak, and one comparison per frame.
 */
export function spendFrame(connection: ConnectionRecord, app: App, second: number): FrameVerdict {
  if (connection.rateWindow !== second) {
    const wasFlooding = connection.framesInWindow > app.maxFramesPerSecond;
    connection.floodedWindows = wasFlooding && connection.rateWindow === second - 1 ? connection.floodedWindows : 0;
    connection.rateWindow = second;
    connection.framesInWindow = 0;
    connection.clientEventsInWindow = 0;
  }
  const count = ++connection.framesInWindow;
  const limit = app.maxFramesPerSecond;
  if (count <= limit) return 'accept';
  if (count === limit + 1) {
    if (++connection.floodedWindows >= floodSecondsBeforeClose) return 'close';
    return 'refuse';
  }
  return count >= 2 * limit ? 'close' : 'drop';
}

/** Counts a client event in the current window; false when over `maxClientEventsPerSecond`. */
export function spendClientEvent(connection: ConnectionRecord, app: App): boolean {
  return ++connection.clientEventsInWindow <= app.maxClientEventsPerSecond;
}
