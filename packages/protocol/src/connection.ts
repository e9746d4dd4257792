import type { App } from './app.js';
import type { Socket } from './transport.js';

/** A channel this connection asked for; `active` once subscription_succeeded was sent. */
export interface Membership {
  active: boolean;
  /** The presence user id this socket joined as, for presence channels. */
  presenceUserId: string | undefined;
}

/**
 * Per-socket state, kept small: at 10,000 sockets every field counts.
 * Timestamps are in the engine's coarse clock (ms, updated once per sweep).
 */
export class Connection {
  /** `connecting` until the connection quota is confirmed and the handshake sent. */
  state: 'connecting' | 'open' | 'closed' = 'connecting';
  readonly channels = new Map<string, Membership>();
  /** Set by pusher:signin. */
  userId: string | undefined;
  lastSeen: number;
  pingSentAt = 0;
  /** The second (coarse clock) the counters below belong to. */
  rateWindow = 0;
  framesInWindow = 0;
  clientEventsInWindow = 0;
  /** Consecutive seconds in which this connection went over its frame limit. */
  floodedWindows = 0;
  /**
   * The tail of each channel's pending subscribe/unsubscribe, while one is in
   * flight: operations on one channel run one after another, so the last one
   * a client sent decides the outcome. Undefined for a connection never busy.
   */
  channelOps: Map<string, Promise<void>> | undefined;

  constructor(
    readonly socketId: string,
    readonly app: App,
    readonly socket: Socket,
    now: number,
  ) {
    this.lastSeen = now;
  }
}
