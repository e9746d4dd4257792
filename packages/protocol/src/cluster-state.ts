import type { CachedEvent, HeldChannel, PresenceJoin, PresenceMember, SocketRemoval } from './scaler.js';

export interface ClusterStateOptions {
  /** The clock cached events expire by, in ms since the epoch. Default `Date.now`. */
  now?: () => number;
  /**
   * Cache channels whose last event is kept. Past it, the event of a channel not kept yet is dropped
   * unless expired ones make room (replacing a kept channel's event is always allowed). Default: no bound.
   */
  maxCachedEvents?: number;
}

/** A presence user as kept in memory: their info (JSON text) and their sockets in the channel. */
export interface PresenceUserState {
  readonly userInfo: string;
  readonly sockets: ReadonlySet<string>;
}

interface PresenceUser {
  userInfo: string;
  sockets: Set<string>;
}

/** The inner map for `key`, created on first use. */
function inner<V>(outer: Map<string, Map<string, V>>, key: string): Map<string, V> {
  let map = outer.get(key);
  if (!map) outer.set(key, (map = new Map()));
  return map;
}

const cacheKey = (appId: string, channel: string) => `${appId}\u0000${channel}`;

/**
 * What a scaler knows in memory, synchronously: connections per app, subscribers per channel,
 * presence users with their sockets and info, signed-in users with their sockets, and the last
 * event of cache channels. It is the
 * whole cluster for the single-node scaler (`createLocalScaler` is an async face over it), and
 * this node's own share for a multi-node one (`@org/redis-scaler` answers from it while Redis is
 * unreachable and writes it back afterwards). Apps, channels and users are forgotten as soon as
 * they empty, so the state never grows with churn.
 */
export class ClusterState {
  readonly #now: () => number;
  readonly #maxCachedEvents: number;
  readonly #connections = new Map<string, Set<string>>();
  readonly #subscriptions = new Map<string, Map<string, Set<string>>>();
  readonly #presence = new Map<string, Map<string, Map<string, PresenceUser>>>();
  readonly #cache = new Map<string, { frame: string; expiresAt: number }>();
  /** Signed-in sockets per user per app (kept only for apps with watchlist events). */
  readonly #signedIn = new Map<string, Map<string, Set<string>>>();

  constructor(options: ClusterStateOptions = {}) {
    this.#now = options.now ?? Date.now;
    this.#maxCachedEvents = options.maxCachedEvents ?? Infinity;
  }

  // Connections

  /** Returns the app's connection count after the change. */
  addConnection(appId: string, socketId: string): number {
    let sockets = this.#connections.get(appId);
    if (!sockets) this.#connections.set(appId, (sockets = new Set()));
    sockets.add(socketId);
    return sockets.size;
  }

  /**
   * Removes a closed socket with the channels it held (`removeHeld`). The answer names only what
   * this state held: a channel is vacated when this socket was its last subscriber here.
   */
  removeConnection(appId: string, socketId: string, held: readonly HeldChannel[] = [], signedInAs?: string): SocketRemoval {
    const sockets = this.#connections.get(appId);
    if (sockets?.delete(socketId) && sockets.size === 0) this.#connections.delete(appId);
    const removal = this.removeHeld(appId, socketId, held);
    if (signedInAs !== undefined && this.signOut(appId, signedInAs, socketId)) removal.userWentOffline = true;
    return removal;
  }

  connectionCount(appId: string): number {
    return this.#connections.get(appId)?.size ?? 0;
  }

  // Subscriptions

  /** Returns the channel's subscription count after the change. */
  addSubscription(appId: string, channel: string, socketId: string): number {
    const channels = inner(this.#subscriptions, appId);
    let sockets = channels.get(channel);
    if (!sockets) channels.set(channel, (sockets = new Set()));
    sockets.add(socketId);
    return sockets.size;
  }

  /** Returns the channel's subscription count after the change. */
  removeSubscription(appId: string, channel: string, socketId: string): number {
    const channels = this.#subscriptions.get(appId);
    const sockets = channels?.get(channel);
    if (!channels || !sockets) return 0;
    sockets.delete(socketId);
    if (sockets.size === 0) channels.delete(channel);
    if (channels.size === 0) this.#subscriptions.delete(appId);
    return sockets.size;
  }

  /** Removes a socket from the channels it held, leaving its connection; see `removeConnection`. */
  removeHeld(appId: string, socketId: string, held: readonly HeldChannel[]): SocketRemoval {
    const removal: SocketRemoval = { vacated: [], membersLeft: [] };
    const channels = this.#subscriptions.get(appId);
    for (const { channel, presenceUserId } of held) {
      const sockets = channels?.get(channel);
      if (sockets?.delete(socketId) && sockets.size === 0) {
        channels!.delete(channel);
        removal.vacated.push(channel);
      }
      if (presenceUserId !== undefined && this.leavePresence(appId, channel, socketId, presenceUserId)) {
        removal.membersLeft.push({ channel, userId: presenceUserId });
      }
    }
    if (channels?.size === 0) this.#subscriptions.delete(appId);
    return removal;
  }

  subscriptionCount(appId: string, channel: string): number {
    return this.#subscriptions.get(appId)?.get(channel)?.size ?? 0;
  }

  /** Occupied channels with their subscription counts. */
  channels(appId: string): Map<string, number> {
    const result = new Map<string, number>();
    for (const [channel, sockets] of this.#subscriptions.get(appId) ?? []) result.set(channel, sockets.size);
    return result;
  }

  // Presence

  /** Adds a socket as a presence member unless the channel already has `maxMembers` other users; the newest info wins. */
  joinPresence(appId: string, channel: string, socketId: string, member: PresenceMember, maxMembers: number): PresenceJoin {
    const firstForUser = this.addPresenceSocket(appId, channel, socketId, member);
    return this.settlePresenceJoin(appId, channel, socketId, member.userId, firstForUser, maxMembers);
  }

  /**
   * Records a presence socket without a member limit (for a scaler whose shared store decides);
   * true when it is the user's first socket in the channel here. The newest info wins.
   */
  addPresenceSocket(appId: string, channel: string, socketId: string, member: PresenceMember): boolean {
    const users = inner(inner(this.#presence, appId), channel);
    const user = users.get(member.userId);
    if (user) {
      user.sockets.add(socketId);
      user.userInfo = member.userInfo;
      return false;
    }
    users.set(member.userId, { userInfo: member.userInfo, sockets: new Set([socketId]) });
    return true;
  }

  /**
   * The answer to a join `addPresenceSocket` recorded: a new user who made the channel exceed
   * `maxMembers` is taken out again and refused; a user already present is always admitted.
   */
  settlePresenceJoin(appId: string, channel: string, socketId: string, userId: string, firstForUser: boolean, maxMembers: number): PresenceJoin {
    if (firstForUser && this.userCount(appId, channel) > maxMembers) {
      this.leavePresence(appId, channel, socketId, userId);
      return { status: 'full' };
    }
    return { status: 'joined', firstForUser, members: this.presenceMembers(appId, channel) };
  }

  /** True when that was the user's last socket in the channel here. */
  leavePresence(appId: string, channel: string, socketId: string, userId: string): boolean {
    const channels = this.#presence.get(appId);
    const users = channels?.get(channel);
    const user = users?.get(userId);
    if (!channels || !users || !user || !user.sockets.delete(socketId)) return false;
    if (user.sockets.size > 0) return false;
    users.delete(userId);
    if (users.size === 0) channels.delete(channel);
    if (channels.size === 0) this.#presence.delete(appId);
    return true;
  }

  presenceMembers(appId: string, channel: string): PresenceMember[] {
    const members: PresenceMember[] = [];
    for (const [userId, user] of this.#presence.get(appId)?.get(channel) ?? []) members.push({ userId, userInfo: user.userInfo });
    return members;
  }

  isPresenceMember(appId: string, channel: string, userId: string): boolean {
    return this.#presence.get(appId)?.get(channel)?.has(userId) ?? false;
  }

  userCount(appId: string, channel: string): number {
    return this.#presence.get(appId)?.get(channel)?.size ?? 0;
  }

  // Cached events

  /** Keeps a cache channel's last frame for `ttlSeconds`, within `maxCachedEvents`. */
  storeCachedEvent(appId: string, channel: string, frame: string, ttlSeconds: number): void {
    const key = cacheKey(appId, channel);
    const now = this.#now();
    if (this.#cache.size >= this.#maxCachedEvents && !this.#cache.has(key)) {
      this.pruneCache();
      if (this.#cache.size >= this.#maxCachedEvents) return;
    }
    this.#cache.set(key, { frame, expiresAt: now + ttlSeconds * 1000 });
  }

  /** The last frame with its time to live in whole seconds (rounded up); an expired one is forgotten. */
  cachedEvent(appId: string, channel: string): CachedEvent | undefined {
    const key = cacheKey(appId, channel);
    const entry = this.#cache.get(key);
    if (!entry) return undefined;
    const ttl = Math.ceil((entry.expiresAt - this.#now()) / 1000);
    if (ttl > 0) return { frame: entry.frame, ttl };
    this.#cache.delete(key);
    return undefined;
  }

  /** Forgets expired cached events (read ones are forgotten as they are read). */
  pruneCache(): void {
    const now = this.#now();
    for (const [key, entry] of this.#cache) if (entry.expiresAt <= now) this.#cache.delete(key);
  }

  get cachedEventCount(): number {
    return this.#cache.size;
  }

  // Signed-in users (watchlist events)

  /** True when this is the user's first signed-in socket here. */
  signIn(appId: string, userId: string, socketId: string): boolean {
    const sockets = inner(this.#signedIn, appId).get(userId);
    if (sockets) {
      sockets.add(socketId);
      return false;
    }
    this.#signedIn.get(appId)!.set(userId, new Set([socketId]));
    return true;
  }

  /** True when that was the user's last signed-in socket here; a socket not signed in as the user changes nothing. */
  signOut(appId: string, userId: string, socketId: string): boolean {
    const users = this.#signedIn.get(appId);
    const sockets = users?.get(userId);
    if (!users || !sockets?.delete(socketId) || sockets.size > 0) return false;
    users.delete(userId);
    if (users.size === 0) this.#signedIn.delete(appId);
    return true;
  }

  /** Which of `userIds` have a signed-in socket here. */
  onlineUsers(appId: string, userIds: readonly string[]): string[] {
    const users = this.#signedIn.get(appId);
    return users ? userIds.filter((userId) => users.has(userId)) : [];
  }

  // The whole state, for a scaler that writes it elsewhere (a resync after an outage)

  /** Each app's connections. */
  connectionEntries(): IterableIterator<[appId: string, sockets: ReadonlySet<string>]> {
    return this.#connections.entries();
  }

  /** Each occupied channel's subscribers. */
  *subscriptionEntries(): Generator<[appId: string, channel: string, sockets: ReadonlySet<string>]> {
    for (const [appId, channels] of this.#subscriptions) for (const [channel, sockets] of channels) yield [appId, channel, sockets];
  }

  /** Each presence user of each channel, with their sockets. */
  *presenceEntries(): Generator<[appId: string, channel: string, userId: string, user: PresenceUserState]> {
    for (const [appId, channels] of this.#presence) {
      for (const [channel, users] of channels) for (const [userId, user] of users) yield [appId, channel, userId, user];
    }
  }

  /** Each signed-in user with their sockets. */
  *signedInEntries(): Generator<[appId: string, userId: string, sockets: ReadonlySet<string>]> {
    for (const [appId, users] of this.#signedIn) for (const [userId, sockets] of users) yield [appId, userId, sockets];
  }

  /** True when no app has a connection, subscription, presence member or signed-in user (cached events aside). */
  get isEmpty(): boolean {
    return this.#connections.size === 0 && this.#subscriptions.size === 0 && this.#presence.size === 0 && this.#signedIn.size === 0;
  }

  clear(): void {
    this.#connections.clear();
    this.#subscriptions.clear();
    this.#presence.clear();
    this.#cache.clear();
    this.#signedIn.clear();
  }
}
