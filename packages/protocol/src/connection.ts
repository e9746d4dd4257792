import type { App } from './app.js';

/**
 * A client connection as the engine's users see it (server events, the
 * transport): what it is, never how the engine keeps it. Treat it as read-only.
 */
export interface Connection {
  readonly socketId: string;
  readonly app: App;
  /** Set by `pusher:signin`. */
  readonly userId: string | undefined;
  /** The channels this connection subscribed to (or is subscribing to), in no particular order. */
  channelNames(): string[];
}

/** A channel a connection asked for; `active` once subscription_succeeded was sent and it hears the channel. */
export class Membership {
  active = false;
  /** The presence user id this socket joined as, for presence channels. */
  presenceUserId: string | undefined = undefined;

  constructor(readonly channel: string) {}
}

export type ConnectionState = 'connecting' | 'open' | 'closed';

/**
 * The engine's one object per connection, kept small: at 10,000 idle sockets
 * every field counts. The first channel is kept inline (most connections hold
 * one), a map only past it. Timestamps are in the node's coarse clock (ms
 * since it started, refreshed once per sweep: small integers, stored unboxed).
 * Only the engine creates these; to everyone else they are `Connection`s.
 */
export class ConnectionRecord implements Connection {
  /** `connecting` until the connection quota is confirmed and the handshake sent. */
  state: ConnectionState = 'connecting';
  userId: string | undefined = undefined;
  lastSeen: number;
  pingSentAt = 0;
  /** The second (coarse clock) the counters below belong to. */
  rateWindow = 0;
  framesInWindow = 0;
  clientEventsInWindow = 0;
  /** Consecutive seconds in which this connection went over its frame limit. */
  floodedWindows = 0;
  /**
   * When (coarse clock) this connection must have signed in or been confirmed on a private- or
   * presence- channel, for apps with `enableUserAuthentication`; 0 when nothing is due (the app does
   * not ask, or the connection authorized itself). The sweep reads it: no timer per connection.
   */
  authorizeBy: number;
  /**
   * The tail of each channel's pending subscribe/unsubscribe (and of the
   * connection's sign-ins with watchlist events, under a key no channel has),
   * only while one is in flight (see channel-order.ts).
   */
  channelOps: Map<string, Promise<void>> | undefined = undefined;
  #first: Membership | undefined = undefined;
  #more: Map<string, Membership> | undefined = undefined;

  constructor(
    readonly socketId: string,
    readonly app: App,
    /** The transport's handle for this socket. */
    readonly socket: unknown,
    now: number,
  ) {
    this.lastSeen = now;
    this.authorizeBy = app.enableUserAuthentication ? now + app.userAuthenticationTimeout * 1000 : 0;
  }

  membership(channel: string): Membership | undefined {
    if (this.#first?.channel === channel) return this.#first;
    return this.#more?.get(channel);
  }

  /** Records a new membership (the caller checked there is none for this channel). */
  addMembership(channel: string): Membership {
    const membership = new Membership(channel);
    if (this.#first === undefined) this.#first = membership;
    else (this.#more ??= new Map()).set(channel, membership);
    return membership;
  }

  /** Forgets this exact membership; false when the channel holds another one (or none). */
  removeMembership(membership: Membership): boolean {
    if (this.#first === membership) {
      this.#first = undefined;
      return true;
    }
    const more = this.#more;
    if (more?.get(membership.channel) !== membership) return false;
    more.delete(membership.channel);
    if (more.size === 0) this.#more = undefined;
    return true;
  }

  /** Removes and returns every membership. */
  takeMemberships(): Membership[] {
    const all = this.memberships();
    this.#first = undefined;
    this.#more = undefined;
    return all;
  }

  memberships(): Membership[] {
    const all = this.#more ? [...this.#more.values()] : [];
    if (this.#first) all.unshift(this.#first);
    return all;
  }

  get channelCount(): number {
    return (this.#first ? 1 : 0) + (this.#more?.size ?? 0);
  }

  channelNames(): string[] {
    return this.memberships().map((membership) => membership.channel);
  }

  /** Whether this socket joined a presence channel as `userId`. */
  presentAs(userId: string): boolean {
    if (this.#first?.presenceUserId === userId) return true;
    if (this.#more) for (const membership of this.#more.values()) if (membership.presenceUserId === userId) return true;
    return false;
  }
}
